"""Tickers. Go: `time.NewTicker(d)`, `ticker.C`, `ticker.Stop()`, `time.Tick(d)`.

A ticker sends the current time on `Ticker.c` every `d` seconds, on a fixed grid: the ticks
are due at `start + d`, `start + 2d`, … whatever happens to the reader. The channel has a
buffer of one. A tick that finds the buffer full is dropped, as Go drops ticks for a slow reader;
the reader then gets the oldest unread tick, and the next one on the grid after that.

Dropped ticks are not even scheduled: while the buffer is full the ticker has no timer pending and
resumes when the value is taken. Nobody can tell the difference, and it means a ticker nobody reads
neither keeps the virtual clock jumping forever nor hides a deadlock.
"""

from __future__ import annotations

import asyncio
import math

from .chan import Chan, RecvChan
from .clock import Time
from .panic import Panic
from .runtime import current_runtime


class Ticker:
    """Sends the time on `c` every `d` seconds. Go: `time.NewTicker(d)`.

    `d` must be positive (Go panics with `non-positive interval for NewTicker`).
    """

    def __init__(self, d: float) -> None:
        if not d > 0:
            raise Panic("non-positive interval for NewTicker")
        rt = current_runtime()
        self._rt = rt
        self._loop = rt.loop
        self._ch: Chan[Time] = Chan(1, name="ticker.C")
        self._ch._h.on_take = self._on_take
        #: The channel the ticks are delivered on. Go: `Ticker.C` (a `<-chan Time`).
        self.c: RecvChan[Time] = self._ch.recv_only()
        self._handle: asyncio.TimerHandle | None = None
        self._k = 0  # the number of the next tick on the grid
        self._parked = False
        self._key = 0
        self._start(d)

    def _start(self, d: float) -> None:
        self._period = d
        self._origin = self._loop.time()
        self._key = self._rt._add_timer(self)
        self._arm()

    def _arm(self, after: int | None = None) -> None:
        """Schedule the next tick on the grid: the one after tick number `after`, or else the
        first one strictly after now."""
        if after is not None:
            k = after + 1
        else:
            now = self._loop.time()
            k = math.floor((now - self._origin) / self._period) + 1
            if self._origin + k * self._period <= now:
                k += 1
        self._k = k
        self._handle = self._loop.call_at(self._origin + k * self._period, self._fire)

    def _fire(self) -> None:
        self._handle = None
        if self._ch._h.try_send(self._rt.now()):
            # Count on the grid from the tick that fired, not from the clock: no tick twice.
            self._arm(after=self._k)
        else:
            self._parked = True  # buffer full: drop this tick and the next ones until it is read

    def _on_take(self) -> None:
        if self._parked:
            self._parked = False
            self._arm()

    def stop(self) -> None:
        """Stop the ticks. Go: `Ticker.Stop`. The channel is not closed; an unread tick stays."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self._parked = False
        self._rt._drop_timer(self._key)

    def reset(self, d: float) -> None:
        """Stop, then tick every `d` seconds from now. Go: `Ticker.Reset`."""
        if not d > 0:
            raise Panic("non-positive interval for Ticker.Reset")
        self.stop()
        self._start(d)


def new_ticker(d: float) -> Ticker:
    """Go: `time.NewTicker(d)`."""
    return Ticker(d)


def tick(d: float) -> RecvChan[Time]:
    """The channel of a ticker that is never stopped. Go: `time.Tick(d)`."""
    return Ticker(d).c
