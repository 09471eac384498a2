"""The runner's commands: list, check, hint, progress, reset, and their errors."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.walkthrough.conftest import edit, solve
from walkthrough.__main__ import ROOT_ENV, main
from walkthrough.catalog import PACKAGE_DIR, CatalogError, all_exercises, discover, find
from walkthrough.expect import Unmet, expect, expect_equal
from walkthrough.progress import Progress
from walkthrough.runner import Workspace, cmd_reset
from walkthrough.text import wrap

ROOT = PACKAGE_DIR.parent


def run(ws: Workspace, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out, ws), out.getvalue()


# --- expect and text --------------------------------------------------------------------------


def test_expect_carries_both_languages() -> None:
    expect(True, en="fine", zh="好")
    with pytest.raises(Unmet) as info:
        expect_equal([1], [2], en="lists differ", zh="列表不同")
    assert info.value.message("en").startswith("lists differ\n    expected: [2]\n    got:      [1]")
    assert info.value.message("zh").startswith("列表不同\n    期望：[2]\n    实际：[1]")


def test_wrap_keeps_words_and_breaks_chinese_anywhere() -> None:
    en = wrap("word " * 40, width=40)
    assert all(len(line) <= 40 for line in en) and all(line.endswith("word") for line in en)
    zh = wrap("汉字" * 40, width=40)
    assert all(len(line.strip()) * 2 <= 40 for line in zh)
    assert wrap("    expected: [1, 2]") == ["        expected: [1, 2]"]


# --- list, progress ---------------------------------------------------------------------------


def test_list_shows_every_chapter_and_exercise_done_or_not(workspace: Workspace) -> None:
    total = len(workspace.exercises())
    code, out = run(workspace, "list", "--lang", "en")
    assert code == 0
    for chapter in workspace.chapters():
        # A chapter without exercises (yet) has nothing to list.
        assert (f"{chapter.slug}  {chapter.title['en']}" in out) == bool(chapter.exercises)
        for exercise in chapter.exercises:
            assert f"· {exercise.name}" in out
    assert f"(0 of {total} done)" in out and "Next: ch01/merge-set" in out
    solve(workspace, "config-ops")
    assert run(workspace, "check", "config-ops")[0] == 0
    code, out = run(workspace, "list", "--lang", "zh")
    assert "✓ config-ops" in out and f"已完成 1/{total}" in out


def test_list_json_is_the_catalog_the_site_reads(workspace: Workspace) -> None:
    code, out = run(workspace, "list", "--json")
    data = json.loads(out)
    assert code == 0 and data["version"] == 1
    first = data["chapters"][0]
    assert first["chapter"] == "ch01" and first["title"]["zh"]
    assert first["example"].endswith("ch01/example.py") and first["part"] is None
    (ch12,) = [c for c in data["chapters"] if c["chapter"] == "ch12"]  # no example, no exercise
    assert ch12["example"] is None and ch12["exercises"] == [] and ch12["title"]["zh"]
    exercise = first["exercises"][0]
    assert exercise["key"] == "ch01/merge-set" and exercise["done"] is False
    assert exercise["check"] == "python -m walkthrough check merge-set"
    assert set(exercise["title"]) == {"en", "zh"} and exercise["task"]["zh"]
    assert not any(
        e.exercise_file.exists() for e in workspace.exercises()
    )  # listing writes nothing


def test_list_into_a_closed_pipe_says_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "MINIKUBELET_WALKTHROUGH_PROGRESS": str(tmp_path / "p.json")}
    done = subprocess.run(
        f"{sys.executable} -m walkthrough list --lang en | head -1",
        shell=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    assert done.stdout.startswith("ch01") and done.stderr == ""


def test_progress_is_a_small_file_in_the_working_tree(workspace: Workspace) -> None:
    assert workspace.progress_path is not None
    total = len(workspace.exercises())
    code, out = run(workspace, "progress", "--lang", "en")
    assert code == 0 and "not written yet" in out and f"0 of {total} exercises done" in out
    solve(workspace, "pleg-events")
    code, out = run(workspace, "check", "pleg-events", "--lang", "en")
    assert code == 0
    assert f"progress is kept in {workspace.progress_path}" in out  # announced, once
    data = json.loads(workspace.progress_path.read_text())
    assert list(data["done"]) == ["ch02/pleg-events"] and data["version"] == 1
    code, out = run(workspace, "progress", "--lang", "zh")
    assert f"共 {total} 个练习，已完成 1 个" in out
    code, out = run(workspace, "check", "pleg-events", "--lang", "en")
    assert "progress is kept" not in out  # only the first time
    assert not list(workspace.progress_path.parent.glob(".walkthrough-progress.json.*"))


def test_the_default_progress_file_is_at_the_top_of_the_repository(monkeypatch) -> None:
    monkeypatch.delenv("MINIKUBELET_WALKTHROUGH_PROGRESS", raising=False)
    assert Progress.load().path == ROOT / ".walkthrough-progress.json"
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert "/.walkthrough-progress.json" in ignored
    assert "/walkthrough/ch*/exercises/*/exercise.py" in ignored
    monkeypatch.setenv("MINIKUBELET_WALKTHROUGH_PROGRESS", "/elsewhere/p.json")
    assert Progress.load().path == Path("/elsewhere/p.json")


def test_a_corrupt_progress_file_is_reported_and_kept(workspace: Workspace) -> None:
    path = workspace.progress_path
    assert path is not None
    path.write_text('{"version": 1, "done": ["not", "a", "map"]}')
    code, out = run(workspace, "list", "--lang", "en")
    copies = list(path.parent.glob(".walkthrough-progress.json.corrupt-*"))
    assert code == 0 and len(copies) == 1
    assert "could not be read ('done' is not a map" in out and copies[0].name in out
    assert "check --all" in out
    assert copies[0].read_text() == '{"version": 1, "done": ["not", "a", "map"]}'
    path.write_text("\x00garbage")
    code, out = run(workspace, "progress", "--lang", "zh")
    assert "无法读取进度文件" in out and "not JSON" in out


def test_a_progress_path_that_is_no_regular_file_is_neither_read_nor_replaced(
    tmp_path: Path,
) -> None:
    # Issue #28 item 7: a FIFO used to hang `list`, and /dev/zero was read until memory ran out.
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    outputs: dict[str, tuple[int, str]] = {}

    def list_with(path: Path) -> None:
        outputs[str(path)] = run(Workspace(PACKAGE_DIR, progress_path=path), "list", "--lang", "en")

    for path in (fifo, Path("/dev/zero")):
        worker = threading.Thread(target=list_with, args=(path,), daemon=True)
        worker.start()
        worker.join(timeout=60)
        assert str(path) in outputs, f"list hung on {path}"
        code, out = outputs[str(path)]
        assert code == 0 and "could not be read (not a regular file" in out
    assert fifo.exists() and stat.S_ISFIFO(fifo.stat().st_mode)  # not moved aside
    assert not list(tmp_path.glob("*.corrupt-*"))
    assert Progress.load(fifo).save() is False  # and never written over


def test_a_progress_file_too_big_to_be_ours_is_set_aside(workspace: Workspace) -> None:
    path = workspace.progress_path
    assert path is not None
    path.write_bytes(b" " * (2 << 20))
    code, out = run(workspace, "list", "--lang", "en")
    assert code == 0 and "could not be read (larger than 1024 KiB)" in out
    assert len(list(path.parent.glob(".walkthrough-progress.json.corrupt-*"))) == 1


def test_a_failing_check_takes_the_mark_away(workspace: Workspace) -> None:
    solve(workspace, "pleg-events")
    assert run(workspace, "check", "pleg-events")[0] == 0
    assert workspace.progress().is_done("ch02/pleg-events")
    edit(
        workspace,
        "pleg-events",
        "type=ContainerDied, data=cid)]",
        "type=ContainerChanged, data=cid)]",
    )
    assert run(workspace, "check", "pleg-events")[0] == 1
    assert not workspace.progress().is_done("ch02/pleg-events")


@pytest.mark.parametrize("all_", [False, True])
def test_a_pass_is_recorded_when_the_reader_stops_reading(workspace: Workspace, all_: bool) -> None:
    # `| true` closes the pipe at once; unbuffered, the runner's first write ends it (as a long
    # report does through `| head`), so the verdict must be on disk before anything is printed.
    first = workspace.exercises()[0]
    solve(workspace, first.name)
    env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        ROOT_ENV: str(workspace.root),
        "MINIKUBELET_WALKTHROUGH_PROGRESS": str(workspace.progress_path),
    }
    done = subprocess.run(
        f"{sys.executable} -m walkthrough check {'--all' if all_ else first.name} | true",
        shell=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    assert done.stderr == ""
    assert workspace.progress().is_done(first.key)


def test_check_all_marks_every_exercise_as_its_file_is(workspace: Workspace) -> None:
    solve(workspace, "merge-set")
    solve(workspace, "dispatch-work")
    progress = workspace.progress()
    progress.mark_done("ch03/config-ops")  # a mark the file does not earn
    progress.save()
    code, out = run(workspace, "check", "--all", "--lang", "en")
    total = len(workspace.exercises())
    assert code == 1 and f"2 of {total} exercises pass." in out
    assert "✓ ch01/merge-set" in out and "✗ ch03/config-ops" in out
    assert sorted(workspace.progress().done) == ["ch01/merge-set", "ch04/dispatch-work"]


# --- check ------------------------------------------------------------------------------------


def test_check_prints_the_first_unmet_expectation_in_the_learners_language(
    workspace: Workspace,
) -> None:
    code, out = run(workspace, "check", "config-ops", "--lang", "en")
    assert code == 1
    assert "✗ ch03/config-ops — Route every PodOperation to its handler" in out
    assert "1 of 6 checks pass. The first that does not:" in out
    assert "An UPDATE must reach the handler once, as changed pods" in out
    assert "stuck? python -m walkthrough hint" in out
    code, out = run(workspace, "check", "config-ops", "--lang", "zh")
    assert "6 项检查中通过了 1 项" in out and "UPDATE 应当交给 handler 一次" in out


def test_the_learners_file_is_made_from_the_port_in_their_language(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "config-ops")
    run(workspace, "check", "config-ops", "--lang", "zh")
    text = exercise.exercise_file.read_text()
    assert text.startswith('"""ch03/config-ops: 把每种 PodOperation 交给对应的处理函数')
    assert "# TODO 1：在日志级别 2 打印" in text
    assert "class Kubelet(PortKubelet):" in text and "async def sync_loop_iteration(" in text
    assert "handle_pod_updates" not in text.split("case PodOperation.UPDATE:")[1].split("case")[0]


