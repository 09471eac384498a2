"""Run an exercise's checks on a file, in a process of their own, and keep what happened.

Each check is a new process (:mod:`walkthrough.child`): the learner's code is patched into the
port there and nowhere else, so a check can neither change the runner nor the next check. The
runner bounds it: each ``check_*`` function gets :data:`TIME_LIMIT` seconds of real time
(``MINIKUBELET_CHECK_TIMEOUT``), the process a memory budget (``MINIKUBELET_CHECK_MEMORY_MB``) and
an output budget. When a check runs out of time, the runner asks the process for its stack
(faulthandler), to name the learner's line, and ends the whole process group. A process that ends
without its last word (``os._exit``, a signal) is reported with the check it was running.

Processes are forked from a server that has imported the port already (multiprocessing's
``forkserver``), so a check costs tens of milliseconds, not the second an import takes. While the
learner debugs (a call to ``breakpoint()`` in the file with a terminal on stdin, or a debugger
running the runner) the check runs in a fresh ``python -m walkthrough.child`` with the learner's
terminal and no time limit. A process the learner's code starts ends with the check, even one
that left the check's process group (:mod:`walkthrough.proctree`).
"""

from __future__ import annotations

import ast
import contextlib
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from walkthrough import proctree
from walkthrough.catalog import Exercise

#: Seconds of real time one check function may take.
TIME_LIMIT = float(os.environ.get("MINIKUBELET_CHECK_TIMEOUT") or 20)
#: Memory a check may allocate beyond what the port takes (MiB).
MEMORY_MB = int(os.environ.get("MINIKUBELET_CHECK_MEMORY_MB") or 1024)
#: What a check may print (MiB).
OUTPUT_MB = 16
#: What of the learner's printed output the report keeps (characters, from the end).
OUTPUT_KEPT = 4000

_context: Any = None


@dataclass
class Failure:
    """Why one check failed, in both languages, and where in the learner's file if known."""

    check: str
    kind: str  # "unmet", "error", "load", "timeout", "ended"
    en: str
    zh: str
    line: int | None = None
    source: str = ""

    def message(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass
class CheckResult:
    """The outcome of one check of one file."""

    exercise: Exercise
    file: Path
    #: Every check function of the exercise, in order (empty when the file did not load).
    names: list[str] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)
    failed: list[Failure] = field(default_factory=list)
    seconds: float = 0.0
    #: The end of what the learner's code printed (stdout and stderr).
    output: str = ""

    @property
    def ok(self) -> bool:
        return not self.failed and bool(self.names) and self.passed == self.names

    @property
    def total(self) -> int:
        return len(self.names) or len(self.passed) + len(self.failed)

    @property
    def first_failure(self) -> Failure | None:
        return self.failed[0] if self.failed else None


def debugging(file: Path) -> bool:
    """Whether the learner is debugging: a debugger runs the runner, or the file calls one
    (``breakpoint()``, ``pdb.set_trace()``) and there is a terminal to debug on.

    Only a call counts, found in the file's syntax tree: the word in a comment or a string
    does not lift the time limit. Without a terminal on stdin (a pipe, CI) a debugger could
    not be answered, so the check keeps its limit.
    """
    if sys.gettrace() is not None or "debugpy" in sys.modules:
        return True
    try:
        if sys.stdin is None or not sys.stdin.isatty():
            return False
        source = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return calls_debugger(source)


