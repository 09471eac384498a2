"""The chapters and their exercises, read from the files under ``walkthrough/`` (see README.md).

This is the book's one list of chapters: the site's navigation (tools/site/nav.py), the home
page's path through the chapters (tools/site/chapter_list.py), the debugger configurations (``.vscode/launch.json``, walkthrough/vscode.py), the exercise list
and the tests that go through every chapter all read it. A chapter is its folder; its page is
``docs/chapters/NN-*.md`` (and ``.zh.md``).

Layout (nothing of the port is imported to list them, so ``list`` and the site stay cheap)::

    walkthrough/ch03/chapter.yaml                 title (en, zh); optional: summary (en, zh),
                                                  part, example (what it shows), exercises
                                                  in order
    walkthrough/ch03/example.py                   the chapter's example, made for a debugger
                                                  (optional: a chapter may have none yet)
    walkthrough/ch03/exercises/config-ops/
        exercise.yaml                             title, task, the port's regions, hints, mutants
        checks.py                                 check_* functions, run against the learner's code
        exercise.py                               the learner's file: made from the port on first
                                                  use, then theirs (git ignores it)

:func:`catalog_data` is the machine-readable form (``python -m walkthrough list --json``).
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

#: The folder of the walkthrough package, where the shipped chapters are.
PACKAGE_DIR = Path(__file__).resolve().parent

CHAPTER_DIR = re.compile(r"^ch(\d\d)$")
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
TARGET = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")

#: libyaml's safe loader where PyYAML was built with it (ten times faster), else PyYAML's own.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: The files the catalogue is read from, under the walkthrough's folder (not the learner's).
CATALOG_FILES = (
    "ch*/chapter.yaml",
    "ch*/example.py",  # whether a chapter has one is checked against its chapter.yaml
    "ch*/exercises/*/exercise.yaml",
    "ch*/exercises/*/checks.py",
)

#: Every exercise keeps at least this many wrong answers, each proven to fail.
MIN_MUTANTS = 3

#: What a chapter.yaml may hold.
CHAPTER_KEYS = ("title", "summary", "part", "example", "exercises")
#: Part numbers as a reader sees them, in each language (a book has a handful of parts).
PART_NUMERALS = {
    "en": ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"),
    "zh": ("一", "二", "三", "四", "五", "六", "七", "八", "九", "十"),
}


class CatalogError(ValueError):
    """A chapter or exercise whose files are missing or malformed."""


class UnknownExercise(LookupError):
    """No exercise of that name; carries the names that exist."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(name)
        self.name = name
        self.known = known


@dataclass(frozen=True)
class Region:
    """A part of a port function taken out of the learner's file, named by a ``# Go:`` anchor.

    The anchor is a comment ``# Go: <Go text>`` on its own line in the port function (the block
    anchors tools/xref reads). Under a ``case``/``default`` anchor the case's body is taken out and
    its header kept; under any other anchor, ``statements`` statements from the one below the
    comment (``body: true`` keeps that statement's header and takes out its body instead).
    """

    name: str
    anchor: str
    todo: dict[str, str]
    stub: str = "pass"
    #: ``module:Qualified.name`` of the function holding the anchor; None: search every function.
    within: str | None = None
    occurrence: int = 1
    statements: int = 1
    #: Keep the header of the statement below the anchor, take out its body (None: only for cases).
    body: bool | None = None


@dataclass(frozen=True)
class Edit:
    """One change of a mutant: ``find`` → ``replace`` inside a region, or the region as ``code``."""

    region: str
    find: str | None = None
    replace: str = ""
    code: str | None = None


@dataclass(frozen=True)
class Mutant:
    """A plausible wrong answer: the reference with a few edits. CI proves the checks fail on it."""

    name: str
    why: str
    edits: tuple[Edit, ...]


