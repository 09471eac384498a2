"""How fast pods go through the whole port, and how the cost grows from 1,000 to 10,000 pods.

Each run sends n one-container pods at once (an API source SET), then runs kubelet for 10
virtual seconds: admission, pod workers, syncPod, the fake runtime's SyncPod, PLEG relists,
until every pod is Running. Prints wall-clock seconds, pods per second, and the growth of the
cost per pod against the 1,000-pod run (1.0 would be linear).

    python bench/bench_pods.py [n ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.harness import run_kubelet
from tests.e2e.test_pod_creation import pod


def measure(n: int) -> float:
    pods = [pod(f"p{i:05d}", ["app"]) for i in range(n)]
    start = time.perf_counter()
    run = run_kubelet(pods=pods, until=10, max_pods=n, cpu="20000", memory="20000Gi", verbosity=0)
    elapsed = time.perf_counter() - start
    running = sum(1 for s in run.statuses.values() if s.phase == "Running")
    if running != n:
        raise SystemExit(f"only {running} of {n} pods are Running")
    return elapsed


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1_000, 2_000, 5_000, 10_000]
    print(f"{'pods':>7} {'seconds':>9} {'pods/s':>9} {'cost per pod vs first':>22}")
    base = None
    for n in sizes:
        seconds = measure(n)
        per_pod = seconds / n
        base = base or per_pod
        print(f"{n:>7} {seconds:>9.2f} {n / seconds:>9.0f} {per_pod / base:>21.2f}x")


if __name__ == "__main__":
    main()
