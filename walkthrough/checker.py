"""Run an exercise's checks on a file, in a process of their own, and keep what happened.

Each check is a new process (:mod:`walkthrough.child`): the learner's code is patched into the
port there and nowhere else, so a check can neither change the runner nor the next check. The
runner bounds it: each ``check_*`` function gets :data:`TIME_LIMIT` seconds of real time
(``MINIKUBELET_CHECK_TIMEOUT``), the process a memory budget (``MINIKUBELET_CHECK_MEMORY_MB``) and
an output budget. When a check runs out of time, the runner asks the process for its stack
(faulthandler), to name the learner's line, and ends the whole process group. A process that ends
without its last word (``os._exit``, a signal) is reported with the check it was running.

Processes are forked from a server that has imported the port already
(:mod:`walkthrough.checkserver`, kept between commands), so a check costs tens of milliseconds,
not the second an import takes. While the learner debugs (a call to ``breakpoint()`` in the
file with a terminal on stdin, or a debugger running the runner) the check runs in a fresh
``python -m walkthrough.child`` with the learner's terminal and no time limit. A process the learner's code starts ends with the check, even one
that left the check's process group (:mod:`walkthrough.proctree`).
"""

from __future__ import annotations

import ast
import contextlib
import json
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

from walkthrough import checkserver, proctree
from walkthrough.catalog import Exercise

#: Seconds of real time one check function may take.
TIME_LIMIT = float(os.environ.get("MINIKUBELET_CHECK_TIMEOUT") or 20)
#: Memory a check may allocate beyond what the port takes (MiB).
MEMORY_MB = int(os.environ.get("MINIKUBELET_CHECK_MEMORY_MB") or 1024)
#: What a check may print (MiB).
OUTPUT_MB = 16
#: What of the learner's printed output the report keeps (characters, from the end).
OUTPUT_KEPT = 4000


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


def start_server() -> None:
    """Start this workspace's check server unless it is running, so that it imports the port
    while the runner reads the chapters (ours: the two run at the same time on two cores). A
    check starts it anyway when it is not running yet."""
    checkserver.ensure_running()


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


#: Output that makes printing the likely reason a check ran out of time (bytes, lines).
PRINTED_MUCH = (1 << 20, 10_000)


@dataclass
class _Watched:
    """What the runner saw of a check from the moment it began: the time, the seconds its
    process had been busy (see :func:`proctree.busy_seconds`) and the size of its output then
    (the time-out message says what changed)."""

    began: float = 0.0
    busy: float | None = None
    printed: int = 0

    @classmethod
    def now(cls, pid: int, output: Path) -> _Watched:
        return cls(time.monotonic(), proctree.busy_seconds(pid), _size(output))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _lines(path: Path, skip: int) -> int:
    """The lines of ``path`` after its first ``skip`` bytes."""
    count = 0
    try:
        with open(path, "rb") as f:
            f.seek(skip)
            while chunk := f.read(1 << 20):
                count += chunk.count(b"\n")
    except OSError:
        pass
    return count


def _timeout_failure(
    check: str, limit: float, line: int | None, source: str, seen: _Watched, pid: int, out: Path
) -> Failure:
    """The time-out, with what was seen: much printing, a wait in real time, or a busy CPU."""
    head_en = f"The check ran for more than {limit:g} s of real time and was stopped."
    head_zh = f"检查运行超过了 {limit:g} 秒（真实时间），已被中止。"
    printed = _size(out) - seen.printed
    lines = _lines(out, seen.printed) if printed else 0
    busy = proctree.busy_seconds(pid)
    wall = max(time.monotonic() - seen.began, 1e-3)
    if printed >= PRINTED_MUCH[0] or lines >= PRINTED_MUCH[1]:
        size = f"{printed / (1 << 20):.1f} MiB" if printed >= 1 << 20 else f"{printed} B"
        en = (
            f"{head_en} In that time your code printed {lines:,} lines ({size}): writing that "
            "much takes real time of its own. Print less, and not on every turn of a loop."
        )
        zh = (
            f"{head_zh}这段时间里你的代码输出了 {lines:,} 行（{size}）：输出这么多内容本身就要"
            "花真实时间。少输出一些，别在循环的每一轮都输出。"
        )
    elif seen.busy is not None and busy is not None and busy - seen.busy < 0.25 * wall:
        en = (
            f"{head_en} Your code was waiting, not working (it ran for {busy - seen.busy:.1f} s "
            f"of those {wall:.1f} s): a real wait (time.sleep, a lock, input(), a queue, a "
            "subprocess) takes real time, while the port runs on a virtual clock. Wait on the "
            "port's clock instead: await go.sleep(seconds), a timer or a channel."
        )
        zh = (
            f"{head_zh}你的代码一直在等待，并没有在运算（{wall:.1f} 秒里只运行了 "
            f"{busy - seen.busy:.1f} 秒）：真实的等待（time.sleep、锁、input()、队列、子进程）"
            "花的是真实时间，而移植版运行在虚拟时钟上。请在虚拟时钟上等待：await "
            "go.sleep(秒数)、定时器或通道。"
        )
    else:
        busy_en = "Your code kept the CPU busy the whole time: " if busy is not None else ""
        busy_zh = "你的代码一直占着 CPU：" if busy is not None else ""
        en = (
            f"{head_en} {busy_en}the port runs on a virtual clock, and a loop that never awaits "
            "(or awaits only what is always ready) never lets the clock move, and never ends."
        )
        zh = (
            f"{head_zh}{busy_zh}移植版运行在虚拟时钟上，一个从不 await（或只 await 总是就绪的"
            "东西）的循环不会让时钟前进，也就永远不会结束。"
        )
    return Failure(check, "timeout", en, zh, line, source)


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