@dataclass
class Exercise:
    """One exercise: where its files are, what it takes out of the port, its texts and mutants."""

    chapter: Chapter
    name: str
    dir: Path
    title: dict[str, str]
    task: dict[str, str]
    #: The port functions the learner's file holds, ``module:Qualified.name``, in file order.
    port: list[str]
    regions: list[Region]
    #: The hints in words, from the idea to the names. The last hint, the port's own code for
    #: each TODO, is not written here: `walkthrough.derive.answer_hint` makes it from the port.
    hints: list[dict[str, str]]
    mutants: list[Mutant]

    @property
    def key(self) -> str:
        """``ch03/config-ops``: the chapter and the name."""
        return f"{self.chapter.slug}/{self.name}"

    @property
    def hint_count(self) -> int:
        """How many hints the learner can ask for: those in words, then the port's code."""
        return len(self.hints) + 1

    @property
    def spec_file(self) -> Path:
        return self.dir / "exercise.yaml"

    @property
    def exercise_file(self) -> Path:
        """The learner's file (made from the port when missing)."""
        return self.dir / "exercise.py"

    @property
    def checks_file(self) -> Path:
        return self.dir / "checks.py"

    def region(self, name: str) -> Region:
        for region in self.regions:
            if region.name == name:
                return region
        raise CatalogError(f"{self.spec_file}: no region named {name!r}")


@dataclass(frozen=True)
class Part:
    """A part of the book: chapters that the site's navigation groups under one title."""

    number: int
    title: dict[str, str]

    def label(self, lang: str) -> str:
        """``Part IV: What syncPod waits for`` / ``第四部分：…``, as the navigation shows it."""
        numeral = PART_NUMERALS[lang][self.number - 1]
        if lang == "zh":
            return f"第{numeral}部分：{self.title['zh']}"
        return f"Part {numeral}: {self.title['en']}"


@dataclass
class Chapter:
    """A chapter: its number, title, part, example and exercises in order."""

    number: int
    dir: Path
    title: dict[str, str]
    exercises: list[Exercise] = field(default_factory=list)
    part: Part | None = None
    #: Lines the example prints (seed 1, in English) that show what the chapter is about; the
    #: tests hold the example to them. Empty when the chapter has no example.
    shows: list[str] = field(default_factory=list)
    #: What the chapter follows on the pod's path, a sentence or two in each language, for the
    #: home page's list of chapters; None when its chapter.yaml has none (the list then shows
    #: the chapter's heading alone).
    summary: dict[str, str] | None = None

    @property
    def slug(self) -> str:
        return f"ch{self.number:02d}"

    @property
    def example(self) -> Path | None:
        """The chapter's example script, or None while the chapter has none."""
        path = self.dir / "example.py"
        return path if path.is_file() else None


def _bilingual(data: Any, where: str) -> dict[str, str]:
    if not isinstance(data, dict) or not all(
        isinstance(data.get(k), str) and data[k].strip() for k in ("en", "zh")
    ):
        raise CatalogError(f"{where}: needs an English (en) and a Chinese (zh) text")
    return {"en": data["en"].strip(), "zh": data["zh"].strip()}


def _prose(text: dict[str, str]) -> dict[str, str]:
    """Paragraphs as one line each (YAML block text keeps the author's line breaks)."""
    return {
        lang: "\n\n".join(" ".join(p.split()) for p in value.split("\n\n") if p.strip())
        for lang, value in text.items()
    }


def _load_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise CatalogError(f"{path}: {err}") from err
    if not isinstance(data, dict):
        raise CatalogError(f"{path}: expected a mapping")
    return data


