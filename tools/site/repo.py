"""What git says about the clone the site is built from (its origin, its commit)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git_output(root: Path, *args: str) -> str:
    """The output of ``git -C root ARGS``, or ``""`` when git fails or is missing."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""
