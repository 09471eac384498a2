"""What one turn of each of kubelet's periodic loops costs on a steady 110-pod node.

A node of static pods (one in ten crash-looping, as in ``bench_node_day.py``) runs for two
virtual minutes to settle; then, on the same virtual instant, each loop's step is called
directly, many times over, and the CPU time of the fastest batch is printed per call (the
minimum of several batches is the figure least disturbed by the other processes on a shared
machine):

* ``PLEG relist`` — ``GenericPLEG.relist`` (kubelet runs it every second), and within it
  ``GetPods`` (the runtime's listing converted into kubelet's pods);
* ``housekeeping`` — ``HandlePodCleanups`` (every 2 s);
* ``fsnotify poll`` — the file source's watcher asking inotify whether the manifest directory
  changed (every second), and the comparison of the directory it makes when it did;
* ``klog.V(4) off`` — a suppressed ``klog.V(4).InfoS`` with two key/value pairs.

The per-hour share is the per-call cost times the calls kubelet makes in a virtual hour.

    python bench/bench_loops.py [--pods 110] [--batches 5] [--calls 200]

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_node_day import write_node
from minikubelet import go
from minikubelet.github_com.fsnotify.fsnotify import fsnotify
from minikubelet.k8s_io.klog.v2 import klog
from tests.e2e.harness import run_kubelet


async def fastest(step: Callable[[], Awaitable[object]], batches: int, calls: int) -> float:
    """CPU seconds per call of the fastest of ``batches`` batches of ``calls`` calls."""
    best = float("inf")
    for _ in range(batches):
        start = time.process_time()
        for _ in range(calls):
            await step()
        best = min(best, (time.process_time() - start) / calls)
    return best


def measure_loops(pods: int, batches: int, calls: int) -> list[tuple[str, float, int]]:
    """(step, CPU seconds per call, calls per virtual hour) for each loop's step."""
    rows: list[tuple[str, float, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        write_node(Path(tmp), pods)

        def setup(kl: object) -> None:
            async def measure() -> None:
                await go.sleep(120)
                pleg = kl.pleg  # type: ignore[attr-defined]
                runtime = kl.container_runtime  # type: ignore[attr-defined]

                async def get_pods() -> object:
                    return await runtime.get_pods(True)

                gate = fsnotify.InotifyGate(tmp)

                async def poll() -> object:
                    return gate.maybe_changed()

                before = fsnotify.snapshot(tmp)

                async def compare() -> object:
                    return fsnotify.changes(before, fsnotify.snapshot(tmp))

                async def suppressed() -> None:
                    klog.v(4).info_s("Probe succeeded", probeType="Liveness", pod="default/x")

                b, c = batches, calls
                rows.append(("PLEG relist", await fastest(pleg.relist, b, c), 3600))
                rows.append(("  of which GetPods", await fastest(get_pods, b, c), 3600))
                rows.append(("housekeeping", await fastest(kl.handle_pod_cleanups, b, c), 1800))  # type: ignore[attr-defined]
                rows.append(("fsnotify poll, nothing changed", await fastest(poll, b, c), 3600))
                rows.append(("fsnotify compare, on a change", await fastest(compare, b, c), 0))
                gate.close()
                rows.append(("klog.V(4) off", await fastest(suppressed, b, c * 100), 0))

            go.go(measure)

        run_kubelet(manifests=Path(tmp), until=121, max_pods=pods, verbosity=0, setup=setup)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pods", type=int, default=110)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    rows = measure_loops(args.pods, args.batches, args.calls)
    print(f"{args.pods}-pod node, CPU per call (fastest of {args.batches} batches):")
    print(f"  {'step':<30} {'µs per call':>12} {'s per virtual hour':>19}")
    for name, seconds, per_hour in rows:
        hour = f"{seconds * per_hour:19.3f}" if per_hour else f"{'':>19}"
        print(f"  {name:<30} {seconds * 1e6:12.1f} {hour}")


if __name__ == "__main__":
    main()