def _region(data: Any, where: str, port: list[str]) -> Region:
    if not isinstance(data, dict):
        raise CatalogError(f"{where}: a mapping with name, anchor and todo")
    name, anchor = data.get("name"), data.get("anchor")
    if not isinstance(name, str) or not NAME.match(name):
        raise CatalogError(f"{where}: name: lower-case words joined by '-'")
    if not isinstance(anchor, str) or not anchor.strip():
        raise CatalogError(f"{where}: anchor: the text of a '# Go: …' comment in the port")
    within = data.get("in")
    if within is not None and within not in port:
        raise CatalogError(f"{where}: in: {within!r} is not one of port: {port}")
    stub = data.get("stub", "pass")
    occurrence, statements = data.get("occurrence", 1), data.get("statements", 1)
    body = data.get("body")
    if not isinstance(stub, str) or not stub.strip():
        raise CatalogError(f"{where}: stub: the code that stands in for the region")
    if not all(isinstance(n, int) and n >= 1 for n in (occurrence, statements)):
        raise CatalogError(f"{where}: occurrence and statements are counts (1 or more)")
    if body is not None and not isinstance(body, bool):
        raise CatalogError(f"{where}: body: true or false")
    return Region(
        name=name,
        anchor=" ".join(anchor.split()),
        todo=_prose(_bilingual(data.get("todo"), f"{where}: todo")),
        stub=stub.strip("\n"),
        within=within,
        occurrence=occurrence,
        statements=statements,
        body=body,
    )


def _mutant(data: Any, where: str, regions: set[str]) -> Mutant:
    if not isinstance(data, dict):
        raise CatalogError(f"{where}: a mapping with name, why and edits")
    name, why, edits = data.get("name"), data.get("why"), data.get("edits")
    if not isinstance(name, str) or not NAME.match(name):
        raise CatalogError(f"{where}: name: lower-case words joined by '-'")
    if not isinstance(why, str) or not why.strip():
        raise CatalogError(f"{where}: why: the mistake this wrong answer makes, in a sentence")
    if not isinstance(edits, list) or not edits:
        raise CatalogError(f"{where}: edits: a list of at least one edit")
    parsed = []
    for i, edit in enumerate(edits, 1):
        at = f"{where}: edit {i}"
        if not isinstance(edit, dict) or edit.get("region") not in regions:
            raise CatalogError(f"{at}: region: one of {sorted(regions)}")
        find, code = edit.get("find"), edit.get("code")
        if (find is None) == (code is None):
            raise CatalogError(f"{at}: either find (with replace) or code")
        if find is not None and (not isinstance(find, str) or not find):
            raise CatalogError(f"{at}: find: the text to change")
        replace = edit.get("replace", "")
        if not isinstance(replace, str) or (code is not None and not isinstance(code, str)):
            raise CatalogError(f"{at}: replace and code are text")
        parsed.append(Edit(edit["region"], find, replace, code))
    return Mutant(name, why.strip(), tuple(parsed))


def load_exercise(chapter: Chapter, name: str) -> Exercise:
    """Read one exercise's ``exercise.yaml`` and check that its checks are there."""
    folder = chapter.dir / "exercises" / name
    spec = folder / "exercise.yaml"
    if not NAME.match(name):
        raise CatalogError(f"{chapter.dir / 'chapter.yaml'}: {name!r} is not a valid name")
    if not spec.is_file():
        raise CatalogError(f"{chapter.slug}/{name}: {spec} is missing")
    meta = _load_yaml(spec)
    port = meta.get("port")
    if not isinstance(port, list) or not port or not all(isinstance(p, str) for p in port):
        raise CatalogError(f"{spec}: port: a list of module:Qualified.name")
    for target in port:
        if not TARGET.match(target):
            raise CatalogError(f"{spec}: port: {target!r} is not module:Qualified.name")
    raw_regions = meta.get("regions")
    if not isinstance(raw_regions, list) or not raw_regions:
        raise CatalogError(f"{spec}: regions: a list of at least one region")
    regions = [_region(r, f"{spec}: region {i}", port) for i, r in enumerate(raw_regions, 1)]
    names = [r.name for r in regions]
    if len(set(names)) != len(names):
        raise CatalogError(f"{spec}: two regions have the same name")
    hints = meta.get("hints")
    if not isinstance(hints, list) or not hints:
        raise CatalogError(
            f"{spec}: hints: a list of at least one hint in words (the last hint, the port's "
            "code, is made from the regions)"
        )
    raw_mutants = meta.get("mutants")
    if not isinstance(raw_mutants, list) or len(raw_mutants) < MIN_MUTANTS:
        raise CatalogError(f"{spec}: mutants: at least {MIN_MUTANTS} wrong answers")
    mutants = [_mutant(m, f"{spec}: mutant {i}", set(names)) for i, m in enumerate(raw_mutants, 1)]
    if len({m.name for m in mutants}) != len(mutants):
        raise CatalogError(f"{spec}: two mutants have the same name")
    exercise = Exercise(
        chapter=chapter,
        name=name,
        dir=folder,
        title=_bilingual(meta.get("title"), f"{spec}: title"),
        task=_prose(_bilingual(meta.get("task"), f"{spec}: task")),
        port=port,
        regions=regions,
        hints=[_bilingual(h, f"{spec}: hint {i}") for i, h in enumerate(hints, 1)],
        mutants=mutants,
    )
    if not exercise.checks_file.is_file():
        raise CatalogError(f"{exercise.key}: {exercise.checks_file} is missing")
    return exercise


