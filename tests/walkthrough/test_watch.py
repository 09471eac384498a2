"""``watch``: the learner's home, in plain mode (events given) and in a real terminal (a pty)."""

from __future__ import annotations

import io
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.walkthrough.conftest import copy_chapters, solve
from walkthrough.catalog import PACKAGE_DIR, find
from walkthrough.runner import PROG, Workspace
from walkthrough.watch import cmd_watch, progress_bar

ROOT = PACKAGE_DIR.parent


def watch(ws: Workspace, events: list, name: str | None = None, lang: str = "en") -> str:
    out = io.StringIO()
    assert cmd_watch(ws, name, lang, out, events=events) == 0
    return out.getvalue()


def test_the_progress_bar_says_n_of_m() -> None:
    bar = progress_bar(5, 16, 60, "en")
    assert bar == "Progress: [" + "#" * 12 + ">" + "-" * 28 + "]   5/16" and len(bar) == 60
    assert progress_bar(16, 16, 40, "en").endswith("#]  16/16")
    assert progress_bar(0, 16, 10, "zh") == "进度： 0/16"


def test_watch_starts_on_the_current_exercise_and_writes_the_files(workspace: Workspace) -> None:
    out = watch(workspace, [("key", "q")])
    total = len(workspace.exercises())
    assert f"Wrote {total} exercise files from the port" in out
    assert "--- " in out and " ch01/merge-set ---" in out and "✗ ch01/merge-set" in out
    assert "Progress: [" in out and f" 0/{total}" in out
    assert "Current exercise: " in out and "See you soon" in out
    assert all(e.exercise_file.exists() for e in workspace.exercises())


def test_a_save_checks_that_exercise_and_a_pass_moves_on(workspace: Workspace) -> None:
    config_ops = find(workspace.chapters(), "config-ops")
    workspace.ensure_files("en")
    solve(workspace, "config-ops")
    out = watch(workspace, [("saved", config_ops.exercise_file), ("key", "q")])
    first, rest = out.split("--- ", 2)[1:]
    assert "ch01/merge-set" in first
    assert "✓ ch03/config-ops" in rest and "Your code is the port's, line for line." in rest
    exercises = workspace.exercises()
    upcoming = exercises[exercises.index(config_ops) + 1].key
    assert f"On to the next exercise: {upcoming}" in rest and f"✗ {upcoming}" in rest
    assert workspace.progress().is_done("ch03/config-ops")
    assert workspace.progress().current == upcoming


def test_keys_hint_list_next_and_check_again(workspace: Workspace) -> None:
    merge_set = find(workspace.chapters(), "merge-set")
    events = [
        ("line", "h\n"),
        ("line", "h\n"),
        ("line", "n\n"),
        ("line", "l\n"),
        ("line", "7\n"),
        ("line", "r\n"),
        ("line", "99\n"),
        ("line", "q\n"),
    ]
    out = watch(workspace, events)
    assert "Hint 1 of" in out and "Hint 2 of" in out
    assert workspace.progress().hints_shown[merge_set.key] == 2
    assert "ch01/deliver-incremental ---" in out  # n
    seventh = workspace.exercises()[6]
    assert f"  7  · {seventh.name}" in out  # the list, numbered
    assert out.count(f" {seventh.key} ---") == 2  # 7 then r: checked twice
    assert f"There is no exercise 99: choose 1 to {len(workspace.exercises())}." in out


def test_watch_can_be_quit_in_chinese(workspace: Workspace) -> None:
    out = watch(workspace, [("line", "q\n")], lang="zh")
    assert "进度：[" in out and "当前练习：" in out and "下次见" in out


def _copy_chapters(tmp_path: Path) -> tuple[Workspace, dict[str, str]]:
    """A learner's copy of the chapters and the environment that points the CLI at it."""
    ws = copy_chapters(tmp_path, progress="p.json")
    env = {
        **os.environ,
        "MINIKUBELET_WALKTHROUGH_DIR": str(ws.root),
        "MINIKUBELET_WALKTHROUGH_PROGRESS": str(tmp_path / "p.json"),
        "COLUMNS": "100",
    }
    return ws, env


