"""Where a goroutine is: the line that started it, and the ``await`` it is blocked at. Ours.

Go prints both in a deadlock's report (``created by … at …``, ``chan receive``); the port reads
them off the Python frames of the goroutine's task.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from types import FrameType
from typing import Any

from .panic import WAIT_REASONS

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
_ASYNCIO_DIR = os.path.dirname(os.path.abspath(asyncio.__file__))


def _site(frame: FrameType) -> str:
    """`path:line in function` of a frame, the path relative to the working directory."""
    path = frame.f_code.co_filename
    with contextlib.suppress(ValueError):
        rel = os.path.relpath(path)
        if not rel.startswith(".."):
            path = rel
    return f"{path}:{frame.f_lineno} in {frame.f_code.co_name}"


def caller_site() -> str:
    """The site of the first caller outside this package."""
    f: FrameType | None = sys._getframe(1)
    while f is not None and os.path.dirname(os.path.abspath(f.f_code.co_filename)) == _PKG_DIR:
        f = f.f_back
    return "?" if f is None else _site(f).rsplit(" in ", 1)[0]


def _await_frames(task: asyncio.Task[Any]) -> list[FrameType]:
    """The frames of a suspended task, outermost first, following the `await` chain."""
    frames: list[FrameType] = []
    obj: Any = task.get_coro()
    while obj is not None:
        frame = getattr(obj, "cr_frame", None) or getattr(obj, "gi_frame", None)
        if frame is None:
            break
        frames.append(frame)
        obj = getattr(obj, "cr_await", None) or getattr(obj, "gi_yieldfrom", None)
    return frames


def blocked_at(task: asyncio.Task[Any]) -> tuple[str, str]:
    """(wait reason, site) of a suspended task: why it waits and the line of its `await`."""
    frames = _await_frames(task)
    if not frames:
        return ("not started", "?")
    reason = None
    for f in reversed(frames):
        reason = WAIT_REASONS.get(f.f_code)
        if reason is not None:
            h = f.f_locals.get("self")
            name = getattr(h, "name", None)
            if isinstance(name, str) and name:
                reason = f"{reason} on {name}"
            break
    if reason is None:
        reason = f"await in {frames[-1].f_code.co_qualname}"
    site = frames[-1]
    for f in reversed(frames):
        d = os.path.dirname(os.path.abspath(f.f_code.co_filename))
        if d != _PKG_DIR and d != _ASYNCIO_DIR:
            site = f
            break
    return (reason, _site(site))