#: What :func:`discover` read, per folder: the state of its files then, and the chapters.
_read: dict[Path, tuple[tuple[tuple[str, int, int], ...], list[Chapter]]] = {}


def _files_state(root: Path) -> tuple[tuple[str, int, int], ...]:
    """Each file the catalogue is read from, with its modification time and size."""
    found = []
    for pattern in CATALOG_FILES:
        for path in sorted(root.glob(pattern)):
            with contextlib.suppress(OSError):
                stat = path.stat()
                found.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(found)


def discover(root: Path | None = None) -> list[Chapter]:
    """Every chapter under ``root`` (default: the package's own), in order, with exercises.

    Read again only when one of the files changed (ours: the site asks on every chapter page,
    in each language, and files that did not change read the same).
    """
    root = PACKAGE_DIR if root is None else Path(root)
    state = _files_state(root)
    known = _read.get(root)
    if known is None or known[0] != state:
        known = _read[root] = (state, _read_chapters(root))
    return list(known[1])


def _read_chapters(root: Path) -> list[Chapter]:
    chapters: list[Chapter] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        match = CHAPTER_DIR.match(folder.name)
        if not match or not (folder / "chapter.yaml").is_file():
            continue
        chapters.append(load_chapter(folder, int(match.group(1))))
    _check_parts(chapters)
    seen: dict[str, str] = {}
    for exercise in all_exercises(chapters):
        if exercise.name in seen:
            raise CatalogError(
                f"two exercises are called {exercise.name}: {seen[exercise.name]}, {exercise.key}"
            )
        seen[exercise.name] = exercise.key
    return chapters


def load_chapter(folder: Path, number: int) -> Chapter:
    """Read one chapter's ``chapter.yaml``, its part, its example's lines and its exercises."""
    spec = folder / "chapter.yaml"
    meta = _load_yaml(spec)
    unknown = sorted(set(meta) - set(CHAPTER_KEYS))
    if unknown:
        raise CatalogError(f"{spec}: unknown key {unknown[0]!r} (known: {', '.join(CHAPTER_KEYS)})")
    chapter = Chapter(
        number=number,
        dir=folder,
        title=_title(meta, folder),
        summary=_summary(meta.get("summary"), spec),
        part=_part(meta.get("part"), spec),
        shows=_shows(meta.get("example"), spec),
    )
    if chapter.example is not None and not chapter.shows:
        raise CatalogError(
            f"{spec}: example: shows: the lines {folder.name}/example.py prints that the tests "
            "hold it to (seed 1, English)"
        )
    if chapter.example is None and chapter.shows:
        raise CatalogError(f"{spec}: example: there is no {folder.name}/example.py")
    names = meta.get("exercises") or []
    if not isinstance(names, list):
        raise CatalogError(f"{spec}: exercises: a list of names")
    chapter.exercises = [load_exercise(chapter, str(n)) for n in names]
    return chapter


