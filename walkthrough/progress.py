"""The learner's progress: a small JSON file in the working tree, never in the home folder.

``.walkthrough-progress.json`` sits at the top of the repository (git ignores it). It records
which exercises passed their check, when, and how many hints of each were shown. Delete it to
start over. ``MINIKUBELET_WALKTHROUGH_PROGRESS`` names another file.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from walkthrough.catalog import PACKAGE_DIR

FILE_NAME = ".walkthrough-progress.json"
ENV = "MINIKUBELET_WALKTHROUGH_PROGRESS"


def default_path() -> Path:
    """``$MINIKUBELET_WALKTHROUGH_PROGRESS``, else the file at the top of the repository."""
    explicit = os.environ.get(ENV)
    return Path(explicit) if explicit else PACKAGE_DIR.parent / FILE_NAME


@dataclass
class Progress:
    """What the file holds: exercise key → when it passed; exercise key → hints shown."""

    path: Path
    done: dict[str, str] = field(default_factory=dict)
    hints_shown: dict[str, int] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path | None = None) -> Progress:
        """Read the file; a missing or unreadable file is no progress yet."""
        path = default_path() if path is None else Path(path)
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        if not isinstance(data, dict):
            data = {}
        done = data.get("done") if isinstance(data.get("done"), dict) else {}
        hints = data.get("hints") if isinstance(data.get("hints"), dict) else {}
        return cls(
            path,
            {str(k): str(v) for k, v in done.items()},
            {str(k): int(v) for k, v in hints.items() if isinstance(v, int)},
        )

    def save(self) -> bool:
        """Write the file; True when it did not exist before (the caller tells the learner)."""
        new = not self.path.exists()
        data = {"version": 1, "done": self.done, "hints": self.hints_shown}
        self.path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        return new

    def is_done(self, key: str) -> bool:
        return key in self.done

    def mark_done(self, key: str) -> None:
        self.done.setdefault(key, datetime.now().astimezone().isoformat(timespec="seconds"))

    def forget(self, key: str) -> None:
        self.done.pop(key, None)
        self.hints_shown.pop(key, None)
