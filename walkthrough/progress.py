"""The learner's progress: a small JSON file in the working tree, never in the home folder.

``.walkthrough-progress.json`` sits at the top of the repository (git ignores it). It records
which exercises pass their checks (a failing check takes the mark away again), when, how many
hints of each were shown, and the exercise ``watch`` is on. It is written atomically (a new
file renamed over the old one). A file that cannot be read is not silently taken for "nothing
done": :meth:`Progress.load` moves it aside, keeps it, and says so (``Progress.problem``).
``MINIKUBELET_WALKTHROUGH_PROGRESS`` names another file.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from walkthrough.catalog import PACKAGE_DIR

FILE_NAME = ".walkthrough-progress.json"
ENV = "MINIKUBELET_WALKTHROUGH_PROGRESS"
VERSION = 1


def default_path() -> Path:
    """``$MINIKUBELET_WALKTHROUGH_PROGRESS``, else the file at the top of the repository."""
    explicit = os.environ.get(ENV)
    return Path(explicit) if explicit else PACKAGE_DIR.parent / FILE_NAME


class CorruptProgress(ValueError):
    """A progress file that is not what this runner writes."""


#: The runner's own file is a few KiB; more than this is not one of ours.
MAX_BYTES = 1 << 20


class _NotRegular(OSError):
    """The progress path is a pipe, a device or a folder: not read, never written over."""


def _read_regular(path: Path) -> bytes:
    """At most MAX_BYTES + 1 bytes of a regular file (a FIFO would block, /dev/zero never end)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
            raise _NotRegular(f"{kind} ({stat.filemode(mode)})")
        with os.fdopen(fd, "rb", closefd=False) as file:
            return file.read(MAX_BYTES + 1)
    finally:
        os.close(fd)


def _parse(text: str) -> tuple[dict[str, str], dict[str, int], str | None]:
    try:
        data: Any = json.loads(text)
    except ValueError as err:
        raise CorruptProgress(f"not JSON ({err})") from err
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise CorruptProgress(f"not a version {VERSION} progress file")
    done, hints, current = data.get("done", {}), data.get("hints", {}), data.get("current")
    if not isinstance(done, dict) or not all(isinstance(v, str) for v in done.values()):
        raise CorruptProgress("'done' is not a map of exercise to time")
    if not isinstance(hints, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in hints.values()
    ):
        raise CorruptProgress("'hints' is not a map of exercise to a count")
    if current is not None and not isinstance(current, str):
        raise CorruptProgress("'current' is not an exercise")
    return dict(done), dict(hints), current


@dataclass
class Progress:
    """What the file holds: exercise key → when it passed; hints shown; the current exercise."""

    path: Path
    done: dict[str, str] = field(default_factory=dict)
    hints_shown: dict[str, int] = field(default_factory=dict)
    current: str | None = None
    #: Set by :meth:`load` when the file could not be read: (what was wrong, where a copy is).
    problem: tuple[str, Path] | None = None

    @classmethod
    def load(cls, path: Path | None = None) -> Progress:
        """Read the file; a missing file is no progress yet, a corrupt one is kept aside."""
        path = default_path() if path is None else Path(path)
        try:
            data = _read_regular(path)
        except FileNotFoundError:
            return cls(path)
        except _NotRegular as err:
            # Never moved aside nor written over: it may be a device or another program's pipe.
            progress = cls(path)
            progress.problem = (str(err), path)
            return progress
        except OSError as err:
            return cls._aside(path, f"unreadable ({err})")
        try:
            if len(data) > MAX_BYTES:
                raise CorruptProgress(f"larger than {MAX_BYTES // 1024} KiB")
            done, hints, current = _parse(data.decode("utf-8"))
        except UnicodeDecodeError as err:
            return cls._aside(path, f"unreadable ({err})")
        except CorruptProgress as err:
            return cls._aside(path, str(err))
        return cls(path, done, hints, current)

    @classmethod
    def _aside(cls, path: Path, why: str) -> Progress:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        copy = path.with_name(f"{path.name}.corrupt-{stamp}")
        try:
            os.replace(path, copy)
        except OSError:
            copy = path  # could not move it: it stays where it is, and is not overwritten
        progress = cls(path)
        progress.problem = (why, copy)
        return progress

    def save(self) -> bool:
        """Write the file atomically; True when it did not exist before (the caller says where)."""
        if self.problem is not None and self.problem[1] == self.path:
            return False  # never overwrite a corrupt file we could not move aside
        new = not self.path.exists()
        data = {
            "version": VERSION,
            "done": self.done,
            "hints": self.hints_shown,
            "current": self.current,
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(json.dumps(data, indent=2, sort_keys=True) + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        return new

    def is_done(self, key: str) -> bool:
        return key in self.done

    def mark_done(self, key: str) -> None:
        self.done.setdefault(key, datetime.now().astimezone().isoformat(timespec="seconds"))

    def mark_pending(self, key: str) -> None:
        self.done.pop(key, None)

    def forget(self, key: str) -> None:
        self.done.pop(key, None)
        self.hints_shown.pop(key, None)
