"""The runner's commands: list, check, hint, progress, reset, watch, and its errors."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from walkthrough import checker
from walkthrough.__main__ import main
from walkthrough.catalog import PACKAGE_DIR, CatalogError, discover, find
from walkthrough.checker import check
from walkthrough.expect import Unmet, expect, expect_equal
from walkthrough.progress import Progress
from walkthrough.runner import (
    Workspace,
    cmd_reset,
    cmd_watch,
    shipped_version,
    wrap,
)
from walkthrough.shipped import MarkerError, shipped_text

ROOT = PACKAGE_DIR.parent


def run(ws: Workspace, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out, ws), out.getvalue()


def solve(ws: Workspace, name: str) -> None:
    """Do an exercise: the learner's file becomes the solution."""
    exercise = find(ws.chapters(), name)
    exercise.exercise_file.write_text(exercise.solution_file.read_text(encoding="utf-8"))


# --- expect and the marker convention ---------------------------------------------------------


def test_expect_carries_both_languages() -> None:
    expect(True, en="fine", zh="好")
    with pytest.raises(Unmet) as info:
        expect_equal([1], [2], en="lists differ", zh="列表不同")
    assert info.value.message("en").startswith("lists differ\n    expected: [2]\n    got:      [1]")
    assert info.value.message("zh").startswith("列表不同\n    期望：[2]\n    实际：[1]")


def test_shipped_text_drops_solution_regions_and_keeps_exercise_lines() -> None:
    solution = (
        "def f(x):\n"
        "    # exercise: # TODO: double x\n"
        "    # exercise: return 0\n"
        "    # SOLUTION BEGIN\n"
        "    return 2 * x\n"
        "    # SOLUTION END\n"
    )
    assert shipped_text(solution) == "def f(x):\n    # TODO: double x\n    return 0\n"
    with pytest.raises(MarkerError, match="never ends"):
        shipped_text("# SOLUTION BEGIN\nx = 1\n")
    with pytest.raises(MarkerError, match="without"):
        shipped_text("# SOLUTION END\n")


def test_wrap_keeps_words_and_breaks_chinese_anywhere() -> None:
    en = wrap("word " * 40, width=40)
    assert all(len(line) <= 40 for line in en) and all(line.endswith("word") for line in en)
    zh = wrap("汉字" * 40, width=40)
    assert all(len(line.strip()) * 2 <= 40 for line in zh)
    assert wrap("    expected: [1, 2]") == ["        expected: [1, 2]"]


# --- list, progress ---------------------------------------------------------------------------


def test_list_shows_every_chapter_and_exercise_done_or_not(workspace: Workspace) -> None:
    code, out = run(workspace, "list", "--lang", "en")
    assert code == 0
    for chapter in workspace.chapters():
        assert f"{chapter.slug}  {chapter.title['en']}" in out
        for exercise in chapter.exercises:
            assert f"· {exercise.name}" in out
    assert "(0 of 9 done)" in out
    assert "Next: ch01/merge-set" in out
    solve(workspace, "config-ops")
    assert run(workspace, "check", "config-ops")[0] == 0
    code, out = run(workspace, "list", "--lang", "zh")
    assert "✓ config-ops" in out and "已完成 1/9" in out
    assert workspace.chapters()[2].title["zh"] in out


def test_progress_is_a_small_file_in_the_working_tree(workspace: Workspace) -> None:
    assert workspace.progress_path is not None
    code, out = run(workspace, "progress", "--lang", "en")
    assert code == 0 and "not written yet" in out and "0 of 9 exercises done" in out
    solve(workspace, "pleg-events")
    code, out = run(workspace, "check", "pleg-events", "--lang", "en")
    assert code == 0
    assert f"progress is kept in {workspace.progress_path}" in out  # announced, once
    data = json.loads(workspace.progress_path.read_text())
    assert list(data["done"]) == ["ch02/pleg-events"]
    code, out = run(workspace, "progress", "--lang", "zh")
    assert "ch02  □□■  1/3" in out
    assert "共 9 个练习，已完成 1 个" in out
    code, out = run(workspace, "check", "pleg-events", "--lang", "en")
    assert "progress is kept" not in out  # only the first time


