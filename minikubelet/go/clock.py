"""Clocks, time values and durations. Go: package `time` (`time.Now`, `time.Since`,
`time.Time`, `time.Second`).

A duration is a `float` number of seconds, so `30 * Second` is `30.0` and the port reads
like Go (`1 * Second`, `100 * Millisecond`). A point in time is a `Time`: a `float`
of seconds since the Unix epoch which, like Go's `time.Time`, also carries a monotonic reading,
used when two times are subtracted (`t2 - t1`, `since()`) so that durations stay exact.

Two clocks satisfy the `Clock` protocol: `RealClock` (the machine's clocks) and
`VirtualClock`, which starts at a fixed epoch and only moves when the runtime advances it,
i.e. when every goroutine is blocked and the next timer is due. Nothing ever really sleeps under
the virtual clock.
"""

from __future__ import annotations

import time as _time
from datetime import UTC, datetime
from typing import Protocol, runtime_checkable

#: Go: `time.Nanosecond`.
Nanosecond: float = 1e-9
#: Go: `time.Microsecond`.
Microsecond: float = 1e-6
#: Go: `time.Millisecond`.
Millisecond: float = 1e-3
#: Go: `time.Second`.
Second: float = 1.0
#: Go: `time.Minute`.
Minute: float = 60.0
#: Go: `time.Hour`.
Hour: float = 3600.0

#: Where the virtual clock starts: 2021-07-15T00:00:00Z, the day Kubernetes v1.21.3 was released.
#: Fixed, so that the timestamps in a virtual run's log are the same on every run.
VIRTUAL_EPOCH: float = datetime(2021, 7, 15, tzinfo=UTC).timestamp()


@runtime_checkable
class Clock(Protocol):
    """What the runtime needs from a clock.

    `monotonic()` is the time base of the event loop (timers, tickers, `sleep`); `now()` is
    the wall-clock time in seconds since the Unix epoch (Go: `time.Now()`). `virtual` tells
    the runtime whether it may advance the clock itself instead of waiting.
    """

    @property
    def virtual(self) -> bool:
        """True when the runtime moves this clock forward itself (no real waiting)."""
        ...

    def now(self) -> float:
        """Wall-clock time, seconds since the Unix epoch."""
        ...

    def monotonic(self) -> float:
        """A clock that never goes back; the event loop's `time()`."""
        ...


class RealClock:
    """The machine's clocks: `time.time()` and `time.monotonic()`."""

    virtual = False

    def now(self) -> float:
        """Go: `time.Now()`."""
        return _time.time()

    def monotonic(self) -> float:
        """The monotonic clock asyncio uses too."""
        return _time.monotonic()

    def __repr__(self) -> str:
        return "RealClock()"


class VirtualClock:
    """A clock that stands still until the runtime advances it.

    It starts at `epoch` (default `VIRTUAL_EPOCH`); `monotonic()` starts at 0. The runtime
    calls `advance()` when no goroutine can run and a timer is pending, jumping straight to
    that timer: a run of 30 virtual seconds takes as long as its computation, not 30 seconds.
    """

    virtual = True

    def __init__(self, epoch: float = VIRTUAL_EPOCH) -> None:
        self.epoch = epoch
        self._t = 0.0

    def now(self) -> float:
        """Go: `time.Now()` — the epoch plus the virtual time elapsed."""
        return self.epoch + self._t

    def monotonic(self) -> float:
        """Virtual seconds since the clock was made."""
        return self._t

    def advance(self, d: float) -> None:
        """Move the clock forward by `d` seconds (never backwards)."""
        if d < 0:
            raise ValueError(f"a clock cannot go back (advance by {d})")
        self._t += d

    def advance_to(self, t: float) -> None:
        """Move the clock to exactly `t` (a timer's due time), never backwards.

        Adding the difference instead (`advance(t - now)`) can land a hair before `t` in
        floating point, and a ticker re-armed there would tick twice at the same instant.
        """
        if t < self._t:
            raise ValueError(f"a clock cannot go back (from {self._t} to {t})")
        self._t = t

    def __repr__(self) -> str:
        return f"VirtualClock(t={self._t!r})"