def _summary(data: Any, spec: Path) -> dict[str, str] | None:
    if data is None:
        return None
    return _prose(_bilingual(data, f"{spec}: summary"))


def _part(data: Any, spec: Path) -> Part | None:
    if data is None:
        return None
    where = f"{spec}: part"
    if not isinstance(data, dict) or set(data) - {"number", "title"}:
        raise CatalogError(f"{where}: a mapping with number and title (en, zh)")
    number = data.get("number")
    if not isinstance(number, int) or isinstance(number, bool):
        raise CatalogError(f"{where}: number: the part's number (1 to {len(PART_NUMERALS['en'])})")
    if not 1 <= number <= len(PART_NUMERALS["en"]):
        raise CatalogError(
            f"{where}: number: {number} is not between 1 and {len(PART_NUMERALS['en'])}"
        )
    return Part(number=number, title=_bilingual(data.get("title"), f"{where}: title"))


def _shows(data: Any, spec: Path) -> list[str]:
    if data is None:
        return []
    shows = data.get("shows") if isinstance(data, dict) and set(data) == {"shows"} else None
    if not isinstance(shows, list) or not shows or not all(isinstance(s, str) and s for s in shows):
        raise CatalogError(f"{spec}: example: a mapping with shows: a list of lines it prints")
    return shows


def _check_parts(chapters: list[Chapter]) -> None:
    """A part's chapters follow one another and agree on its title; parts go up in number."""
    seen: dict[int, Chapter] = {}
    previous: Part | None = None
    for chapter in chapters:
        part = chapter.part
        if part is None:
            previous = None
            continue
        first = seen.setdefault(part.number, chapter)
        spec = chapter.dir / "chapter.yaml"
        if first.part != part:
            raise CatalogError(
                f"{spec}: part {part.number}'s title differs from {first.slug}'s: write it the same"
            )
        if first is chapter and any(n > part.number for n in seen):
            raise CatalogError(f"{spec}: part {part.number} comes after a later part")
        if first is not chapter and previous != part:
            raise CatalogError(
                f"{spec}: part {part.number} has chapters on both sides of another: "
                f"its chapters follow one another from {first.slug}"
            )
        previous = part


def chapter_title(folder: Path) -> dict[str, str]:
    """The title, in both languages, of the chapter in ``folder`` (from its ``chapter.yaml``)."""
    return _title(_load_yaml(folder / "chapter.yaml"), folder)


def _title(meta: dict[str, Any], folder: Path) -> dict[str, str]:
    return _bilingual(meta.get("title"), f"{folder / 'chapter.yaml'}: title")


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


def catalog_data(chapters: list[Chapter], root: Path | None = None) -> dict[str, Any]:
    """The chapters and exercises as plain data (for the site and ``list --json``).

    Paths are relative to ``root`` (default: the repository, the folder above the package).
    """
    base = (PACKAGE_DIR.parent if root is None else Path(root)).resolve()

    def rel(path: Path) -> str:
        try:
            return path.resolve().relative_to(base).as_posix()
        except ValueError:
            return path.as_posix()

    return {
        "version": 1,
        "chapters": [
            {
                "chapter": chapter.slug,
                "number": chapter.number,
                "title": chapter.title,
                "part": None
                if chapter.part is None
                else {"number": chapter.part.number, "title": chapter.part.title},
                "example": None if chapter.example is None else rel(chapter.example),
                "exercises": [
                    {
                        "name": e.name,
                        "key": e.key,
                        "title": e.title,
                        "task": e.task,
                        "file": rel(e.exercise_file),
                        "folder": rel(e.dir),
                        "port": e.port,
                        "check": f"python -m walkthrough check {e.name}",
                        "watch": f"python -m walkthrough watch {e.name}",
                    }
                    for e in chapter.exercises
                ],
            }
            for chapter in chapters
        ],
    }