def test_the_default_progress_file_is_at_the_top_of_the_repository(monkeypatch) -> None:
    monkeypatch.delenv("MINIKUBELET_WALKTHROUGH_PROGRESS", raising=False)
    assert Progress.load().path == ROOT / ".walkthrough-progress.json"
    assert "/.walkthrough-progress.json" in (ROOT / ".gitignore").read_text().splitlines()
    monkeypatch.setenv("MINIKUBELET_WALKTHROUGH_PROGRESS", "/elsewhere/p.json")
    assert Progress.load().path == Path("/elsewhere/p.json")


# --- check ------------------------------------------------------------------------------------


def test_check_prints_the_first_unmet_expectation_in_the_learners_language(
    workspace: Workspace,
) -> None:
    code, out = run(workspace, "check", "config-ops", "--lang", "en")
    assert code == 1
    assert "✗ ch03/config-ops — Route every PodOperation to its handler" in out
    assert "1 of 7 checks pass. The first that does not:" in out
    assert "An UPDATE update must call handler.handle_pod_updates(u.pods)" in out
    assert "hint config-ops" in out
    code, out = run(workspace, "check", "config-ops", "--lang", "zh")
    assert "7 项检查中通过了 1 项" in out
    assert "UPDATE 更新应当调用一次 handler.handle_pod_updates(u.pods)" in out


def test_the_language_comes_from_the_locale(workspace: Workspace, monkeypatch) -> None:
    monkeypatch.delenv("MINIKUBELET_LANG", raising=False)
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert "第一项没通过的是" in run(workspace, "check", "pleg-case")[1]
    monkeypatch.setenv("MINIKUBELET_LANG", "en")
    assert "The first that does not" in run(workspace, "check", "pleg-case")[1]


def test_check_without_a_name_takes_the_next_exercise(workspace: Workspace) -> None:
    code, out = run(workspace, "check", "--lang", "en")
    assert code == 1 and "ch01/merge-set" in out
    solve(workspace, "merge-set")
    code, out = run(workspace, "check", "--lang", "en")
    assert code == 0 and "All 8 checks pass" in out
    assert "Next: ch01/deliver-incremental" in out
    code, out = run(workspace, "check", "--lang", "en")
    assert "ch01/deliver-incremental" in out.splitlines()[0]


def test_a_file_that_does_not_load_is_told_with_its_line(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "dispatch-work")
    text = exercise.exercise_file.read_text().replace(
        "        # TODO 2:", "        retrun 1\n        # TODO 2:"
    )
    exercise.exercise_file.write_text(text)
    code, out = run(workspace, "check", "dispatch-work", "--lang", "en")
    line = text.splitlines().index("        retrun 1") + 1
    assert code == 1
    assert "Your file does not load: SyntaxError" in out
    assert f"line {line}:  retrun 1" in out
    code, out = run(workspace, "check", "dispatch-work", "--lang", "zh")
    assert "你的文件无法加载：SyntaxError" in out and f"第 {line} 行" in out


def test_an_exception_in_the_learners_code_points_at_their_line(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "pleg-events")
    text = exercise.exercise_file.read_text()
    text = text.replace(
        "            # TODO 1: the container exited: it died.\n            return []",
        "            return [PodLifecycleEvent(id=pod_id, type=ContainerDead, data=cid)]",
    )
    exercise.exercise_file.write_text(text)
    result = check(exercise)
    failure = result.first_failure
    assert failure is not None and failure.kind == "error"
    assert failure.en == "Your code raised NameError: name 'ContainerDead' is not defined"
    assert failure.zh.startswith("你的代码抛出了异常：NameError")
    assert failure.location == (
        "exercise.py",
        text.splitlines().index(
            "            return [PodLifecycleEvent(id=pod_id, type=ContainerDead, data=cid)]"
        )
        + 1,
    )
    assert "ContainerDead" in failure.source_line