def calls_debugger(source: str) -> bool:
    """Whether ``source`` calls ``breakpoint()`` or a ``set_trace()`` anywhere."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False  # the check reports the file that does not load
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("breakpoint", "set_trace"):
                return True
            if isinstance(func, ast.Attribute) and func.attr == "set_trace":
                return True
    return False


def _forkserver() -> Any:
    """The multiprocessing context checks are forked from (the port imported once)."""
    global _context
    if _context is None:
        methods = multiprocessing.get_all_start_methods()
        _context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if "forkserver" in methods:
            _context.set_forkserver_preload(["walkthrough.child", "walkthrough.checker"])
    return _context


def start_server() -> None:
    """Start the server checks are forked from now, so that it imports the port while the
    runner reads the chapters (ours: the two run at the same time on two cores). A check
    starts it anyway when it is not running yet."""
    if _forkserver().get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def _request(exercise: Exercise, file: Path, work: Path | None) -> dict[str, Any]:
    return {
        "file": str(file),
        "checks": str(exercise.checks_file),
        "port": exercise.port,
        "memory_mb": MEMORY_MB if work else 0,
        "output_mb": OUTPUT_MB if work else 0,
        "capture": str(work / "output") if work else "",
        "dump": str(work / "stack") if work else "",
        "own_group": work is not None,
    }


class _Collector:
    """Turns the child's events into a CheckResult."""

    def __init__(self, result: CheckResult) -> None:
        self.result = result
        self.running: str | None = None
        self.done = False
        self.crash = ""

    def take(self, event: dict[str, Any]) -> None:
        kind = event.get("event")
        if kind == "checks":
            self.result.names = list(event["names"])
        elif kind == "start":
            self.running = event["name"]
        elif kind == "pass":
            self.result.passed.append(event["name"])
            self.running = None
        elif kind in ("fail", "load"):
            f = event["failure"]
            self.result.failed.append(
                Failure(f["check"], f["kind"], f["en"], f["zh"], f.get("line"), f.get("source", ""))
            )
            self.running = None
        elif kind == "done":
            self.done = True
        elif kind == "crash":
            self.crash = str(event.get("error", ""))


def _stack_line(dump: Path, file: Path) -> tuple[int | None, str]:
    """The learner's innermost line in a faulthandler dump of the check's threads."""
    try:
        text = dump.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None, ""
    target = str(file.resolve())
    for m in re.finditer(r'File "(?P<path>[^"]+)", line (?P<line>\d+)', text):
        try:
            same = str(Path(m.group("path")).resolve()) == target
        except (OSError, ValueError):
            same = False
        if same:
            number = int(m.group("line"))
            try:
                lines = file.read_text(encoding="utf-8").splitlines()
                return number, lines[number - 1].strip()
            except (OSError, IndexError, UnicodeDecodeError):
                return number, ""
    return None, ""


def _timeout_failure(check: str, limit: float, line: int | None, source: str) -> Failure:
    return Failure(
        check,
        "timeout",
        f"The check ran for more than {limit:g} s of real time and was stopped. The port runs on a "
        "virtual clock: a loop that never awaits (or awaits only what is always ready) never "
        "lets the clock move, and never ends.",
        f"检查运行超过了 {limit:g} 秒（真实时间），已被中止。移植版运行在虚拟时钟上：一个从不 await"
        "（或只 await 总是就绪的东西）的循环不会让时钟前进，也就永远不会结束。",
        line,
        source,
    )


def _ended_failure(check: str, exitcode: int | None, crash: str) -> Failure:
    if crash:
        return Failure(
            check,
            "ended",
            f"The runner failed while checking (not your code's fault, please report it): {crash}",
            f"检查程序自身出错了（不是你的代码的问题，请报告）：{crash}",
        )
    if exitcode is not None and exitcode < 0:
        number = -exitcode
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        if name == "SIGXFSZ":
            return Failure(
                check,
                "ended",
                f"Your code printed more than {OUTPUT_MB} MiB, and the check was stopped.",
                f"你的代码输出超过了 {OUTPUT_MB} MiB，检查已被中止。",
            )
        return Failure(
            check,
            "ended",
            f"The check's process was ended by {name} while running {check}.",
            f"运行 {check} 时，检查进程被 {name} 终止了。",
        )
    return Failure(
        check,
        "ended",
        f"The check's process ended (exit status {exitcode}) while running {check}, before it "
        "could report: does your code call os._exit() or end the process another way?",
        f"运行 {check} 时，检查进程在报告结果之前就退出了（退出码 {exitcode}）："
        "你的代码是不是调用了 os._exit()，或用别的方式结束了进程？",
    )


