"""Fixtures for the walkthrough's tests: a copy of the chapters to check, reset and watch."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from walkthrough.catalog import PACKAGE_DIR
from walkthrough.runner import Workspace, shipped_version


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    """The chapters copied to a temporary folder, each exercise file as shipped; progress there."""
    root = tmp_path / "walkthrough"
    for chapter in sorted(PACKAGE_DIR.glob("ch[0-9][0-9]")):
        shutil.copytree(chapter, root / chapter.name, ignore=shutil.ignore_patterns("__pycache__"))
    ws = Workspace(root=root, progress_path=tmp_path / ".walkthrough-progress.json")
    for exercise in ws.exercises():
        exercise.exercise_file.write_text(shipped_version(exercise), encoding="utf-8")
    return ws
