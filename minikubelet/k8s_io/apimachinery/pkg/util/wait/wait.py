"""Run a function periodically, and jitter durations.

Go: staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go

kubelet starts most of its background work with ``go wait.Until(f, period, stopCh)``. Here ``f``
may be a plain function or a coroutine function; it runs in the calling goroutine, exactly as in
Go, so start it with ``go(until, f, period, stop_ch)``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from minikubelet.go import RecvChan, Timer, current_runtime, new_timer, recv, select

#: A channel that is never closed. Go: wait.NeverStop
NEVER_STOP: RecvChan[Any] | None = None


async def _call(f: Callable[[], Any]) -> None:
    result = f()
    if inspect.isawaitable(result):
        await result


async def forever(f: Callable[[], Any], period: float) -> None:
    """Go: staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go Forever"""
    await until(f, period, NEVER_STOP)


async def until(f: Callable[[], Any], period: float, stop_ch: RecvChan[Any] | None) -> None:
    """Call ``f`` every ``period`` (measured from the end of each call) until ``stop_ch`` closes.

    Go: staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go Until
    """
    await jitter_until(f, period, 0.0, True, stop_ch)


async def jitter_until(
    f: Callable[[], Any],
    period: float,
    jitter_factor: float,
    sliding: bool,
    stop_ch: RecvChan[Any] | None,
) -> None:
    """Call ``f`` every ``period``, jittered by up to ``jitter_factor × period``.

    Go: staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go JitterUntil

    Go passes a jittered BackoffManager; here it is the function that makes its next timer.
    """

    def backoff() -> Timer:
        return new_timer(jitter(period, jitter_factor) if jitter_factor > 0.0 else period)

    await backoff_until(f, backoff, sliding, stop_ch)


async def backoff_until(
    f: Callable[[], Any],
    backoff: Callable[[], Timer],
    sliding: bool,
    stop_ch: RecvChan[Any] | None,
) -> None:
    """Call ``f`` again after each timer ``backoff()`` gives, until ``stop_ch`` closes.

    Go: staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go BackoffUntil

    With ``sliding`` the wait starts when ``f`` returns, else when it is called.
    """
    t: Timer | None = None
    while True:
        match await select(recv(stop_ch), default=True):
            # Go: case <-stopCh:
            case 0, _:
                return
            # Go: default:
            case _:
                pass

        if not sliding:
            t = backoff()

        # Go recovers from a panic in f here (runtime.HandleCrash), only to log and re-panic.
        await _call(f)

        if sliding:
            t = backoff()

        assert t is not None
        # There is no priority in select: stopCh is checked again at the top of the loop.
        match await select(recv(stop_ch), recv(t.c)):
            # Go: case <-stopCh:
            case 0, _:
                return
            # Go: case <-t.C():
            case _:
                pass


def jitter(duration: float, max_factor: float) -> float:
    """``duration`` plus a random part of up to ``max_factor × duration`` (seeded RNG).

    Go: staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go Jitter
    """
    if max_factor <= 0.0:
        max_factor = 1.0
    return duration + current_runtime().rng.random() * max_factor * duration
