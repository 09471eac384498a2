"""Ours: `until` as a deadline under the real clock, even inside one long step.

The runtime looks at its deadline between loop iterations, and one iteration can run for
seconds (thousands of manifests arriving at once). A real-time alarm raises
[`UntilPassed`][] wherever the main thread is, as Ctrl+C raises KeyboardInterrupt; asyncio lets
a SystemExit out of any step at once, and the runtime then stops every goroutine.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType


class UntilPassed(SystemExit):
    """The alarm at `until` went off. Ours."""


@contextlib.contextmanager
def alarm_at(until: float | None, stopping: Callable[[], bool]) -> Iterator[None]:
    """Raise [`UntilPassed`][] after `until` seconds of real time, unless already `stopping()`.

    Nothing is armed without `until`, or off the main thread (signals reach only the main
    thread; a run in another thread keeps the loop's own check).
    """
    if until is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        if not stopping():
            raise UntilPassed

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, max(until, 1e-6))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
