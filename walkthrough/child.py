"""What runs in the process of one check: the learner's code goes into the port, the checks run.

:mod:`walkthrough.checker` starts one process per check (forked from the server that has the
port imported already, :mod:`walkthrough.checkserver`, or a fresh ``python -m walkthrough.child``).
Here that process puts each function of the learner's file in place of the port's (the port is patched
in this process only, which ends with the check), runs the exercise's ``check_*`` functions in
the order they are written, and sends one event per step to the runner::

    {"event": "checks", "names": [...]}   the checks, once the learner's file has loaded
    {"event": "start", "name": ...}       a check begins (the runner's time limit restarts)
    {"event": "pass", "name": ...}
    {"event": "fail", "failure": {...}}   a Failure as a dict (see walkthrough.checker)
    {"event": "load", "failure": {...}}   the learner's file does not load or lacks a function
    {"event": "done"}

The runner decides what an early end means (a time-out, a signal, ``os._exit``): this process
only reports what it saw. It ends with ``os._exit``, so that a thread the learner left running
cannot keep it alive.
"""

from __future__ import annotations

import bdb
import contextlib
import faulthandler
import importlib
import importlib.util
import io
import itertools
import json
import os
import signal
import sys
import traceback
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from minikubelet.base.i18n import in_language
from minikubelet.k8s_io.klog.v2 import klog
from walkthrough import proctree
from walkthrough.expect import Unmet
from walkthrough.fixtures import replace_everywhere  # a forked check has the fixtures loaded

_exit = os._exit  # the learner's code may replace os._exit; this process still ends
_counter = itertools.count(1)
Send = Callable[[dict[str, Any]], None]


def load_module(path: Path, prefix: str) -> types.ModuleType:
    """Import the file at ``path`` as a new module."""
    name = f"_walkthrough_{prefix}_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and typing look modules up by name
    spec.loader.exec_module(module)
    return module


class Missing(Exception):
    """The learner's file lacks a function the exercise puts into the port."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def _resolve(root: Any, dotted: list[str], what: str) -> Any:
    obj = root
    for part in dotted:
        obj = vars(obj).get(part) if isinstance(obj, type | types.ModuleType) else None
        if obj is None:
            raise Missing(what)
    return obj


def install(learner: types.ModuleType, targets: list[str]) -> None:
    """Put each of the learner's functions in place of the port's, everywhere it is referenced."""
    for target in targets:
        module_name, _, qualname = target.partition(":")
        parts = qualname.split(".")
        port_module = importlib.import_module(module_name)
        new = _resolve(learner, parts, qualname)
        if len(parts) > 1:  # a method: the port's class gets the learner's function
            setattr(_resolve(port_module, parts[:-1], qualname), parts[-1], new)
            continue
        replace_everywhere(vars(port_module)[parts[0]], new)


def where(err: BaseException, file: Path) -> tuple[int | None, str]:
    """The deepest line of ``file`` in the error's traceback, and its text."""
    found: int | None = None
    text = ""
    target = str(file.resolve())
    for frame in traceback.extract_tb(err.__traceback__):
        if frame.lineno is not None and _same(frame.filename, target):
            found, text = frame.lineno, (frame.line or "").strip()
    if found is None and isinstance(err, SyntaxError) and err.lineno is not None:
        if err.filename and _same(err.filename, target):
            found, text = err.lineno, (err.text or "").strip()
    if found is None and "DeadlockError" in type(err).__name__:
        for blocked in getattr(err, "blocked", []):  # "path:line in function"
            path, _, rest = str(blocked.site).rpartition(":")
            line = rest.split(" ", 1)[0]
            if line.isdigit() and _same(path, target):
                found = int(line)
                text = _line_of(file, found)
    return found, text


def _same(path: str, target: str) -> bool:
    try:
        return str(Path(path).resolve()) == target
    except (OSError, ValueError):
        return False


def _line_of(file: Path, number: int) -> str:
    try:
        return file.read_text(encoding="utf-8").splitlines()[number - 1].strip()
    except (OSError, IndexError, UnicodeDecodeError):
        return ""


def summary(err: BaseException, lang: str = "en") -> str:
    """``Type: message`` of an error, without the notes the Go runtime adds; the message in
    ``lang`` where the error has it in both languages (a manifest's validation errors)."""
    message = in_language(err, lang).strip().splitlines()
    first = message[0] if message else ""
    if len(first) > 300:
        first = first[:297] + "..."
    return f"{type(err).__name__}: {first}" if first else type(err).__name__