class Time(float):
    """An instant: a `float` of seconds since the Unix epoch that also carries a monotonic
    reading. Go: `time.Time`, which has both readings too.

    Anywhere a number is expected it is the wall-clock time (`datetime.fromtimestamp(t)`,
    `t + 5`, `t < deadline`). Between two `Time`s, subtraction and `sub()`,
    `before()`, `after()`, `equal()` use the monotonic readings, as Go does, so
    `since(start)` is exact under the virtual clock: a float near 1.6e9 only has about
    0.2 µs of resolution, the virtual monotonic reading (seconds since the run began) far better.
    `str(t)` is RFC 3339 in UTC.
    """

    __slots__ = ("mono",)
    mono: float

    def __new__(cls, wall: float, mono: float) -> Time:
        self = super().__new__(cls, wall)
        self.mono = mono
        return self

    @property
    def wall(self) -> float:
        """Seconds since the Unix epoch, as a plain float."""
        return float(self)

    def sub(self, u: Time) -> float:
        """The duration `self - u` in seconds. Go: `t.Sub(u)`."""
        return self.mono - u.mono

    def add(self, d: float) -> Time:
        """The time `d` seconds later. Go: `t.Add(d)`."""
        return Time(float(self) + d, self.mono + d)

    def before(self, u: Time) -> bool:
        """Go: `t.Before(u)`."""
        return self.mono < u.mono

    def after(self, u: Time) -> bool:
        """Go: `t.After(u)`."""
        return self.mono > u.mono

    def equal(self, u: Time) -> bool:
        """Go: `t.Equal(u)`."""
        return self.mono == u.mono

    def unix(self) -> float:
        """Seconds since the Unix epoch. Go: `t.Unix()` (with the fraction kept)."""
        return float(self)

    def __sub__(self, other: float) -> float:
        if isinstance(other, Time):
            return self.mono - other.mono
        return Time(float(self) - other, self.mono - other)

    def __add__(self, d: float) -> Time:
        return Time(float(self) + d, self.mono + d)

    __radd__ = __add__

    def __str__(self) -> str:
        return format_time(self)

    def __repr__(self) -> str:
        return f"Time({format_time(self)!r}, mono={self.mono!r})"

    def __reduce__(self) -> tuple[type[Time], tuple[float, float]]:
        return (Time, (float(self), self.mono))


def format_time(t: float | Time) -> str:
    """`t` as RFC 3339 UTC with microseconds (`2021-07-15T00:00:01.500000Z`), for logs."""
    return datetime.fromtimestamp(float(t), UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def time_string(t: float | None) -> str:
    """``t`` as Go's ``time.Time.String`` prints it: ``2021-07-15 00:00:01.5 +0000 UTC``.

    ``None`` is Go's zero time, ``0001-01-01 00:00:00 +0000 UTC``. The fraction of a second
    loses its trailing zeros, as Go's ``.999999999`` layout does; the port's times carry
    microseconds, not Go's nanoseconds. The zone is UTC and there is no monotonic reading
    (``m=+…``): how kubelet prints a time it read from the API server or the container runtime on a
    node whose local zone is UTC.
    """
    if t is None:
        return "0001-01-01 00:00:00 +0000 UTC"
    seconds, micros = divmod(round(float(t) * 1_000_000), 1_000_000)
    moment = datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M:%S")
    fraction = f".{micros:06d}".rstrip("0").rstrip(".")
    return f"{moment}{fraction} +0000 UTC"


def now() -> Time:
    """The current time on the running runtime's clock. Go: `time.Now()`."""
    return _runtime.current_runtime().now()


def since(t: Time) -> float:
    """Seconds elapsed since `t`. Go: `time.Since(t)`."""
    return now().sub(t)


# The runtime module imports this one, so it is bound once both exist, not on each call of
# `now()` (an import statement in a function costs more than the rest of `now()`).
from . import runtime as _runtime  # noqa: E402
