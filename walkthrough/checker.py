"""Run an exercise's tests against a file, in this process, and keep the first failure.

No pytest here: a check loads the learner's file as a fresh module, calls each ``test_*``
function of the exercise's ``test_exercise.py`` in the order they are written, passing that
module, and records what happened. That takes a few milliseconds once the port is imported,
and needs nothing beyond the port's own dependencies.

A test fails in one of four ways, each told in both languages: an expectation is not met
(:class:`~walkthrough.expect.Unmet`), the learner's code raises, the file does not even load,
or the check runs out of time (a loop that never awaits).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import itertools
import signal
import sys
import threading
import time
import traceback
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from minikubelet.sim import klog
from walkthrough.catalog import Exercise
from walkthrough.expect import Unmet

#: A check that takes longer than this is stopped (seconds of real time).
TIME_LIMIT = 20.0

_counter = itertools.count(1)


class CheckTimeout(Exception):
    """Raised inside a check that ran out of time."""


@dataclass
class Failure:
    """Why one test failed, in both languages, and where in the learner's file if known."""

    test: str
    kind: str  # "unmet", "error", "load", "timeout"
    en: str
    zh: str
    location: tuple[str, int] | None = None
    source_line: str = ""

    def message(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass
class CheckResult:
    """The outcome of one check."""

    exercise: Exercise
    file: Path
    passed: list[str] = field(default_factory=list)
    failed: list[Failure] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failed and bool(self.passed)

    @property
    def total(self) -> int:
        return len(self.passed) + len(self.failed)

    @property
    def first_failure(self) -> Failure | None:
        return self.failed[0] if self.failed else None


def load_module(path: Path, prefix: str) -> types.ModuleType:
    """Import the file at ``path`` as a new module (never cached, never reused)."""
    name = f"_walkthrough_{prefix}_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and typing look modules up by name
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def tests_of(module: types.ModuleType) -> list[tuple[str, Callable[..., object]]]:
    """The ``test_*`` functions of a test module, in the order they are written."""
    return [
        (name, value)
        for name, value in vars(module).items()
        if name.startswith("test_") and callable(value)
    ]


@contextlib.contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`CheckTimeout` after ``seconds`` (main thread on POSIX; else no limit)."""
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def on_alarm(signum: int, frame: object) -> None:
        raise CheckTimeout

    previous = signal.signal(signal.SIGALRM, on_alarm)
    assert seconds is not None
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _where(err: BaseException, file: Path) -> tuple[tuple[str, int] | None, str]:
    """The deepest line of ``file`` in the error's traceback, and its text."""
    found: tuple[str, int] | None = None
    text = ""
    target = str(file.resolve())
    for frame in traceback.extract_tb(err.__traceback__):
        if str(Path(frame.filename).resolve()) == target and frame.lineno is not None:
            found = (file.name, frame.lineno)
            text = (frame.line or "").strip()
    if found is None and isinstance(err, SyntaxError) and err.lineno is not None:
        found = (file.name, err.lineno)
        text = (err.text or "").strip()
    return found, text


def _error_failure(test: str, err: BaseException, file: Path) -> Failure:
    location, line = _where(err, file)
    if isinstance(err, CheckTimeout):
        return Failure(
            test,
            "timeout",
            f"The check ran for more than {TIME_LIMIT:.0f} s and was stopped: is there a loop "
            "that never awaits (and so never lets the virtual clock move)?",
            f"检查运行超过 {TIME_LIMIT:.0f} 秒，已被中止：是不是有一个从不 await 的循环"
            "（这样虚拟时钟永远走不动）？",
            location,
            line,
        )
    summary = traceback.format_exception_only(type(err), err)[-1].strip()
    if "DeadlockError" in type(err).__name__:
        summary = str(err).splitlines()[0]
        return Failure(
            test,
            "error",
            f"Every goroutine is blocked: {summary}\n    Does your code wait on a channel "
            "that nobody sends to?",
            f"所有 goroutine 都阻塞了：{summary}\n    你的代码是不是在等一个没有人发送的通道？",
            location,
            line,
        )
    return Failure(
        test,
        "error",
        f"Your code raised {summary}",
        f"你的代码抛出了异常：{summary}",
        location,
        line,
    )


def debugging(file: Path) -> bool:
    """Whether the learner is debugging: a debugger runs, or the file calls one."""
    if sys.gettrace() is not None:
        return True
    try:
        source = file.read_text(encoding="utf-8")
    except OSError:
        return False
    return "breakpoint(" in source or "set_trace(" in source


def check(exercise: Exercise, file: Path | None = None) -> CheckResult:
    """Run ``exercise``'s tests against ``file`` (default: the learner's ``exercise.py``).

    The time limit is lifted while the learner debugs (see :func:`debugging`).
    """
    file = Path(file) if file is not None else exercise.exercise_file
    result = CheckResult(exercise, file)
    limit = None if debugging(file) else TIME_LIMIT
    start = time.perf_counter()
    log = io.StringIO()
    klog.configure(verbosity=0, out=log)  # the tests capture what they read; the rest is noise
    loaded: list[str] = []
    try:
        with _time_limit(limit):
            try:
                learner = load_module(file, "learner")
                loaded.append(learner.__name__)
            except BaseException as err:
                if isinstance(err, KeyboardInterrupt):
                    raise
                location, line = _where(err, file)
                summary = traceback.format_exception_only(type(err), err)[-1].strip()
                result.failed.append(
                    Failure(
                        "load",
                        "load",
                        f"Your file does not load: {summary}",
                        f"你的文件无法加载：{summary}",
                        location,
                        line,
                    )
                )
                return result
            tests = load_module(exercise.test_file, "tests")
            loaded.append(tests.__name__)
            for name, fn in tests_of(tests):
                try:
                    fn(learner)
                except Unmet as unmet:
                    result.failed.append(Failure(name, "unmet", unmet.en, unmet.zh))
                except KeyboardInterrupt:
                    raise
                except BaseException as err:
                    result.failed.append(_error_failure(name, err, file))
                    if isinstance(err, CheckTimeout):
                        break
                else:
                    result.passed.append(name)
    except CheckTimeout as err:  # the limit struck outside a test
        result.failed.append(_error_failure("load", err, file))
    finally:
        klog.configure(verbosity=0, out=None)
        for name in loaded:
            sys.modules.pop(name, None)
        result.seconds = time.perf_counter() - start
    return result