class _Started:
    """A check's process as the runner sees it: its id, its events, at the end its status."""

    def __init__(self, pid: int, lines: checkserver.Lines, close: Any, popen: Any = None) -> None:
        self.pid = pid
        self.lines = lines
        self.exitcode: int | None = None
        self._close = close
        self._popen = popen

    def alive(self) -> bool:
        if self._popen is not None:
            return self._popen.poll() is None
        return self.exitcode is None and not self.lines.ended

    def finish(self) -> None:
        """Wait (a few seconds at most) for the exit status, then let the process go."""
        if self._popen is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.exitcode = self._popen.wait(5)
        else:
            deadline = time.monotonic() + 5
            while self.exitcode is None and not self.lines.ended and time.monotonic() < deadline:
                event = self.lines.next(deadline - time.monotonic())
                if event is not None and event.get("event") == "exit":
                    self.exitcode = event.get("code")
        self._close()


def _fresh(request: dict[str, Any], work: Path, *, terminal: bool = False) -> _Started:
    """The check in a fresh ``python -m walkthrough.child`` (stdin: the learner's terminal while
    debugging, else nothing), its events on a pipe."""
    (work / "request.json").write_text(json.dumps(request), encoding="utf-8")
    read, write = os.pipe()
    try:
        popen = subprocess.Popen(
            [sys.executable, "-m", "walkthrough.child", str(work / "request.json"), str(write)],
            pass_fds=(write,),
            stdin=None if terminal else subprocess.DEVNULL,
        )
    finally:
        os.close(write)
    return _Started(popen.pid, checkserver.Lines(read), lambda: os.close(read), popen)


def _start(request: dict[str, Any], work: Path) -> _Started:
    """The check's process: forked by the check server, else a fresh interpreter."""
    opened = checkserver.open_check(request)
    if opened is None:
        return _fresh(request, work)
    sock, lines, pid = opened
    return _Started(pid, lines, sock.close)


def _run_isolated(
    exercise: Exercise, file: Path, result: CheckResult, limit: float, work: Path
) -> None:
    started = _start(_request(exercise, file, work), work)
    collect = _Collector(result)
    deadline = time.monotonic() + limit
    seen = _Watched.now(started.pid, work / "output")
    timed_out = False
    try:
        while not collect.done:
            event = started.lines.next(0.05)
            if event is not None:
                if event.get("event") == "exit":  # the server saw the process end
                    started.exitcode = event.get("code")
                    break
                collect.take(event)
                if event.get("event") in ("start", "checks"):
                    deadline = time.monotonic() + limit
                    seen = _Watched.now(started.pid, work / "output")
                continue
            if not started.alive():
                while (event := started.lines.next(0)) is not None:  # its last words
                    collect.take(event)
                break
            if time.monotonic() > deadline:
                timed_out = True
                break
        if timed_out:
            stack = work / "stack"
            if hasattr(signal, "SIGUSR1"):
                with contextlib.suppress(OSError):
                    os.kill(started.pid, signal.SIGUSR1)  # faulthandler writes every thread
                waited = time.monotonic() + 1.0
                while time.monotonic() < waited and not (stack.exists() and stack.stat().st_size):
                    time.sleep(0.02)
                time.sleep(0.05)
            line, source = _stack_line(stack, file)
            result.failed.append(
                _timeout_failure(
                    collect.running or "load",
                    limit,
                    line,
                    source,
                    seen,
                    started.pid,
                    work / "output",
                )
            )
    finally:
        _kill(started.pid)
        started.finish()
    if not collect.done and not timed_out:
        if not result.failed or collect.running is not None or collect.crash:
            result.failed.append(
                _ended_failure(collect.running or "load", started.exitcode, collect.crash)
            )
    result.output = _tail(work / "output")


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
    started = _fresh(_request(exercise, file, None), work, terminal=True)
    collect = _Collector(result)
    while not started.lines.ended:  # no time limit: the learner is at the debugger
        event = started.lines.next(3600)
        if event is not None:
            collect.take(event)
    started.finish()
    if not collect.done and (not result.failed or collect.running is not None or collect.crash):
        result.failed.append(
            _ended_failure(collect.running or "load", started.exitcode, collect.crash)
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
