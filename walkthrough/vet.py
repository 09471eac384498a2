"""What CI proves of every exercise, and what an author runs before committing one.

``python -m walkthrough vet [NAME…]`` (and ``tests/walkthrough/test_exercises.py``) checks:

* the learner's file as shipped fails, on an expectation (a sentence about kubelet, in both
  languages), not on a crash;
* the reference (the port's own code in the regions) passes every check;
* each mutant (a plausible wrong answer) fails;
* no text the learner sees before the last hint holds a statement of the answer: the task, the
  TODOs, the hints in words (the last hint, the port's code, is made from the port), and every
  failure message the shipped file and the mutants produce;
* no exercise's file holds another exercise's answer.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from walkthrough.catalog import Exercise
from walkthrough.checker import CheckResult, check
from walkthrough.derive import (
    answer_statements,
    learner_text,
    mutant_text,
    placed_regions,
    reference_text,
)

CJK = re.compile(r"[\u4e00-\u9fff]")
#: Answer statements shorter than this (whitespace left out) are too common to be a spoiler.
SPOILER_MIN = 12


def _squash(text: str) -> str:
    """Text with its whitespace left out and one kind of quote (for "does it contain")."""
    return re.sub(r"\s+", "", text).replace('"', "'")


@dataclass
class Vetting:
    """What vetting one exercise found."""

    exercise: Exercise
    shipped: CheckResult | None = None
    reference: CheckResult | None = None
    mutants: dict[str, CheckResult] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def spoilers(exercise: Exercise, texts: list[tuple[str, str]]) -> list[str]:
    """The (where, text) pairs that hold a statement of the exercise's answer."""
    statements = [s for s in answer_statements(exercise) if len(_squash(s)) >= SPOILER_MIN]
    found = []
    for where, text in texts:
        flat = _squash(text)
        for statement in statements:
            if _squash(statement) in flat:
                found.append(f"{where} gives away the answer: {statement}")
    return found


def _run(exercise: Exercise, text: str, work: Path, name: str) -> CheckResult:
    path = work / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    return check(exercise, path, debug=False)


def vet(exercise: Exercise, exercises: list[Exercise]) -> Vetting:
    """Run every proof on one exercise."""
    v = Vetting(exercise)
    problems = v.problems
    with tempfile.TemporaryDirectory(prefix="walkthrough-vet-") as tmp:
        work = Path(tmp)
        for lang in ("en", "zh"):
            shipped = learner_text(exercise, exercises, lang)
            try:
                compile(shipped, "exercise.py", "exec")
            except SyntaxError as err:
                problems.append(f"the shipped file ({lang}) is not valid Python: {err}")
        v.shipped = _run(exercise, learner_text(exercise, exercises, "en"), work, "shipped")
        first = v.shipped.first_failure
        if v.shipped.ok or first is None:
            problems.append("the shipped file passes its checks")
        elif first.kind != "unmet":
            problems.append(
                f"the shipped file fails by {first.kind}, not an expectation: {first.en}"
            )
        elif CJK.search(first.en) or not CJK.search(first.zh):
            problems.append(f"{first.check}: the message needs English and Chinese wordings")
        v.reference = _run(exercise, reference_text(exercise, exercises, "en"), work, "reference")
        if not v.reference.ok:
            failure = v.reference.first_failure
            problems.append(
                f"the reference fails: {failure.check}: {failure.en}"
                if failure
                else "the reference has no checks"
            )
        messages: list[tuple[str, str]] = []
        for failure in v.shipped.failed:
            messages += [(f"{failure.check} (shipped)", failure.en + failure.zh)]
        for mutant in exercise.mutants:
            result = _run(exercise, mutant_text(exercise, exercises, mutant), work, mutant.name)
            v.mutants[mutant.name] = result
            if result.ok:
                problems.append(f"mutant {mutant.name} passes every check ({mutant.why})")
            for failure in result.failed:
                messages += [(f"{failure.check} (mutant {mutant.name})", failure.en + failure.zh)]
    texts = [("the task", exercise.task["en"] + exercise.task["zh"])]
    texts += [(f"TODO of {r.name}", r.todo["en"] + r.todo["zh"]) for r in exercise.regions]
    texts += [(f"hint {i}", h["en"] + h["zh"]) for i, h in enumerate(exercise.hints, 1)]
    problems += spoilers(exercise, texts + messages)
    problems += others_answers(exercise, exercises)
    return v


def others_answers(exercise: Exercise, exercises: list[Exercise]) -> list[str]:
    """Another exercise's answer found in this exercise's shipped or reference file."""
    mine = {p.fn.target for p in placed_regions([exercise])}
    found = []
    files = [learner_text(exercise, exercises, "en"), reference_text(exercise, exercises, "en")]
    flat = [_squash(f) for f in files]
    for p in placed_regions(exercises):
        if p.exercise.key == exercise.key or p.fn.target not in mine:
            continue
        block = _squash("\n".join(p.fn.module.lines[p.span.start - 1 : p.span.end]))
        if any(block in f for f in flat):
            found.append(f"holds the answer of {p.exercise.key} region {p.region.name}")
    return found


def report(v: Vetting, out: TextIO) -> None:
    """One exercise's vetting, in a few lines (for authors; English only)."""
    ex = v.exercise
    shipped = v.shipped.first_failure if v.shipped else None
    out.write(f"{'ok  ' if v.ok else 'FAIL'} {ex.key}\n")
    if shipped is not None:
        out.write(f"     shipped: fails at {shipped.check} ({shipped.kind})\n")
    if v.reference is not None:
        out.write(
            f"     reference: {len(v.reference.passed)}/{v.reference.total} checks pass "
            f"({v.reference.seconds:.2f} s)\n"
        )
    for name, result in v.mutants.items():
        failure = result.first_failure
        caught = f"caught by {failure.check} ({failure.kind})" if failure else "NOT CAUGHT"
        out.write(f"     mutant {name}: {caught}\n")
    for problem in v.problems:
        out.write(f"     problem: {problem}\n")
