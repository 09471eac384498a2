"""wait.Until and JitterUntil: when ``f`` runs, with the one timer they reset between calls."""

from __future__ import annotations

import itertools

from minikubelet import go
from minikubelet.k8s_io.apimachinery.pkg.util.wait import wait


def calls_of(run_f: object, period: float, jitter_factor: float, sliding: bool) -> list[float]:
    """Virtual times at which ``wait.JitterUntil`` started ``run_f`` in 9.9 s."""
    times: list[float] = []

    async def f() -> None:
        times.append(round(go.now().mono, 6))
        await go.sleep(run_f)  # type: ignore[arg-type]

    async def main() -> None:
        stop = go.Chan[None]()
        go.go(wait.jitter_until, f, period, jitter_factor, sliding, stop)
        await go.sleep(9.9)
        stop.close()

    go.run(main)
    return times


def test_sliding_waits_a_period_after_each_call_ends() -> None:
    assert calls_of(0.5, 2, 0.0, True) == [0, 2.5, 5.0, 7.5]


def test_not_sliding_counts_the_period_from_each_call_start() -> None:
    assert calls_of(0.5, 2, 0.0, False) == [0, 2, 4, 6, 8]


def test_a_call_longer_than_the_period_is_followed_at_once() -> None:
    assert calls_of(3, 2, 0.0, False) == [0, 3, 6, 9]


def test_jitter_lengthens_each_wait_by_up_to_the_factor() -> None:
    times = calls_of(0, 1, 0.5, True)
    waits = [b - a for a, b in itertools.pairwise(times)]
    assert len(times) >= 7
    assert all(1 <= w <= 1.5 for w in waits)
    assert len(set(waits)) > 1  # each wait drawn anew, not the first one reused


def test_until_stops_when_the_stop_channel_closes() -> None:
    calls: list[float] = []

    async def main() -> None:
        stop = go.Chan[None]()
        go.go(wait.until, lambda: calls.append(go.now().mono), 1, stop)
        await go.sleep(2.5)
        stop.close()
        await go.sleep(5)

    go.run(main)
    assert calls == [0, 1, 2]
