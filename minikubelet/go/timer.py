"""One-shot timers and sleeping. Go: `time.NewTimer`, `time.After`, `time.AfterFunc`,
`time.Sleep`.

A timer is not a goroutine: like Go's runtime timers, it is a callback the event loop runs at the
due time (`loop.call_at`), which does a non-blocking send of the current time on the timer's
channel (buffer 1).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from . import tracing
from .chan import Chan, RecvChan
from .clock import Time
from .runtime import current_runtime
from .sites import caller_site


class Timer:
    """A single event: after `d` seconds the current time is sent on `c`.

    Go: `time.NewTimer(d)` (`t.C`, `t.Stop()`, `t.Reset(d)`). With `fn` it is Go's
    `time.AfterFunc(d, f)` instead: at the due time `fn(*args)` starts in its own goroutine and
    nothing is sent.
    """

    def __init__(
        self, d: float, fn: Callable[..., Any] | None = None, args: tuple[Any, ...] = ()
    ) -> None:
        rt = current_runtime()
        self._rt = rt
        self._loop = rt.loop
        self._ch: Chan[Time] = Chan(1, name="timer.C")
        #: The channel the time is delivered on. Go: `Timer.C` (a `<-chan Time`).
        self.c: RecvChan[Time] = self._ch.recv_only()
        self._fn = fn
        self._args = args
        self._site = caller_site() if fn is not None else None
        self._handle: asyncio.TimerHandle | None = None
        self._key = 0
        self._arm(d)

    def _arm(self, d: float) -> None:
        self._handle = self._loop.call_at(self._loop.time() + max(d, 0.0), self._fire)
        self._key = self._rt._add_timer(self)

    def _fire(self) -> None:
        self._handle = None
        self._rt._drop_timer(self._key)
        if self._fn is not None:
            self._rt.spawn(self._fn, self._args, None, self._site)
        else:
            self._ch._h.try_send(self._rt.now())  # dropped if the buffer is full, as in Go

    def stop(self) -> bool:
        """Stop the timer; True if that prevented it from firing. Go: `Timer.Stop`.

        Like Go, it does not drain `c`: a time sent before `stop` stays there.
        """
        if self._handle is None:
            return False
        self._handle.cancel()
        self._handle = None
        self._rt._drop_timer(self._key)
        return True

    def reset(self, d: float) -> bool:
        """Make the timer fire `d` seconds from now; True if it was still active.
        Go: `Timer.Reset`."""
        active = self.stop()
        self._arm(d)
        return active


def new_timer(d: float) -> Timer:
    """Go: `time.NewTimer(d)`."""
    return Timer(d)


def after(d: float) -> RecvChan[Time]:
    """A channel that receives the current time once, `d` seconds from now. Go: `time.After`."""
    return Timer(d).c


def after_func(d: float, fn: Callable[..., Any], *args: Any) -> Timer:
    """Start `fn(*args)` in its own goroutine after `d` seconds. Go: `time.AfterFunc`."""
    return Timer(d, fn, args)


async def sleep(d: float) -> None:
    """Block the goroutine for `d` seconds of the runtime's clock. Go: `time.Sleep`.

    Under the virtual clock nothing really sleeps: the clock jumps when every goroutine waits.
    As in Go, `d <= 0` returns at once (use `gosched()` to yield).
    """
    if d <= 0:
        return
    if tracing.tracer is not None:
        tracing.tracer.sleeps(d)
    await asyncio.sleep(d)