def test_a_loop_that_never_awaits_is_stopped(workspace: Workspace, monkeypatch) -> None:
    monkeypatch.setattr(checker, "TIME_LIMIT", 0.5)
    exercise = find(workspace.chapters(), "runtime-backoff")
    text = exercise.exercise_file.read_text().replace(
        "                    pass\n", "                    continue\n"
    )
    exercise.exercise_file.write_text(text)
    started = time.monotonic()
    result = check(exercise)
    assert time.monotonic() - started < 10
    failure = result.first_failure
    assert failure is not None and failure.kind == "timeout"
    assert "never awaits" in failure.en and "await" in failure.zh


def test_the_time_limit_is_lifted_while_debugging(tmp_path: Path) -> None:
    plain, debugged = tmp_path / "a.py", tmp_path / "b.py"
    plain.write_text("x = 1\n")
    debugged.write_text("breakpoint()\n")
    assert not checker.debugging(plain)
    assert checker.debugging(debugged)


def test_an_unknown_exercise_is_a_clear_error_in_both_languages(workspace: Workspace) -> None:
    code, out = run(workspace, "check", "config-op", "--lang", "en")
    assert code == 2
    assert "There is no exercise called 'config-op'. Did you mean config-ops?" in out
    assert "ch01/merge-set, ch01/deliver-incremental" in out
    code, out = run(workspace, "hint", "nope", "--lang", "zh")
    assert code == 2 and "没有名为 'nope' 的练习" in out and "ch04/dispatch-work" in out
    assert run(workspace, "reset", "nope", "--yes", "--lang", "en")[0] == 2
    assert run(workspace, "watch", "nope", "--lang", "en")[0] == 2


def test_exercises_may_be_named_with_their_chapter(workspace: Workspace) -> None:
    code, out = run(workspace, "check", "ch04/dispatch-work", "--lang", "en")
    assert code == 1 and "✗ ch04/dispatch-work" in out


def test_broken_exercise_files_are_reported(workspace: Workspace) -> None:
    (workspace.root / "ch02" / "exercises" / "pleg-events" / "hints.yaml").write_text("title: x\n")
    with pytest.raises(CatalogError):
        discover(workspace.root)
    code, out = run(Workspace(root=workspace.root), "list", "--lang", "en")
    assert code == 2 and "broken exercise files" in out and "pleg-events" in out


# --- hint -------------------------------------------------------------------------------------


def test_hint_gives_one_more_hint_each_time_then_points_at_the_port(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "sort-and-admit")
    outs = [run(workspace, "hint", "sort-and-admit", "--lang", "en")[1] for _ in range(4)]
    assert "Hint 1 of 3:" in outs[0] and "Run it again for hint 2" in outs[0]
    assert "Hint 2 of 3:" in outs[1]
    assert "Hint 3 of 3:" in outs[2] and "That was the last hint" in outs[2]
    assert "minikubelet/kubelet.py, line" in outs[2] or "kubelet.py, line" in outs[2]
    assert "Hint 3 of 3:" in outs[3]
    assert exercise.hints[0]["en"].split()[0] in outs[0]
    code, out = run(workspace, "hint", "sort-and-admit", "--all", "--lang", "zh")
    assert code == 0 and "提示 1/3" in out and "提示 3/3" in out and "这是最后一条提示" in out
    code, out = run(workspace, "hint", "sort-and-admit", "--level", "9", "--lang", "en")
    assert code == 2 and "hints 1 to 3" in out


# --- reset ------------------------------------------------------------------------------------


