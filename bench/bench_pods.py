"""How fast pods go through the whole port, and how the cost grows from 1,000 to 10,000 pods.

Each run sends n one-container pods at once (an API source SET), then runs kubelet for 10
virtual seconds: admission, pod workers, syncPod, the fake runtime's SyncPod, PLEG relists,
until every pod is Running. Prints wall-clock and CPU seconds, pods per CPU second, and the
growth of the CPU cost per pod against the first run (1.00x is linear). CPU time is the figure to
compare on a shared machine: wall time also counts the other processes' turns.

    python bench/bench_pods.py [n ...]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from minikubelet.kubelet import Kubelet
from tests.e2e.harness import run_kubelet
from tests.e2e.test_pod_creation import pod


def measure(n: int, setup: Callable[[Kubelet], None] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one run of n pods (``setup`` gets the Kubelet before it runs)."""
    pods = [pod(f"p{i:06d}", ["app"]) for i in range(n)]
    wall, cpu = time.perf_counter(), time.process_time()
    run = run_kubelet(
        pods=pods,
        until=10,
        max_pods=n,
        cpu="200000",
        memory="200000Gi",
        verbosity=0,
        setup=setup,
    )
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    running = sum(1 for s in run.statuses.values() if s.phase == "Running")
    if running != n:
        raise SystemExit(f"only {running} of {n} pods are Running")
    return wall, cpu


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1_000, 2_000, 5_000, 10_000]
    print(f"{'pods':>7} {'wall s':>9} {'CPU s':>9} {'pods/CPU s':>11} {'CPU per pod vs first':>21}")
    base = None
    for n in sizes:
        wall, cpu = measure(n)
        per_pod = cpu / n
        base = base or per_pod
        print(
            f"{n:>7} {wall:>9.2f} {cpu:>9.2f} {n / cpu:>11.0f} {per_pod / base:>20.2f}x", flush=True
        )


if __name__ == "__main__":
    main()
