"""The check server: reused between commands, never stale, the runner's environment, and gone
when its runner is (walkthrough/checkserver.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.walkthrough.conftest import solve
from tests.walkthrough.test_check_processes import running
from walkthrough import checkserver, expect
from walkthrough.catalog import PACKAGE_DIR, find
from walkthrough.checker import check
from walkthrough.runner import Workspace

ROOT = PACKAGE_DIR.parent

ENV_PROBE = """
def generate_events(pod_id, cid, old_state, new_state):
    import os
    print("seen:", os.environ.get("CHECK_SERVER_PROBE"), os.getcwd())
    return []
"""


def test_checks_reuse_one_server_and_run_with_the_runners_environment(
    workspace: Workspace, tmp_path: Path, monkeypatch
) -> None:
    exercise = find(workspace.chapters(), "pleg-events")
    solve(workspace, "pleg-events")
    assert check(exercise).ok
    server = checkserver.server_pid()
    assert server is not None and running(server), "no check server answered"
    probe = tmp_path / "probe.py"
    probe.write_text(ENV_PROBE)
    for value in ("one", "two"):  # two runners' environments, one server
        monkeypatch.setenv("CHECK_SERVER_PROBE", value)
        monkeypatch.chdir(tmp_path)
        result = check(exercise, probe)
        assert f"seen: {value} {tmp_path}" in result.output, result.output
    assert checkserver.server_pid() == server, "a second check started another server"


LEAVE_STATE = """
from minikubelet.pleg import generic

print("left by an earlier check:", getattr(generic, "_left_by_a_check", None))
generic._left_by_a_check = "yes"
generic.generate_events = None


def generate_events(pod_id, cid, old_state, new_state):
    return []
"""


def test_each_check_starts_from_the_port_as_imported(workspace: Workspace, tmp_path) -> None:
    # One check changes the port's modules as it likes; the next, from the same server, sees
    # none of it: each check is a fresh process forked from the server, which only imported.
    exercise = find(workspace.chapters(), "pleg-events")
    probe = tmp_path / "probe.py"
    probe.write_text(LEAVE_STATE)
    first = check(exercise, probe)
    server = checkserver.server_pid()
    second = check(exercise, probe)
    for result in (first, second):
        assert "left by an earlier check: None" in result.output, result.output
    assert checkserver.server_pid() == server, "the second check had a server of its own"
    solve(workspace, "pleg-events")
    assert check(exercise).ok, "a check after one that broke the port must see it whole"


def test_a_killed_server_is_replaced_and_the_check_still_runs(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "pleg-events")
    solve(workspace, "pleg-events")
    assert check(exercise).ok
    old = checkserver.server_pid()
    assert old is not None
    os.kill(old, signal.SIGKILL)  # its socket file and lock file stay behind
    deadline = time.monotonic() + 10
    while running(old) and time.monotonic() < deadline:
        time.sleep(0.02)
    result = check(exercise)
    assert result.ok and "Traceback" not in result.output, result.output
    assert checkserver.server_pid() not in (None, old)


def test_a_server_that_answers_nothing_is_passed_by(workspace: Workspace, monkeypatch) -> None:
    exercise = find(workspace.chapters(), "pleg-events")
    solve(workspace, "pleg-events")
    assert check(exercise).ok
    hung = checkserver.server_pid()
    assert hung is not None
    monkeypatch.setattr(checkserver, "ANSWER_SECONDS", 0.5)
    monkeypatch.setattr(checkserver, "START_SECONDS", 30.0)
    os.kill(hung, signal.SIGSTOP)  # it listens, and answers nothing
    try:
        result = check(exercise)
        assert result.ok and "Traceback" not in result.output, result.output
        # It did not wait for the hung server as for one that imports the port.
        assert result.seconds < checkserver.START_SECONDS
    finally:
        os.kill(hung, signal.SIGKILL)
        os.kill(hung, signal.SIGCONT)


def test_a_changed_module_file_gets_a_new_server(workspace: Workspace) -> None:
    exercise = find(workspace.chapters(), "pleg-events")
    solve(workspace, "pleg-events")
    assert check(exercise).ok
    old = checkserver.server_pid()
    module = Path(expect.__file__)  # imported by the server (checks use it)
    stat = module.stat()
    try:
        os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
        assert check(exercise).ok, "the check after a change must still run"
        assert checkserver.server_pid() not in (None, old), "the stale server took the check"
    finally:
        os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns))


HANG = """
def generate_events(pod_id, cid, old_state, new_state):
    import os, time
    open({marker!r}, "w").write(str(os.getpid()))
    time.sleep(600)
"""


def test_a_runner_that_goes_away_takes_its_check_with_it(workspace: Workspace, tmp_path) -> None:
    marker = tmp_path / "check-pid"
    hang = tmp_path / "hang.py"
    hang.write_text(HANG.format(marker=str(marker)))
    runner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from pathlib import Path; from walkthrough.catalog import find; "
            "from walkthrough.runner import Workspace; from walkthrough.checker import check; "
            f"ws = Workspace(root=Path({str(workspace.root)!r})); "
            f"check(find(ws.chapters(), 'pleg-events'), Path({str(hang)!r}), debug=False)",
        ],
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() or not marker.read_text():
            assert time.monotonic() < deadline, "the check never began"
            assert runner.poll() is None, "the runner ended before its check began"
            time.sleep(0.05)
        pid = int(marker.read_text())
        runner.send_signal(signal.SIGKILL)  # no finally, no kill of its own: just gone
        runner.wait()
        waited = time.monotonic() + 10
        while running(pid) and time.monotonic() < waited:
            time.sleep(0.05)
        assert not running(pid), "the check outlived the runner that asked for it"
    finally:
        if runner.poll() is None:
            runner.kill()


def test_without_a_server_a_check_runs_in_a_fresh_process(
    workspace: Workspace, monkeypatch
) -> None:
    monkeypatch.setenv(checkserver.ENV_OFF, "0")
    exercise = find(workspace.chapters(), "pleg-events")
    assert not check(exercise).ok, "the shipped file passes"
    solve(workspace, "pleg-events")
    assert check(exercise).ok