def test_the_language_comes_from_the_locale(workspace: Workspace, monkeypatch) -> None:
    monkeypatch.delenv("MINIKUBELET_LANG", raising=False)
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert "第一项没通过的是" in run(workspace, "check", "pleg-case")[1]
    monkeypatch.setenv("MINIKUBELET_LANG", "en")
    assert "The first that does not" in run(workspace, "check", "pleg-case")[1]


def test_check_without_a_name_takes_the_current_exercise(workspace: Workspace) -> None:
    code, out = run(workspace, "check", "--lang", "en")
    assert code == 1 and "ch01/merge-set" in out.splitlines()[0]
    solve(workspace, "merge-set")
    code, out = run(workspace, "check", "--lang", "en")
    assert code == 0 and "All 8 checks pass" in out
    assert "Next: ch01/deliver-incremental" in out
    code, out = run(workspace, "check", "--lang", "en")
    assert "ch01/deliver-incremental" in out.splitlines()[0]


def test_a_pass_shows_the_ports_code_beside_the_learners(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "pleg-events")
    solve(workspace, "pleg-events")
    code, out = run(workspace, "check", "pleg-events", "--lang", "en")
    assert code == 0 and "Your code is the port's, line for line." in out
    text = exercise.exercise_file.read_text().replace(
        "type=ContainerChanged, data=cid)]", "type=ContainerChanged, data=cid)]  # mine"
    )
    exercise.exercise_file.write_text(text)
    mine = next(i for i, line in enumerate(text.splitlines(), 1) if line.endswith("# mine"))
    code, out = run(workspace, "check", "pleg-events", "--lang", "en")
    assert code == 0 and "The port's own code, beside yours" in out
    assert f"@@ -{mine - 2},5 +{mine - 2},5 @@" in out  # the lines of the learner's file
    assert (
        "-            return [PodLifecycleEvent(id=pod_id, type=ContainerChanged, data=cid)]  # mine"
        in out
    )
    assert (
        "+            return [PodLifecycleEvent(id=pod_id, type=ContainerChanged, data=cid)]\n"
        in out
    )