def error_failure(check: str, err: BaseException, file: Path) -> dict[str, Any]:
    """A failure for an error raised while a check ran (or while the file loaded)."""
    line, source = where(err, file)
    said = summary(err)
    if "DeadlockError" in type(err).__name__:
        sites = "\n".join(
            f"    goroutine {b.id} {b.name!r} [{b.reason}] at {b.site}"
            for b in getattr(err, "blocked", [])[:4]
        )
        en = (
            "Every goroutine is blocked and nothing can wake one (Go: all goroutines are asleep "
            f"- deadlock!):\n{sites}\nDoes your code wait on a channel that nobody sends to, or "
            "forget to send?"
        )
        zh = (
            "所有 goroutine 都阻塞了，也没有任何东西能唤醒它们（Go 会报 all goroutines are asleep "
            f"- deadlock!）：\n{sites}\n你的代码是不是在等一个没有人发送的通道，或者忘了发送？"
        )
    elif isinstance(err, SystemExit):
        en = f"Your code called sys.exit({err.code!r}): a check cannot go on after that."
        zh = f"你的代码调用了 sys.exit({err.code!r})：检查无法继续。"
    elif isinstance(err, KeyboardInterrupt):
        en = "Your code raised KeyboardInterrupt: a check cannot go on after that."
        zh = "你的代码抛出了 KeyboardInterrupt：检查无法继续。"
    elif isinstance(err, MemoryError):
        en = "Your code ran out of the memory a check may use (MemoryError)."
        zh = "你的代码用完了一次检查允许使用的内存（MemoryError）。"
    else:
        en = f"Your code raised {said}"
        zh = f"你的代码抛出了异常：{summary(err, 'zh')}"
    return {"check": check, "kind": "error", "en": en, "zh": zh, "line": line, "source": source}


def load_failure(err: BaseException, file: Path) -> dict[str, Any]:
    """A failure for a file that does not load, or that lacks a function the exercise needs."""
    if isinstance(err, Missing):
        return {
            "check": "load",
            "kind": "load",
            "en": f"Your file no longer defines {err.what}: the checks run that function. "
            "(`python -m walkthrough reset` gives you the shipped file back.)",
            "zh": f"你的文件里已经没有 {err.what} 了：检查运行的正是这个函数。"
            "（`python -m walkthrough reset` 可以恢复发布时的文件。）",
            "line": None,
            "source": "",
        }
    failure = error_failure("load", err, file)
    failure["kind"] = "load"
    failure["en"] = f"Your file does not load: {summary(err)}"
    failure["zh"] = f"你的文件无法加载：{summary(err, 'zh')}"
    return failure


def run(request: dict[str, Any], send: Send) -> None:
    """Load the learner's file into the port, then run each check and report it."""
    klog.configure(verbosity=0, out=io.StringIO())
    sys.dont_write_bytecode = True  # no __pycache__ beside the learner's file
    file = Path(request["file"])
    try:
        learner = load_module(file, "learner")
        install(learner, request["port"])
    except BaseException as err:
        send({"event": "load", "failure": load_failure(err, file)})
        return
    checks = load_module(Path(request["checks"]), "checks")
    names = [n for n, v in vars(checks).items() if n.startswith("check_") and callable(v)]
    send({"event": "checks", "names": names})
    for name in names:
        send({"event": "start", "name": name})
        try:
            getattr(checks, name)()
        except Unmet as unmet:
            failure = {"check": name, "kind": "unmet", "en": unmet.en, "zh": unmet.zh}
            send({"event": "fail", "failure": {**failure, "line": None, "source": ""}})
        except BaseException as err:
            if isinstance(err, bdb.BdbQuit):  # the learner quit the debugger: stop here
                send({"event": "fail", "failure": quit_failure(name)})
                break
            send({"event": "fail", "failure": error_failure(name, err, file)})
        else:
            send({"event": "pass", "name": name})
    send({"event": "done"})


def quit_failure(check: str) -> dict[str, Any]:
    """The learner typed quit in pdb during ``check``: the check stops there."""
    return {
        "check": check,
        "kind": "quit",
        "en": "You quit the debugger: the check stopped there.",
        "zh": "你退出了调试器：检查在这里停止了。",
        "line": None,
        "source": "",
    }


def isolate(request: dict[str, Any]) -> None:
    """Make this process the check's own: its process group, limits, output and stack dump."""
    if request.get("own_group") and hasattr(os, "setsid"):
        with contextlib.suppress(OSError):
            os.setsid()  # the runner ends the whole group, children included
    proctree.become_subreaper()  # a child that leaves the group still stays below this process
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        extra = int(request.get("memory_mb") or 0)
        if extra > 0:
            with open("/proc/self/statm", encoding="ascii") as statm:
                now = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            limit = now + extra * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        output_mb = int(request.get("output_mb") or 0)
        if output_mb > 0:
            size = output_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    except (ImportError, OSError, ValueError):
        pass  # not on this system: the time limit still holds
    if request.get("capture"):
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        out = os.open(request["capture"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(out, 1)
        os.dup2(out, 2)
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115
    if request.get("dump") and hasattr(signal, "SIGUSR1"):
        dump = open(request["dump"], "w", encoding="utf-8")  # noqa: SIM115
        faulthandler.register(signal.SIGUSR1, file=dump, all_threads=True)


def serve_check(request: dict[str, Any], send: Send) -> None:
    """Make this process the check's, run the check, report each step, and end the process."""
    try:
        isolate(request)
        run(request, send)
    except BaseException as err:  # the runner's own fault: say so rather than hang
        with contextlib.suppress(BaseException):
            send({"event": "crash", "error": summary(err)})
    finally:
        _finish()


def _finish() -> None:
    """End the check's process: flush, end every process the learner's code left, exit."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        pass
    with contextlib.suppress(BaseException):
        proctree.kill_descendants(os.getpid())
    _exit(0)


def main() -> None:
    """``python -m walkthrough.child REQUEST.json FD``: a check with the learner's terminal."""
    request = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    fd = int(sys.argv[2])

    def send(event: dict[str, Any]) -> None:
        os.write(fd, (json.dumps(event) + "\n").encode())

    serve_check(request, send)


if __name__ == "__main__":
    main()