@pytest.mark.parametrize(
    ("lang", "typed", "said"),
    [
        ("en", None, "Standard input closed: watch ends. `{prog} watch` takes you back where"),
        ("zh", "h\n", "标准输入已关闭，watch 结束。运行 `{prog} watch` 会回到你现在的位置。"),
    ],
)
def test_plain_watch_ends_when_its_standard_input_ends(
    tmp_path: Path, lang: str, typed: str | None, said: str
) -> None:
    _ws, env = _copy_chapters(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-m", "walkthrough", "watch", "--plain", "--lang", lang],
        stdin=subprocess.DEVNULL if typed is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
        text=True,
        encoding="utf-8",
    )
    try:  # a bound for a loaded machine: a lingering watch never ends by itself
        out, err = process.communicate(typed, timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert err == "" and out.count(said.format(prog=PROG)) == 1, out[-2000:]
    assert out.rstrip().endswith("。" if lang == "zh" else "where you were.")
    if typed:  # what was typed before the end still counts
        assert "提示 1/" in out


def _read_until(fd: int, pattern: str, timeout: float = 60.0) -> str:
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if re.search(pattern, seen.decode("utf-8", errors="replace"), re.DOTALL):
                return seen.decode("utf-8", errors="replace")
    raise AssertionError(
        f"never saw {pattern!r}; the screen had:\n{seen.decode(errors='replace')[-3000:]}"
    )


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_watch_in_a_terminal_follows_saves_and_keys(tmp_path: Path) -> None:
    ws, env = _copy_chapters(tmp_path)
    env["MINIKUBELET_LANG"] = "en"
    main, child = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "walkthrough", "watch"],
        stdin=child,
        stdout=child,
        stderr=child,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )
    os.close(child)
    try:
        screen = _read_until(main, r"q:quit")
        assert "\x1b[2J" in screen and "✗ ch01/merge-set" in screen and "Progress: [" in screen
        os.write(main, b"h")
        assert "Hint 1 of" in _read_until(main, r"Hint 1 of.*q:quit")
        solve(ws, "merge-set")  # the learner saves a right answer
        screen = _read_until(main, r"Press n to go on to ch01/deliver-incremental")
        assert "✓ ch01/merge-set" in screen
        os.write(main, b"n")
        assert "✗ ch01/deliver-incremental" in _read_until(main, r"deliver-incremental.*q:quit")
        os.write(main, b"q")
        assert "See you soon" in _read_until(main, r"See you soon")
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)
    assert ws.progress().is_done("ch01/merge-set")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_watch_ends_quietly_when_its_terminal_hangs_up(tmp_path: Path) -> None:
    _ws, env = _copy_chapters(tmp_path)
    env["MINIKUBELET_LANG"] = "en"
    main, child = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "walkthrough", "watch"],
        stdin=child,
        stdout=child,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )
    os.close(child)
    try:
        _read_until(main, r"q:quit")
        os.write(main, b"\x04")  # Ctrl+D is a key like any other here, not the end
        os.write(main, b"h")
        _read_until(main, r"Hint 1 of.*q:quit")
    finally:
        os.close(main)  # the terminal window is closed
    try:
        _out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0 and err == b"", err.decode(errors="replace")[-2000:]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_ctrl_c_ends_watch_with_130_as_the_shell_expects(tmp_path: Path) -> None:
    # Issue #28 item 7: a script that runs `watch` must be able to tell Ctrl+C from `q`.
    _ws, env = _copy_chapters(tmp_path)
    env["MINIKUBELET_LANG"] = "en"
    main, child = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "walkthrough", "watch"],
        stdin=child,
        stdout=child,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )
    os.close(child)
    try:
        _read_until(main, r"q:quit")
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)
    assert process.returncode == 130 and err == b"", err.decode(errors="replace")[-2000:]
