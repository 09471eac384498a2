"""Every exercise fails its check as shipped, passes with its reference solution, and is the port.

The shipped file is made from the solution (walkthrough/shipped.py), in a temporary folder, so
that a learner's work in the tree changes nothing here.
"""

from __future__ import annotations

import ast
import inspect
import io
import re
import subprocess
import textwrap
from pathlib import Path

import pytest

from walkthrough.catalog import PACKAGE_DIR, Exercise, discover
from walkthrough.checker import check, load_module
from walkthrough.runner import report, shipped_version
from walkthrough.shipped import BEGIN, END

ROOT = PACKAGE_DIR.parent
EXERCISES = [e for c in discover() for e in c.exercises]
CJK = re.compile(r"[\u4e00-\u9fff]")


def by_key(exercise: Exercise) -> str:
    return exercise.key


def test_every_chapter_has_at_least_two_exercises() -> None:
    chapters = discover()
    assert [c.slug for c in chapters] == ["ch01", "ch02", "ch03", "ch04"]
    for chapter in chapters:
        assert len(chapter.exercises) >= 2, chapter.slug
        listed = {e.name for e in chapter.exercises}
        on_disk = {p.name for p in (chapter.dir / "exercises").iterdir() if p.is_dir()}
        assert on_disk - {"__pycache__"} == listed, f"{chapter.slug}: chapter.yaml lists {listed}"


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_key)
def test_the_shipped_file_fails_on_an_expectation(exercise: Exercise, tmp_path: Path) -> None:
    shipped = tmp_path / "exercise.py"
    shipped.write_text(shipped_version(exercise), encoding="utf-8")
    result = check(exercise, shipped)
    assert not result.ok
    first = result.first_failure
    assert first is not None
    # Not a crash, not a load error: the learner meets a sentence about kubelet.
    assert first.kind == "unmet", (first.kind, first.en)
    assert first.en and not CJK.search(first.en.splitlines()[0])
    assert CJK.search(first.zh), first.zh
    for lang in ("en", "zh"):
        out = io.StringIO()
        report(result, lang, out)
        assert out.getvalue().startswith(f"✗ {exercise.key} — {exercise.title[lang]}\n")
        printed = "".join(out.getvalue().split())  # wrapping moves line breaks, not words
        assert "".join(first.message(lang).split()) in printed


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_key)
def test_the_solution_passes(exercise: Exercise) -> None:
    result = check(exercise, exercise.solution_file)
    assert result.ok, [(f.test, f.en) for f in result.failed]
    assert result.total >= 4


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_key)
def test_the_shipped_file_has_todos_and_no_markers(exercise: Exercise) -> None:
    text = shipped_version(exercise)
    assert "# TODO" in text
    assert BEGIN not in text and END not in text and "# exercise:" not in text
    compile(text, str(exercise.exercise_file), "exec")


def _modified_in_git(path: Path) -> bool:
    """True when git says the file differs from HEAD (a learner's work, or a change in progress)."""
    try:
        done = subprocess.run(
            ["git", "diff", "--quiet", "HEAD", "--", str(path)],
            cwd=ROOT,
            capture_output=True,
            check=False,
        )
    except OSError:
        return False
    return done.returncode == 1


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_key)
def test_the_committed_exercise_file_is_the_shipped_one(exercise: Exercise) -> None:
    if _modified_in_git(exercise.exercise_file):
        pytest.skip(f"{exercise.key}: exercise.py is being edited (a learner's work)")
    assert exercise.exercise_file.read_text(encoding="utf-8") == shipped_version(exercise), (
        f"{exercise.exercise_file} is not what solution.py makes: after changing the solution, "
        f"run: python -m walkthrough reset {exercise.name} --yes"
    )


def _function_node(fn: object) -> ast.AST:
    node = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]  # type: ignore[arg-type]
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    body = node.body
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        node.body = body[1:]  # the docstring may differ
    return node


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_key)
def test_the_solution_is_the_ports_own_code(exercise: Exercise) -> None:
    """The exercise is the real code path: its solution is the port's function, statement for
    statement (comments and docstrings aside)."""
    module_name, _, qualname = exercise.port.partition(":")
    port: object = __import__(module_name, fromlist=["_"])
    solution: object = load_module(exercise.solution_file, "solution")
    for part in qualname.split("."):
        port = getattr(port, part)
        solution = getattr(solution, part)
    assert ast.dump(_function_node(solution)) == ast.dump(_function_node(port)), (
        f"{exercise.solution_file}: {qualname} is no longer the port's {exercise.port}. Copy the "
        "port's body into solution.py again (keep the SOLUTION markers), then run: "
        f"python -m walkthrough reset {exercise.name} --yes"
    )


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_key)
def test_texts_exist_in_both_languages(exercise: Exercise) -> None:
    assert exercise.title["en"] and CJK.search(exercise.title["zh"])
    assert len(exercise.hints) >= 2
    for hint in exercise.hints:
        assert hint["en"] and CJK.search(hint["zh"])
    readme = (exercise.dir / "README.md").read_text(encoding="utf-8")
    readme_zh = (exercise.dir / "README.zh.md").read_text(encoding="utf-8")
    assert f"check {exercise.name}" in readme and f"check {exercise.name}" in readme_zh
    assert CJK.search(readme_zh)