def test_reset_asks_first_and_restores_the_shipped_version(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "config-ops")
    shipped = exercise.exercise_file.read_text()
    out = io.StringIO()
    assert cmd_reset(workspace, ["config-ops"], "en", out) == 0
    assert "Nothing to reset" in out.getvalue()

    solve(workspace, "config-ops")
    assert run(workspace, "check", "config-ops")[0] == 0
    for answer in ("", "n", "no"):
        out = io.StringIO()
        assert cmd_reset(workspace, ["config-ops"], "en", out, ask=lambda _, a=answer: a) == 1
        assert "Nothing was changed." in out.getvalue()
        assert exercise.exercise_file.read_text() != shipped

    def eof(_: str) -> str:
        raise EOFError

    assert cmd_reset(workspace, ["config-ops"], "zh", io.StringIO(), ask=eof) == 1
    asked = []
    out = io.StringIO()
    code = cmd_reset(workspace, ["config-ops"], "zh", out, ask=lambda q: asked.append(q) or "y")
    assert code == 0 and asked == ["确定重置吗？[y/N] "]
    assert "你对它们的修改会丢失" in out.getvalue() and "已重置 ch03/config-ops" in out.getvalue()
    assert exercise.exercise_file.read_text() == shipped
    assert not workspace.progress().is_done("ch03/config-ops")


def test_reset_yes_and_all(workspace: Workspace) -> None:
    for name in ("merge-set", "pleg-case"):
        solve(workspace, name)
    code, out = run(workspace, "reset", "--all", "--yes", "--lang", "en")
    assert code == 0 and "Reset ch01/merge-set." in out and "Reset ch03/pleg-case." in out
    for exercise in workspace.exercises():
        assert exercise.exercise_file.read_text() == shipped_version(exercise)
    assert run(workspace, "reset", "--lang", "en")[0] == 2


def test_reset_works_without_git_and_without_the_file(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "loop-tickers")
    exercise.exercise_file.unlink()
    assert run(workspace, "reset", "loop-tickers", "-y")[0] == 0
    assert exercise.exercise_file.read_text() == shipped_version(exercise)


# --- watch ------------------------------------------------------------------------------------


def test_watch_checks_at_once_and_after_every_change(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "deliver-incremental")
    out = io.StringIO()

    def saves():
        yield {("modified", str(exercise.exercise_file))}  # saved, still wrong
        solve(workspace, "deliver-incremental")
        yield {("modified", str(exercise.exercise_file))}  # saved, right

    assert cmd_watch(workspace, "deliver-incremental", "en", out, changes=saves()) == 0
    text = out.getvalue()
    assert text.startswith("Watching ")
    assert text.count("✗ ch01/deliver-incremental") == 2
    assert text.count("✓ ch01/deliver-incremental") == 1
    assert workspace.progress().is_done("ch01/deliver-incremental")


def test_watch_sees_a_real_save(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "pleg-events")
    out = io.StringIO()
    from walkthrough import runner

    stop = threading.Event()
    changes = runner.file_changes(exercise, stop_event=stop)

    def save_later() -> None:
        time.sleep(0.5)
        exercise.exercise_file.write_text(exercise.solution_file.read_text())

    def one_batch():
        for batch in changes:
            yield batch
            stop.set()
            return

    saver = threading.Thread(target=save_later)
    saver.start()
    try:
        cmd_watch(workspace, "pleg-events", "en", out, changes=one_batch())
    finally:
        stop.set()
        saver.join()
    assert "✓ ch02/pleg-events" in out.getvalue()


# --- the command line -------------------------------------------------------------------------


def test_python_dash_m_walkthrough(tmp_path: Path) -> None:
    env = {**os.environ, "MINIKUBELET_WALKTHROUGH_PROGRESS": str(tmp_path / "p.json")}
    done = subprocess.run(
        [sys.executable, "-m", "walkthrough", "--lang", "zh", "--help"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0 and "kubelet 移植版上的练习" in done.stdout
    for command in ("list", "check", "hint", "watch", "progress", "reset"):
        assert command in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "walkthrough", "progress", "--lang", "en"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0 and "exercises done" in done.stdout
    assert not (tmp_path / "p.json").exists()


def test_the_console_script_is_declared() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'minikubelet-walkthrough = "walkthrough.__main__:main"' in pyproject
    assert '"watchfiles' in pyproject
