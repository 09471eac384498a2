"""Which of kubelet's loops a virtual hour's CPU goes to, on a 110-pod node of static pods.

Each of kubelet's loops is a goroutine of the port (the PLEG's relist loop, one worker per pod,
the status manager, the volume manager's populator and reconciler...), and the event loop runs a
goroutine in steps. This benchmark notes the CPU time of every step and adds it to the loop
whose goroutine took it, so a loop's figure is its own work plus the fake runtime's work it
asks for (a CRI call is a function call here), without cProfile's overhead, which inflates
small functions several times over. Housekeeping runs on the sync loop's goroutine: it is told
apart by timing ``HandlePodCleanups``. Timer callbacks belong to no goroutine and the event
loop's own scheduling to none of them: each is a row of its own.

    python bench/bench_loop_cpu.py [--hours 0.5] [--settle 0.1] [--pods 110] [--crash-every 0]

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from asyncio import events
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_node_day import write_node
from minikubelet import go
from tests.e2e.harness import run_kubelet

#: A goroutine's name (its first word for the ones kubelet starts per pod) → the loop it runs.
LOOPS = {
    "GenericPLEG.relist": "PLEG relist (every 1 s)",
    "podWorker": "pod workers: syncPod (per pod, every 1 min and on a change)",
    "main": "sync loop: syncLoopIteration and its dispatch",
    "housekeeping": "housekeeping: HandlePodCleanups (every 2 s)",
    "statusManager": "status manager: syncBatch (every 10 s) and status updates",
    "probe": "prober workers (per probe, every periodSeconds)",
    "dswp": "volume manager: desired-state populator (every 100 ms)",
    "reconciler": "volume manager: reconciler (every 100 ms)",
    "evictionManager": "eviction manager: synchronize (every 10 s)",
    "containerGC": "container GC (every 1 min)",
    "sourceFile.run": "file source: listing and reading manifests (every 20 s)",
    "sourceFile.startWatch": "file source: fsnotify watch (every 1 s)",
    "fsnotify.poll": "fsnotify: polling the manifest directory (every 1 s)",
    "mux.listen": "pod config: merging each source's updates",
    "timers": "timer callbacks (no goroutine)",
    "event loop": "event loop: scheduling between steps",
}


def loop_of(task_name: str) -> str:
    """The key of LOOPS (or the goroutine's own name) for the task ``goroutine N NAME``."""
    name = task_name.split(" ", 2)[2] if task_name.startswith("goroutine ") else task_name
    first = name.split(" ", 1)[0]
    if first in ("podWorker", "probe"):
        return first
    for prefix in ("mux.listen", "fsnotify.poll"):
        if name.startswith(prefix):
            return prefix
    return name


class StepClock:
    """CPU seconds per loop, summed over the event loop's steps while installed."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.main_task: asyncio.Task[Any] | None = None
        self.inside: asyncio.Task[Any] | None = None  # the task inside HandlePodCleanups
        self.inside_since = 0.0
        self._original = events.Handle._run

    def install(self) -> None:
        original = self._original
        clock = time.process_time
        cpu = self.cpu

        def run(handle: events.Handle) -> None:
            owner = getattr(handle._callback, "__self__", None)  # type: ignore[attr-defined]
            task = owner if isinstance(owner, asyncio.Task) else None
            start = clock()
            if task is not None and task is self.inside:
                self.inside_since = start
            try:
                original(handle)
            finally:
                end = clock()
                if task is not None and task is self.inside:
                    cpu["housekeeping"] = cpu.get("housekeeping", 0.0) + end - self.inside_since
                    self.inside_since = end
                key = "timers" if task is None else loop_of(task.get_name())
                if task is not None and task is self.main_task:
                    key = "main"
                cpu[key] = cpu.get(key, 0.0) + end - start

        events.Handle._run = run  # type: ignore[method-assign]

    def uninstall(self) -> None:
        events.Handle._run = self._original  # type: ignore[method-assign]

    def time_housekeeping(self, kl: Any) -> None:
        """Wrap ``kl.handle_pod_cleanups`` so that its CPU counts as housekeeping."""
        handle_pod_cleanups: Callable[[], Any] = kl.handle_pod_cleanups
        self.main_task = asyncio.current_task()

        async def timed() -> None:
            self.inside = asyncio.current_task()
            self.inside_since = time.process_time()
            try:
                await handle_pod_cleanups()
            finally:
                now = time.process_time()
                self.cpu["housekeeping"] = (
                    self.cpu.get("housekeeping", 0.0) + now - self.inside_since
                )
                self.inside = None

        kl.handle_pod_cleanups = timed

    def per_loop(self, total: float) -> dict[str, float]:
        """CPU seconds per loop; the main goroutine's row leaves out housekeeping, and the
        event loop's row is what no step took of ``total``."""
        out = dict(self.cpu)
        out["main"] = out.get("main", 0.0) - out.get("housekeeping", 0.0)
        out["event loop"] = total - sum(self.cpu.values())
        return out


def measure_loop_cpu(
    pods: int, hours: float, crash_every: int = 0, settle: float = 0.1
) -> dict[str, float]:
    """CPU seconds per virtual hour of each loop (LOOPS' labels, or a goroutine's name), over
    ``hours`` virtual hours after ``settle`` hours of start-up that are not counted."""
    clock = StepClock()
    started: list[float] = []

    def setup(kl: Any) -> None:
        clock.time_housekeeping(kl)

        async def start_counting() -> None:
            await go.sleep(settle * 3600)
            clock.cpu.clear()
            started.append(time.process_time())

        go.go(start_counting, name="bench: start counting")

    with tempfile.TemporaryDirectory() as tmp:
        write_node(Path(tmp), pods, crash_every)
        clock.install()
        try:
            run_kubelet(
                manifests=Path(tmp),
                until=(settle + hours) * 3600,
                max_pods=pods,
                verbosity=0,
                setup=setup,
            )
            total = time.process_time() - started[0]
        finally:
            clock.uninstall()
    per_loop = clock.per_loop(total)
    per_loop.pop("bench: start counting", None)
    return {LOOPS.get(key, key): sec / hours for key, sec in per_loop.items()}


def measure_pods_by_loop(n: int) -> dict[str, float]:
    """CPU µs per pod of each loop while ``n`` one-container pods go through the port at once
    (bench_pods' run: one API SET, 10 virtual seconds), so that the growth of the cost per pod
    from 1,000 to 10,000 pods can be laid at the loops that grow. The event loop's residual row
    is left out: it is not one of kubelet's loops."""
    from bench.bench_pods import measure

    clock = StepClock()
    clock.install()
    try:
        _, cpu = measure(n, setup=clock.time_housekeeping)
    finally:
        clock.uninstall()
    per_loop = clock.per_loop(cpu)
    per_loop.pop("event loop", None)
    return {LOOPS.get(key, key): sec / n * 1e6 for key, sec in per_loop.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hours", type=float, default=0.5, help="virtual hours (default 0.5)")
    parser.add_argument("--settle", type=float, default=0.1, help="hours not counted first")
    parser.add_argument("--pods", type=int, default=110)
    parser.add_argument("--crash-every", type=int, default=0, help="one pod in N crash-loops")
    args = parser.parse_args()
    rows = measure_loop_cpu(args.pods, args.hours, args.crash_every, args.settle)
    total = sum(rows.values())
    print(
        f"{args.pods}-pod node, {args.hours:g} virtual hours after {args.settle:g}: "
        "CPU s per virtual hour by loop"
    )
    for name, sec in sorted(rows.items(), key=lambda kv: -kv[1]):
        print(f"  {name:<62} {sec:7.3f}  {sec / total:5.1%}")
    print(f"  {'total':<62} {total:7.3f}")


if __name__ == "__main__":
    main()
