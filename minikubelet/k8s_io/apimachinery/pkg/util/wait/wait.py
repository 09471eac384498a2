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

from minikubelet.go import RecvChan, Timer, current_runtime, new_timer, now, recv, select, sleep

#: A channel that is never closed. Go: wait.NeverStop
NEVER_STOP: RecvChan[Any] | None = None


async def _call(f: Callable[[], Any]) -> None:
    result = f()
    # Most of kubelet's periodic functions return nothing: skip the slower awaitable check.
    if result is not None and inspect.isawaitable(result):
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
    if stop_ch is NEVER_STOP:
        await _backoff_forever(f, backoff, sliding)
        return
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


async def _backoff_forever(
    f: Callable[[], Any], backoff: Callable[[], Timer], sliding: bool
) -> None:
    """[`backoff_until`][] with a stop channel that never closes (Go's ``wait.NeverStop``).

    A receive from a nil channel is never ready, so Go's first select always takes its
    ``default`` and the second waits for the timer alone: the same steps, without building two
    selects per call. The volume manager's loops call ``f`` every 100 ms.
    """
    t: Timer | None = None
    while True:
        if not sliding:
            t = backoff()
        await _call(f)
        if sliding:
            t = backoff()
        assert t is not None
        await t.c.recv()


def jitter(duration: float, max_factor: float) -> float:
    """``duration`` plus a random part of up to ``max_factor × duration`` (seeded RNG).

    Go: staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go Jitter
    """
    if max_factor <= 0.0:
        max_factor = 1.0
    return duration + current_runtime().rng.random() * max_factor * duration


class WaitTimeoutError(Exception):
    """The error of a poll whose condition was not met in time (Go's ``ErrWaitTimeout``)."""

    def __init__(self) -> None:
        super().__init__("timed out waiting for the condition")


#: Go: ErrWaitTimeout
ErrWaitTimeout = WaitTimeoutError()


async def poll_immediate(
    interval: float, timeout: float, condition: Callable[[], tuple[bool, Exception | None]]
) -> Exception | None:
    """Ask ``condition`` now, then every ``interval``, until it is done, fails, or ``timeout``
    has passed (then ``ErrWaitTimeout``). Go returns the error; so does the port.

    Go: staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go PollImmediate

    Go's poller ticks on a ``time.Ticker`` and stops at ``time.After(timeout)``; a tick due at
    the very moment of the time-out races with it there. The port counts ticks from the start,
    so that 300 ms ticks do not drift by float rounding, and lets the time-out win that race.
    """
    done, err = condition()
    if err is not None:
        return err
    if done:
        return None
    start = float(now())
    ticks = 0
    while True:
        ticks += 1
        if ticks * interval >= timeout:
            await _sleep_until(start + timeout)
            return ErrWaitTimeout
        await _sleep_until(start + ticks * interval)
        done, err = condition()
        if err is not None:
            return err
        if done:
            return None


async def _sleep_until(t: float) -> None:
    delay = t - float(now())
    if delay > 0:
        await sleep(delay)
