"""A process the learner's code starts ends with the check, even a daemon that left its group.

The hostile ``generate_events`` (ch02/pleg-events) double-forks: the middle process calls
``setsid()`` and exits, so the grandchild is in a session of its own, outside the check's
process group, and would be handed to init. Each grandchild writes its pid into a folder the
test reads once the check has returned.
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.walkthrough.test_checker import LIMIT, hang, hostile
from walkthrough.checker import calls_debugger, debugging
from walkthrough.runner import Workspace

DAEMON = """
pid = os.fork()
if pid == 0:
    try:
        os.setsid()
        if os.fork() == 0:
            name = os.path.join({folder!r}, str(os.getpid()))
            open(name + ".tmp", "w").close()
            os.rename(name + ".tmp", name)
            time.sleep(600)
    finally:
        os._exit(0)
os.waitpid(pid, 0)
while len(os.listdir({folder!r})) < {count}:
    time.sleep(0.01)
"""


def running(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie, killed and not yet reaped by init, does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            text = stat.read()
    except OSError:
        return False
    return text[text.rfind(b")") + 2 :].split()[0] not in (b"Z", b"X")


def daemons_left(folder: Path) -> list[int]:
    pids = [int(p.name) for p in folder.iterdir()]
    assert pids, "the learner's code started no daemon: the test proves nothing"
    waited = time.monotonic() + 5
    while time.monotonic() < waited and any(running(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if running(p)]


def test_a_daemon_ends_when_the_check_ends(workspace: Workspace, tmp_path) -> None:
    folder = tmp_path / "daemons"
    folder.mkdir()
    result = hostile(workspace, tmp_path, DAEMON.format(folder=str(folder), count=1) + "return []")
    assert result.failed, "the hostile answer should still fail its checks"
    assert daemons_left(folder) == []


def test_a_daemon_ends_when_its_check_is_cut_off(workspace: Workspace, tmp_path) -> None:
    folder = tmp_path / "daemons"
    folder.mkdir()
    body = DAEMON.format(folder=str(folder), count=1) + "while True:\n    time.sleep(0.01)"
    result = hang(workspace, tmp_path, body)
    failure = result.first_failure
    assert failure is not None and failure.kind == "timeout", f"limit {LIMIT:g} s"
    assert daemons_left(folder) == []


def test_only_a_call_to_a_debugger_counts() -> None:
    assert calls_debugger("def f():\n    breakpoint()\n")
    assert calls_debugger("import pdb\npdb.set_trace()\n")
    assert not calls_debugger("# breakpoint() here lifts nothing\nx = 'set_trace('\n")
    assert not calls_debugger("def f(:\n    breakpoint()\n")  # does not parse: the check says so


def test_a_breakpoint_without_a_terminal_keeps_the_time_limit(tmp_path, monkeypatch) -> None:
    file = tmp_path / "exercise.py"
    file.write_text("def f():\n    breakpoint()\n")
    monkeypatch.setattr("sys.stdin", open("/dev/null"))  # noqa: SIM115
    assert not debugging(file)
