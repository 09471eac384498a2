"""Fixtures for the walkthrough's tests: a copy of the chapters to check, reset and watch."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from walkthrough import checkserver
from walkthrough.catalog import PACKAGE_DIR, find
from walkthrough.runner import Workspace


@pytest.fixture(scope="session", autouse=True)
def no_check_server_left() -> Iterator[None]:
    """The check server the tests started ends with them (a learner's waits for its idle time)."""
    yield
    checkserver.stop()


def copy_chapters(tmp_path: Path, progress: str = ".walkthrough-progress.json") -> Workspace:
    """The chapters copied to ``tmp_path``, without learners' files; progress kept there too."""
    root = tmp_path / "walkthrough"
    for chapter in sorted(PACKAGE_DIR.glob("ch[0-9][0-9]")):
        shutil.copytree(
            chapter,
            root / chapter.name,
            ignore=shutil.ignore_patterns("__pycache__", "exercise.py"),
        )
    return Workspace(root=root, progress_path=tmp_path / progress)


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    """The chapters copied to a temporary folder, without learners' files; progress there."""
    return copy_chapters(tmp_path)


def solve(ws: Workspace, name: str) -> None:
    """Do an exercise: the learner's file becomes the reference (the port's own code)."""
    exercise = find(ws.chapters(), name)
    exercise.exercise_file.write_text(ws.reference(exercise, "en"), encoding="utf-8")


def edit(ws: Workspace, name: str, old: str, new: str) -> str:
    """Change the learner's file (made first if missing); returns the new text."""
    exercise = find(ws.chapters(), name)
    ws.ensure_files("en", [exercise])
    text = exercise.exercise_file.read_text(encoding="utf-8")
    assert old in text, old
    text = text.replace(old, new, 1)
    exercise.exercise_file.write_text(text, encoding="utf-8")
    return text