def test_a_file_that_does_not_load_is_told_with_its_line(workspace: Workspace) -> None:
    text = edit(
        workspace, "dispatch-work", "        # TODO 2:", "        retrun 1\n        # TODO 2:"
    )
    line = text.splitlines().index("        retrun 1") + 1
    code, out = run(workspace, "check", "dispatch-work", "--lang", "en")
    assert code == 1
    assert "Your file does not load: SyntaxError" in out
    assert f"line {line}:  retrun 1" in out
    code, out = run(workspace, "check", "dispatch-work", "--lang", "zh")
    assert "你的文件无法加载：SyntaxError" in out and f"第 {line} 行" in out


def test_a_typo_is_the_learners_error_at_their_line_not_a_panic(workspace: Workspace) -> None:
    text = edit(
        workspace,
        "config-ops",
        "                        # TODO 1:",
        "                        await handler.handle_pod_update(u.pods)\n"
        "                        # TODO 1:",
    )
    line = (
        text.splitlines().index("                        await handler.handle_pod_update(u.pods)")
        + 1
    )
    code, out = run(workspace, "check", "config-ops", "--lang", "en")
    assert code == 1
    assert (
        "Your code raised AttributeError: 'RecordingHandler' object has no attribute "
        "'handle_pod_update'" in " ".join(out.split())
    )
    assert "panic" not in out and "goroutine" not in out
    assert f"line {line}:  await handler.handle_pod_update(u.pods)" in out


