"""A learner's code can neither hang a check nor change the runner or the next check.

Each case writes a hostile ``generate_events`` (ch02/pleg-events) and checks it with a short time
limit: the check must end, in bounded time, with a message that names what happened.

Two bounds, so that a loaded machine cannot fail them and a runner that lets a hang run on still
does: every check must return within :data:`HUNG` seconds (else the learner's ``watch`` would hang
with it), and a hang must be cut off within :data:`CUT_OFF` of the moment the learner's loop began,
a moment the hostile code stamps itself. Starting the forkserver and importing the port (seconds on
a busy machine) come before that moment and are not what the limit bounds.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tests.walkthrough.conftest import solve
from walkthrough.catalog import find
from walkthrough.checker import CheckResult, check
from walkthrough.runner import Workspace

LIMIT = 2.0
#: The runner's work after the limit (a stack dump, the kill), on a busy machine; well under the
#: 20 s a check gets by default, so a runner that ignores the limit it is given still fails.
CUT_OFF = LIMIT + 10
HUNG = LIMIT + 120
HEAD = """from __future__ import annotations

import os, signal, sys, threading, time

from minikubelet.pleg.pleg import PodLifecycleEvent, PodLifeCycleEventType as T


def generate_events(pod_id, cid, old_state, new_state):
"""


def hostile(ws: Workspace, tmp_path: Path, body: str, *, module: str = "") -> CheckResult:
    file = tmp_path / "hostile.py"
    lines = "\n".join(f"    {line}" for line in body.strip("\n").splitlines())
    file.write_text(HEAD + lines + "\n" + module)
    results: list[CheckResult] = []
    worker = threading.Thread(
        target=lambda: results.append(
            check(find(ws.chapters(), "pleg-events"), file, time_limit=LIMIT, debug=False)
        ),
        daemon=True,
    )
    worker.start()
    worker.join(HUNG)
    assert not worker.is_alive(), f"the check did not end in {HUNG:g} s: it would hang watch"
    return results[0]


def hang(ws: Workspace, tmp_path: Path, body: str) -> CheckResult:
    """``hostile`` for a hang: its first line stamps the moment the learner's loop begins."""
    stamp = tmp_path / "hang-began"
    module = f"\n\ndef stamp():\n    open({str(stamp)!r}, 'w').write(repr(time.monotonic()))\n"
    result = hostile(ws, tmp_path, "stamp()\n" + body.lstrip("\n"), module=module)
    ended = time.monotonic()  # the system's monotonic clock: the same in the check's process
    began = float(stamp.read_text())
    assert ended - began < CUT_OFF, f"the hang ran {ended - began:.1f} s, the limit is {LIMIT:g} s"
    return result


def test_a_loop_that_swallows_every_exception_is_stopped(workspace: Workspace, tmp_path) -> None:
    body = """
while True:
    try:
        time.sleep(0.01)
    except BaseException:
        pass
"""
    result = hang(workspace, tmp_path, body)
    failure = result.first_failure
    assert failure is not None and failure.kind == "timeout"
    assert failure.check == "check_a_container_that_starts"
    assert failure.line == 12 and failure.source == "time.sleep(0.01)"
    assert f"more than {LIMIT:g} s of real time" in failure.en and "虚拟时钟" in failure.zh
    # It slept: what was seen is a wait in real time, not a loop that keeps the CPU busy.
    assert "was waiting, not working" in failure.en and "一直在等待" in failure.zh
    assert result.total == 6  # every check counts, those that never ran too


def test_turning_the_alarm_off_does_not_help(workspace: Workspace, tmp_path) -> None:
    body = """
signal.setitimer(signal.ITIMER_REAL, 0)
signal.signal(signal.SIGALRM, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
while True:
    pass
"""
    failure = hang(workspace, tmp_path, body).first_failure
    assert failure is not None and failure.kind == "timeout" and failure.line in (13, 14)
    assert "kept the CPU busy" in failure.en and "一直占着 CPU" in failure.zh


def test_a_time_out_while_printing_says_how_much_was_printed(
    workspace: Workspace, tmp_path
) -> None:
    failure = hang(workspace, tmp_path, "while True:\n    print('x')").first_failure
    assert failure is not None and failure.kind == "timeout"
    assert "your code printed" in failure.en and "输出了" in failure.zh, failure.en


def test_a_thread_left_running_does_not_keep_the_check_alive(
    workspace: Workspace, tmp_path
) -> None:
    body = """
threading.Thread(target=time.sleep, args=(3600,), daemon=False).start()
return [PodLifecycleEvent(id=pod_id, type=T.CONTAINER_STARTED, data=cid)]
"""
    result = hostile(workspace, tmp_path, body)
    assert result.passed[:1] == ["check_a_container_that_starts"]
    assert result.first_failure is not None and result.first_failure.kind == "unmet"


def test_os_exit_is_reported_with_the_check_it_ended(workspace: Workspace, tmp_path) -> None:
    failure = hostile(workspace, tmp_path, "os._exit(0)").first_failure
    assert failure is not None and failure.kind == "ended"
    assert failure.check == "check_a_container_that_starts"
    assert "os._exit()" in failure.en and "os._exit()" in failure.zh


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("raise KeyboardInterrupt", "Your code raised KeyboardInterrupt"),
        ("sys.exit(3)", "Your code called sys.exit(3)"),
        ("return [bytearray(8 << 30)]", "ran out of the memory a check may use"),
    ],
)
def test_an_escape_is_a_failure_with_a_word(
    workspace: Workspace, tmp_path, body: str, said: str
) -> None:
    result = hostile(workspace, tmp_path, body)
    failure = result.first_failure
    assert failure is not None and failure.kind == "error" and said in failure.en
    assert failure.line == 9
    assert len(result.failed) == 6  # each check ran, and said so


def test_what_the_learner_prints_is_kept(workspace: Workspace, tmp_path) -> None:
    result = hostile(workspace, tmp_path, 'print("looking at", old_state)\nreturn []')
    assert "looking at" in result.output


def test_a_patched_port_stays_in_its_check(workspace: Workspace, tmp_path) -> None:
    poison = """
import minikubelet.kubelet, minikubelet.go

minikubelet.kubelet.Kubelet.dispatch_work = None
minikubelet.go.select = None
"""
    hostile(workspace, tmp_path, "return []", module=poison)
    solve(workspace, "dispatch-work")
    assert check(find(workspace.chapters(), "dispatch-work")).ok
    solve(workspace, "config-ops")
    assert check(find(workspace.chapters(), "config-ops")).ok


def test_a_check_writes_nothing_beside_the_learners_file(workspace: Workspace) -> None:
    solve(workspace, "pleg-events")
    exercise = find(workspace.chapters(), "pleg-events")
    assert check(exercise).ok
    assert sorted(p.name for p in exercise.dir.iterdir()) == [
        "checks.py",
        "exercise.py",
        "exercise.yaml",
    ]
