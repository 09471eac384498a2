"""Recording a command of the port: ``minikubelet …`` or a chapter example, in-process."""

from __future__ import annotations

import contextlib
import importlib
import io
import re
import shlex
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from minikubelet.sim.trace import MAX_STEPS, RecordingError, recording
from tools.site.runner import working_directory
from tools.xref import Index
from tools.xref.paths import REPO_ROOT

from .resolve import resolve

EXAMPLE = re.compile(r"^walkthrough/(ch\d\d)/example\.py$")


class TraceError(ValueError):
    """A command that cannot be recorded; the message says which and why."""


def _entry(argv: list[str]) -> Callable[[], Any]:
    """The function that runs ``argv`` in-process."""
    if argv and argv[0] == "minikubelet":
        from minikubelet.sim import cli

        return lambda: cli.main(argv[1:], out=io.StringIO())
    if len(argv) >= 2 and argv[0] == "python" and (example := EXAMPLE.match(argv[1])):
        module = importlib.import_module(f"walkthrough.{example.group(1)}.example")
        return lambda: module.main(argv[2:])
    raise TraceError(
        "only 'minikubelet …' and 'python walkthrough/chNN/example.py …' can be traced, "
        f"not {shlex.join(argv)!r}"
    )


def record(
    command: str,
    *,
    root: Path = REPO_ROOT,
    index: Index | None = None,
    max_steps: int = MAX_STEPS,
) -> dict[str, Any]:
    """Run ``command`` from ``root`` under a recording; the trace, resolved to Go."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise TraceError(f"cannot parse {command!r}: {exc}") from None
    entry = _entry(argv)
    out, err = io.StringIO(), io.StringIO()
    result: list[Any] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            with recording(max_steps) as rec:
                code = entry()
            result.extend([code, rec])
        except SystemExit as exc:  # argparse errors
            result.extend([exc.code if isinstance(exc.code, int) else 2, None])
        except (RecordingError, Exception) as exc:
            failure.append(exc)

    with (
        working_directory(root),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        # In a thread of its own: the port runs its own event loop, and the caller may be
        # running one (a browser test, a notebook).
        thread = threading.Thread(target=run, name="trace")
        thread.start()
        thread.join()
    if failure:
        raise TraceError(f"{command!r} failed: {failure[0]!r}\n{err.getvalue()}".strip())
    code, rec = result
    if code or rec is None:
        raise TraceError(f"{command!r} exited with {code}:\n{err.getvalue().strip()}")
    trace = rec.trace(command)
    if not trace["steps"]:
        raise TraceError(f"{command!r} recorded nothing: did it run the port?")
    return resolve(trace, index, root)
