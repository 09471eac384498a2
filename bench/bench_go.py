"""Benchmark of minikubelet.go: channel and select operations per second, virtual and real clock.

Run: ``python bench/bench_go.py [--n 100000]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from minikubelet import go
from minikubelet.go import Chan, recv, select


async def _producer(ch: Chan[int], n: int) -> None:
    for i in range(n):
        await ch.send(i)
    ch.close()


def unbuffered(n: int) -> Callable[[], Awaitable[None]]:
    """n send/recv pairs on an unbuffered channel: every one a rendezvous and a goroutine switch."""

    async def main() -> None:
        ch = Chan[int]()
        go.go(_producer, ch, n)
        async for _ in ch:
            pass

    return main


def buffered(n: int, cap: int = 128) -> Callable[[], Awaitable[None]]:
    """n send/recv pairs on a channel with a buffer of 128: mostly no switch at all."""

    async def main() -> None:
        ch = Chan[int](cap)
        go.go(_producer, ch, n)
        async for _ in ch:
            pass

    return main


def select_ready(n: int) -> Callable[[], Awaitable[None]]:
    """n selects over 4 cases, 3 always ready (closed channels): the random choice, no blocking."""

    async def main() -> None:
        chans = [Chan[int]() for _ in range(3)]
        for ch in chans:
            ch.close()
        never = Chan[int]()
        for _ in range(n):
            await select(recv(chans[0]), recv(never), recv(chans[1]), recv(chans[2]))

    return main


def select_blocking(n: int) -> Callable[[], Awaitable[None]]:
    """n selects over 3 unbuffered channels fed by 3 goroutines: block, wake, dequeue losers."""

    async def main() -> None:
        chans = [Chan[int]() for _ in range(3)]
        per = n // 3
        for ch in chans:
            go.go(_producer, ch, per)
        open_ = 3
        while open_:
            sel = await select(*(recv(c) for c in chans))
            if not sel.ok:
                open_ -= 1
                chans[sel.index] = Chan[int]()  # a closed source leaves the select (never ready)

    return main


def ticker_virtual(n: int) -> Callable[[], Awaitable[None]]:
    """n ticks of a 1 ms ticker: how fast the virtual clock jumps from timer to timer."""

    async def main() -> None:
        t = go.new_ticker(go.Millisecond)
        for _ in range(n):
            await t.c.recv()

    return main


def measure(build: Callable[[int], Callable[[], Awaitable[None]]], n: int, clock: str) -> float:
    """Operations per second for one run of n operations (best of 3)."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        go.run(build(n), seed=1, clock=clock)  # type: ignore[arg-type]
        best = min(best, time.perf_counter() - started)
    return n / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100_000, help="operations per measurement")
    args = parser.parse_args()
    n = args.n
    print(f"minikubelet.go benchmark — Python {platform.python_version()}, n={n}, best of 3")
    print(f"{'operation':<48}{'virtual clock':>16}{'real clock':>16}")
    rows = [
        ("unbuffered send/recv pairs per s", unbuffered),
        ("buffered (cap 128) send/recv pairs per s", buffered),
        ("select, 3 of 4 cases ready, per s", select_ready),
        ("select, blocking on 3 senders, per s", select_blocking),
    ]
    for label, build in rows:
        v = measure(build, n, "virtual")
        r = measure(build, n, "real")
        print(f"{label:<48}{v:>16,.0f}{r:>16,.0f}")
    ticks = measure(ticker_virtual, n // 4, "virtual")
    print(f"{'ticker ticks (1 ms period) per s':<48}{ticks:>16,.0f}{'(real time)':>16}")
    print(f"  = {ticks / 1000:,.0f} virtual seconds of a 1 ms ticker per real second")


if __name__ == "__main__":
    main()
