"""Every exercise fails as shipped, passes with the port's code, catches each of its mutants.

The proofs are those of ``python -m walkthrough vet`` (walkthrough/vet.py), made from the port's
source as it is now, in a temporary folder: a learner's files in the tree change nothing here.
"""

from __future__ import annotations

import re

import pytest

from walkthrough.catalog import MIN_MUTANTS, PACKAGE_DIR, Exercise, discover
from walkthrough.derive import answer_hint, learner_text, placed_regions, reference_text
from walkthrough.vet import spoilers, vet

CHAPTERS = discover()
EXERCISES = [e for c in CHAPTERS for e in c.exercises]
CJK = re.compile(r"[\u4e00-\u9fff]")


def by_key(exercise: Exercise) -> str:
    return exercise.key


def test_every_chapter_lists_the_exercises_it_has() -> None:
    assert [c.slug for c in CHAPTERS][:4] == ["ch01", "ch02", "ch03", "ch04"]
    for chapter in CHAPTERS:
        listed = {e.name for e in chapter.exercises}
        folder = chapter.dir / "exercises"
        on_disk = {p.name for p in folder.iterdir() if p.is_dir()} if folder.is_dir() else set()
        assert on_disk - {"__pycache__"} == listed, f"{chapter.slug}: chapter.yaml lists {listed}"


def test_no_chapter_with_exercises_is_left_out() -> None:
    # discover() skips a chNN folder without chapter.yaml (one with only an example is fine);
    # a chapter whose exercises ship without it would vanish from list, watch and these proofs.
    shipped = {
        p.parents[2].name for p in PACKAGE_DIR.glob("ch[0-9][0-9]/exercises/*/exercise.yaml")
    }
    missing = shipped - {c.slug for c in CHAPTERS}
    assert not missing, f"exercises without a chapter.yaml to list them: {sorted(missing)}"


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_key)
def test_the_exercise_is_proven(exercise: Exercise) -> None:
    """Shipped: fails on an expectation. Reference: passes. Each mutant: fails. No spoilers."""
    result = vet(exercise, EXERCISES)
    assert result.ok, "\n".join(result.problems)
    assert result.reference is not None and result.reference.total >= 3
    assert len(result.mutants) >= MIN_MUTANTS


def test_regions_of_different_exercises_do_not_overlap() -> None:
    placed = placed_regions(EXERCISES)
    assert len(placed) == sum(len(e.regions) for e in EXERCISES)


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_key)
def test_the_files_are_made_in_the_learners_language(exercise: Exercise) -> None:
    en, zh = (learner_text(exercise, EXERCISES, lang) for lang in ("en", "zh"))
    assert "# TODO 1: " in en and "# TODO 1：" in zh
    assert CJK.search(zh) and exercise.title["zh"] in zh
    for text in (en, zh, reference_text(exercise, EXERCISES, "en")):
        compile(text, "exercise.py", "exec")
    assert "TODO" not in reference_text(exercise, EXERCISES, "en").split('"""', 2)[2]


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_key)
def test_texts_exist_in_both_languages(exercise: Exercise) -> None:
    for text in (
        exercise.title,
        exercise.task,
        *exercise.hints,
        *(r.todo for r in exercise.regions),
    ):
        assert text["en"] and not CJK.search(text["en"]) and CJK.search(text["zh"])
    assert CJK.search(answer_hint(exercise, "zh"))


def solved_by_the_last_hint(exercise: Exercise, lang: str) -> str:
    """The learner's file with each TODO and its stub replaced by the last hint's code for it."""
    codes: dict[int, list[str]] = {}
    for line in answer_hint(exercise, lang).splitlines()[1:]:
        head = re.match(r"^TODO (\d+)[:：]$", line)
        if head:
            number = int(head.group(1))
            codes[number] = []
        else:
            codes[number].append(line.removeprefix("    "))
    lines = learner_text(exercise, EXERCISES, lang).splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        todo = re.match(r"^(\s*)# TODO (\d+)[:：]", lines[i])
        if todo is None:
            out.append(lines[i])
            i += 1
            continue
        indent, number = todo.group(1), int(todo.group(2))
        i += 1
        while lines[i].startswith(indent + "#   "):  # the TODO's wrapped lines
            i += 1
        i += len(exercise.regions[number - 1].stub.splitlines())
        out += [indent + line if line else "" for line in codes.pop(number)]
    assert not codes, f"the last hint has code for TODOs the file lacks: {sorted(codes)}"
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_key)
def test_the_last_hint_is_the_ports_current_code_for_each_todo(exercise: Exercise) -> None:
    """Typing the last hint's code in place of every TODO gives the reference, the port's code."""
    for lang in ("en", "zh"):
        assert solved_by_the_last_hint(exercise, lang) == reference_text(exercise, EXERCISES, lang)


def test_a_hint_that_shows_the_answer_early_is_caught() -> None:
    exercise = next(e for e in EXERCISES if e.name == "config-ops")
    text = "Write await handler.handle_pod_removes( u.pods ) in the REMOVE case."
    assert spoilers(exercise, [("hint 1", text)]) == [
        "hint 1 gives away the answer: await handler.handle_pod_removes(u.pods)"
    ]
    assert spoilers(exercise, [("hint 1", "REMOVE goes to the method for removed pods.")]) == []