def test_a_deadlock_names_the_learners_line(workspace: Workspace) -> None:
    text = edit(
        workspace,
        "pleg-case",
        "                # TODO 1:",
        "                await make_chan(0).recv()\n                # TODO 1:",
    )
    text = text.replace(
        "from __future__ import annotations\n",
        "from __future__ import annotations\n\nfrom minikubelet.go import make_chan\n",
    )
    find(workspace.chapters(), "pleg-case").exercise_file.write_text(text)
    line = text.splitlines().index("                await make_chan(0).recv()") + 1
    code, out = run(workspace, "check", "pleg-case", "--lang", "en")
    assert code == 1 and "Every goroutine is blocked" in out and "[chan receive]" in out
    assert f"line {line}:  await make_chan(0).recv()" in out


def test_a_file_without_the_function_says_which_is_missing(workspace: Workspace) -> None:
    edit(
        workspace,
        "dispatch-work",
        "    async def dispatch_work(",
        "    async def dispatch_work_mine(",
    )
    code, out = run(workspace, "check", "dispatch-work", "--lang", "en")
    assert code == 1 and "Your file no longer defines Kubelet.dispatch_work" in out
    assert "reset" in out


def test_other_exercises_parts_are_left_out_of_the_file(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "config-ops")
    text = workspace.shipped(exercise, "en")
    assert "(Exercise ch03/pleg-case asks for this part: it is left out here.)" in text
    assert "is_sync_pod_worthy(e)" not in text  # pleg-case's answer
    zh = workspace.shipped(exercise, "zh")
    assert "（这部分是练习 ch03/pleg-case 要写的，这里省略。）" in zh


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
    spec = workspace.root / "ch02" / "exercises" / "pleg-events" / "exercise.yaml"
    spec.write_text("title: x\n")
    with pytest.raises(CatalogError):
        discover(workspace.root)
    code, out = run(Workspace(root=workspace.root), "list", "--lang", "en")
    assert code == 2 and "broken exercise files" in out and "pleg-events" in out


def test_the_chapters_are_read_again_when_a_file_changes(workspace: Workspace) -> None:
    first = discover(workspace.root)
    assert discover(workspace.root)[0] is first[0], "unchanged files are not read twice"
    spec = workspace.root / "ch02" / "exercises" / "pleg-events" / "exercise.yaml"
    spec.write_text(spec.read_text() + "# a comment changes nothing the catalogue holds\n")
    again = discover(workspace.root)
    assert again[0] is not first[0]
    fresh = {e.key: e.title for e in all_exercises(again)}
    assert fresh == {e.key: e.title for e in all_exercises(first)}, "what a fresh read gives"
    (workspace.root / "ch02" / "chapter.yaml").unlink()
    assert 2 not in {c.number for c in discover(workspace.root)}