def _kill(pid: int) -> None:
    """End the check's process and every process below it (see :mod:`walkthrough.proctree`)."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGSTOP)  # it starts no new process while its tree is walked
    proctree.kill_descendants(pid)
    for kill in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            kill()
            return
        except (OSError, AttributeError):
            continue


def _run_isolated(
    exercise: Exercise, file: Path, result: CheckResult, limit: float, work: Path
) -> None:
    ctx = _forkserver()
    receive, send = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_entry, args=(_request(exercise, file, work), send), daemon=True)
    collect = _Collector(result)
    process.start()
    send.close()
    deadline = time.monotonic() + limit
    timed_out = False
    try:
        while not collect.done:
            if receive.poll(0.05):
                try:
                    event = receive.recv()
                except (EOFError, OSError):
                    break
                collect.take(event)
                if event.get("event") in ("start", "checks"):
                    deadline = time.monotonic() + limit
                continue
            if not process.is_alive() and not receive.poll(0):
                break
            if time.monotonic() > deadline:
                timed_out = True
                break
        if timed_out:
            stack = work / "stack"
            if hasattr(signal, "SIGUSR1"):
                with contextlib.suppress(OSError):
                    os.kill(process.pid, signal.SIGUSR1)  # faulthandler writes every thread
                waited = time.monotonic() + 1.0
                while time.monotonic() < waited and not (stack.exists() and stack.stat().st_size):
                    time.sleep(0.02)
                time.sleep(0.05)
            line, source = _stack_line(stack, file)
            result.failed.append(_timeout_failure(collect.running or "load", limit, line, source))
    finally:
        if process.pid is not None:
            _kill(process.pid)
        process.join(5)
        receive.close()
    if not collect.done and not timed_out:
        if not result.failed or collect.running is not None or collect.crash:
            result.failed.append(
                _ended_failure(collect.running or "load", process.exitcode, collect.crash)
            )
    result.output = _tail(work / "output")


def _entry(request: dict[str, Any], conn: Any) -> None:
    """The target of a forked check. Named here, not in :mod:`walkthrough.child`, so that the
    runner never imports the port itself: only the server it forks from has it imported."""
    from walkthrough import child

    child.entry(request, conn)


def _tail(path: Path) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - OUTPUT_KEPT))
            data = f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    return data if size <= OUTPUT_KEPT else "…" + data


def _run_debugging(exercise: Exercise, file: Path, result: CheckResult, work: Path) -> None:
    request = work / "request.json"
    request.write_text(json.dumps(_request(exercise, file, None)), encoding="utf-8")
    read, write = os.pipe()
    collect = _Collector(result)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "walkthrough.child", str(request), str(write)],
            pass_fds=(write,),
        )
    finally:
        os.close(write)
    with os.fdopen(read, encoding="utf-8") as events:
        for line in events:
            try:
                collect.take(json.loads(line))
            except (ValueError, KeyError):
                continue
    process.wait()
    if not collect.done and (not result.failed or collect.running is not None or collect.crash):
        result.failed.append(
            _ended_failure(collect.running or "load", process.returncode, collect.crash)
        )


def check(
    exercise: Exercise,
    file: Path | None = None,
    *,
    time_limit: float | None = None,
    debug: bool | None = None,
) -> CheckResult:
    """Run ``exercise``'s checks against ``file`` (default: the learner's ``exercise.py``)."""
    file = Path(file) if file is not None else exercise.exercise_file
    result = CheckResult(exercise, file)
    start = time.perf_counter()
    debug = debugging(file) if debug is None else debug
    with tempfile.TemporaryDirectory(prefix="walkthrough-check-") as tmp:
        if debug:
            _run_debugging(exercise, file, result, Path(tmp))
        else:
            _run_isolated(exercise, file, result, time_limit or TIME_LIMIT, Path(tmp))
    result.seconds = time.perf_counter() - start
    return result
