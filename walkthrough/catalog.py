"""The chapters and their exercises, read from the files under ``walkthrough/``.

Layout (nothing is imported to list it, so a copy of the tree works the same)::

    walkthrough/ch03/chapter.yaml                 title (en, zh), exercises in order
    walkthrough/ch03/example.py                   the chapter's example, made for a debugger
    walkthrough/ch03/exercises/config-ops/
        exercise.py                               the learner's file (shipped with TODOs)
        solution.py                               the reference solution, with its markers
        test_exercise.py                          the expectations, run against exercise.py
        hints.yaml                                title, the port's original, hints (en, zh)
        README.md, README.zh.md                   the task, for people browsing the folder
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

#: The folder of the walkthrough package, where the shipped chapters are.
PACKAGE_DIR = Path(__file__).resolve().parent

CHAPTER_DIR = re.compile(r"^ch(\d\d)$")


class CatalogError(ValueError):
    """A chapter or exercise whose files are missing or malformed."""


class UnknownExercise(LookupError):
    """No exercise of that name; carries the names that exist."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(name)
        self.name = name
        self.known = known


@dataclass
class Exercise:
    """One exercise: where its files are, its title and its hints."""

    chapter: Chapter
    name: str
    dir: Path
    title: dict[str, str]
    hints: list[dict[str, str]]
    #: The port's original of the code the exercise asks for: ``module:Qualified.name``.
    port: str

    @property
    def key(self) -> str:
        """``ch03/config-ops``: the chapter and the name."""
        return f"{self.chapter.slug}/{self.name}"

    @property
    def exercise_file(self) -> Path:
        return self.dir / "exercise.py"

    @property
    def solution_file(self) -> Path:
        return self.dir / "solution.py"

    @property
    def test_file(self) -> Path:
        return self.dir / "test_exercise.py"


@dataclass
class Chapter:
    """A chapter: its number, title and exercises in order."""

    number: int
    dir: Path
    title: dict[str, str]
    exercises: list[Exercise] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return f"ch{self.number:02d}"

    @property
    def example(self) -> Path:
        return self.dir / "example.py"


def _bilingual(data: Any, where: str) -> dict[str, str]:
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in ("en", "zh")):
        raise CatalogError(f"{where}: needs an English (en) and a Chinese (zh) text")
    return {"en": data["en"].strip(), "zh": data["zh"].strip()}


def _load_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise CatalogError(f"{path}: {err}") from err
    if not isinstance(data, dict):
        raise CatalogError(f"{path}: expected a mapping")
    return data


def load_exercise(chapter: Chapter, name: str) -> Exercise:
    """Read one exercise's ``hints.yaml`` and check its files are there."""
    folder = chapter.dir / "exercises" / name
    meta_path = folder / "hints.yaml"
    meta = _load_yaml(meta_path)
    hints = meta.get("hints")
    if not isinstance(hints, list) or not hints:
        raise CatalogError(f"{meta_path}: hints: a list of at least one hint")
    exercise = Exercise(
        chapter=chapter,
        name=name,
        dir=folder,
        title=_bilingual(meta.get("title"), f"{meta_path}: title"),
        hints=[_bilingual(h, f"{meta_path}: hint {i}") for i, h in enumerate(hints, 1)],
        port=str(meta.get("port", "")),
    )
    for path in (exercise.exercise_file, exercise.solution_file, exercise.test_file):
        if not path.is_file():
            raise CatalogError(f"{exercise.key}: {path.name} is missing")
    return exercise


def discover(root: Path | None = None) -> list[Chapter]:
    """Every chapter under ``root`` (default: the package's own), in order, with exercises."""
    root = PACKAGE_DIR if root is None else Path(root)
    chapters: list[Chapter] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        match = CHAPTER_DIR.match(folder.name)
        if not match or not (folder / "chapter.yaml").is_file():
            continue
        meta = _load_yaml(folder / "chapter.yaml")
        chapter = Chapter(
            number=int(match.group(1)),
            dir=folder,
            title=_bilingual(meta.get("title"), f"{folder / 'chapter.yaml'}: title"),
        )
        names = meta.get("exercises") or []
        if not isinstance(names, list):
            raise CatalogError(f"{folder / 'chapter.yaml'}: exercises: a list of names")
        chapter.exercises = [load_exercise(chapter, str(n)) for n in names]
        chapters.append(chapter)
    return chapters


def all_exercises(chapters: list[Chapter]) -> list[Exercise]:
    """Every exercise, in course order."""
    return [e for c in chapters for e in c.exercises]


def find(chapters: list[Chapter], name: str) -> Exercise:
    """The exercise called ``name`` (``config-ops``) or ``ch03/config-ops``."""
    wanted = name.strip().strip("/")
    for exercise in all_exercises(chapters):
        if wanted in (exercise.name, exercise.key):
            return exercise
    raise UnknownExercise(name, [e.key for e in all_exercises(chapters)])