def test_an_anchor_the_port_lost_is_reported(workspace: Workspace) -> None:
    spec = workspace.root / "ch02" / "exercises" / "pleg-events" / "exercise.yaml"
    spec.write_text(
        spec.read_text().replace("case plegContainerUnknown:", "case plegContainerGone:")
    )
    code, out = run(Workspace(root=workspace.root), "check", "pleg-events", "--lang", "en")
    assert (
        code == 2 and "no function of port: has the anchor '# Go: case plegContainerGone:'" in out
    )


# --- hint -------------------------------------------------------------------------------------


def test_hint_gives_one_more_hint_each_time_then_points_at_the_port(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "sort-and-admit")
    n = exercise.hint_count
    assert n == len(exercise.hints) + 1  # the hints in words, then the port's code
    outs = [run(workspace, "hint", "sort-and-admit", "--lang", "en")[1] for _ in range(n + 1)]
    assert f"Hint 1 of {n}:" in outs[0] and "Run it again for hint 2" in outs[0]
    assert "The port's own code" not in "".join(outs[: n - 1])
    assert f"Hint {n} of {n}:" in outs[n - 1] and "That was the last hint" in outs[n - 1]
    assert "The port's own code, TODO by TODO:" in outs[n - 1]
    assert "      pods = sort_pods_by_creation_time(pods)" in outs[n - 1]
    assert "minikubelet/kubelet.py:" in outs[n - 1]
    assert f"Hint {n} of {n}:" in outs[n]
    code, out = run(workspace, "hint", "sort-and-admit", "--all", "--lang", "zh")
    assert (
        code == 0 and f"提示 1/{n}" in out and f"提示 {n}/{n}" in out and "这是最后一条提示" in out
    )
    code, out = run(workspace, "hint", "sort-and-admit", "--level", "9", "--lang", "en")
    assert code == 2 and f"hints 1 to {n}" in out


def test_hint_without_a_name_is_for_the_current_exercise(workspace: Workspace) -> None:
    code, out = run(workspace, "hint", "--lang", "en")
    assert code == 0 and out.startswith("ch01/merge-set — ") and "Hint 1 of" in out


# --- reset ------------------------------------------------------------------------------------


def test_reset_asks_first_and_makes_the_file_again(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "config-ops")
    workspace.ensure_files("en", [exercise])
    shipped = exercise.exercise_file.read_text()
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
    assert exercise.exercise_file.read_text() == workspace.shipped(exercise, "zh")
    assert not workspace.progress().is_done("ch03/config-ops")


def test_reset_all_forgets_every_mark_changed_file_or_not(workspace: Workspace) -> None:
    solve(workspace, "merge-set")
    assert run(workspace, "check", "merge-set")[0] == 0
    progress = workspace.progress()
    progress.mark_done("ch03/pleg-case")  # its file is as shipped, and the mark must go too
    progress.save()
    code, out = run(workspace, "reset", "--all", "--yes", "--lang", "en")
    assert code == 0 and "Reset ch01/merge-set." in out and "Reset ch03/pleg-case." in out
    assert workspace.progress().done == {}
    for exercise in workspace.exercises():
        assert exercise.exercise_file.read_text() == workspace.shipped(exercise, "en")
    assert run(workspace, "reset", "--lang", "en")[0] == 2


def test_a_deleted_exercise_file_comes_back(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "loop-tickers")
    workspace.ensure_files("en", [exercise])
    exercise.exercise_file.unlink()
    assert run(workspace, "reset", "loop-tickers", "-y")[0] == 0
    assert exercise.exercise_file.read_text() == workspace.shipped(exercise, "en")
    exercise.exercise_file.unlink()
    assert run(workspace, "check", "loop-tickers")[0] == 1  # made again, then checked
    assert exercise.exercise_file.exists()


# --- the learner's files and the linter -------------------------------------------------------


def test_lint_never_fails_on_a_learners_file(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    folder = tmp_path / "walkthrough" / "ch01" / "exercises" / "merge-set"
    folder.mkdir(parents=True)
    (folder / "exercise.py").write_text("import os\nx=[1,\n2]\ndef f( a ):return a\n")
    (tmp_path / "ok.py").write_text("x = 1\n")
    ruff = Path(sys.executable).parent / "ruff"
    for args in (["check", "."], ["format", "--check", "."]):
        done = subprocess.run(
            [str(ruff), *args], cwd=tmp_path, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr


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
    for command in ("watch", "list", "check", "hint", "progress", "reset", "vet"):
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
