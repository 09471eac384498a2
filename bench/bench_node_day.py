"""A day of kubelet: what a virtual hour costs on a full node, and whether it grows with time.

Two runs, each under the virtual clock, so every figure is CPU time spent computing:

* **crash loop**: one pod whose container exits after 1 s, forever. Prints the CPU seconds each
  stretch of virtual time cost, per virtual hour. With the container garbage collector the
  runtime keeps one dead container, so the cost per hour stays flat; without it every restart
  left one more behind and each hour cost more than the one before.
* **full node**: 110 static pods (kubelet's default ``--max-pods``) from a manifest directory,
  one in ten crash-looping, for ``--hours`` virtual hours (default 24). Prints the total, the
  cost per virtual hour over the first hour, the first quarter, half and the whole of the run
  (flat if nothing piles up), and how many containers the runtime holds at the end.

    python bench/bench_node_day.py [--hours 24] [--pods 110] [--skip-crash-loop]

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from minikubelet import go
from tests.e2e.harness import run_kubelet
from tests.e2e.test_pod_creation import pod

CRASH = {"minikubelet.dev/scenario": "app: {runFor: 1s, exitCode: 1}"}
MANIFEST = """apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: default
{annotations}spec:
  containers:
  - name: app
    image: busybox:1.34
    imagePullPolicy: IfNotPresent
"""


def rss_bytes() -> int:
    """This process's resident set size now (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def sampler(
    checkpoints: list[float], marks: list[tuple[float, float]], rss: list[int] | None = None
) -> Callable[[object], None]:
    """A run's setup hook that notes the CPU time (and, given ``rss``, the resident set size)
    at the start and at each checkpoint (virtual hours)."""

    def note(hours: float) -> None:
        marks.append((hours, time.process_time()))
        if rss is not None:
            rss.append(rss_bytes())

    def record(kl: object) -> None:
        async def sample() -> None:
            start = go.now()
            for hours in checkpoints:
                await go.sleep(start + hours * 3600 - go.now())
                note(hours)

        go.go(sample)
        note(0.0)

    return record


def print_per_hour(marks: list[tuple[float, float]]) -> None:
    for (h0, c0), (h1, c1) in itertools.pairwise(marks):
        print(f"  {h0:5.2f} h → {h1:5.2f} h   {(c1 - c0) / (h1 - h0):7.3f} s/h")


def crash_loop(checkpoints: list[float]) -> None:
    """CPU seconds per virtual hour between successive checkpoints (virtual hours)."""
    marks: list[tuple[float, float]] = []
    run = run_kubelet(
        pods=[pod("crash", ["app"], annotations=CRASH)],
        until=checkpoints[-1] * 3600 + 1,
        verbosity=0,
        setup=sampler(checkpoints, marks),
    )
    print("crash-looping pod, CPU seconds per virtual hour:")
    print_per_hour(marks)
    restarts = run.statuses["crash"].container_statuses[0].restart_count
    print(f"  restarts: {restarts}; containers left in the runtime: {run.runtime_containers}")


def write_node(folder: Path, n: int, crash_every: int = 10) -> None:
    """n static pods as manifests in ``folder``; one in ``crash_every`` crash-loops (0: none)."""
    for i in range(n):
        crash = crash_every and i % crash_every == 0
        annotations = (
            '  annotations:\n    minikubelet.dev/scenario: "app: {runFor: 1s, exitCode: 1}"\n'
            if crash
            else ""
        )
        name = f"pod-{i:03d}"
        Path(folder, f"{name}.yaml").write_text(MANIFEST.format(name=name, annotations=annotations))


def run_node(
    n: int,
    hours: float,
    checkpoints: list[float],
    crash_every: int = 10,
    rss: list[int] | None = None,
) -> tuple[float, float, list[tuple[float, float]], int, int]:
    """One node run: CPU and wall seconds, (virtual hour, CPU time) marks, pods Running and
    containers the runtime holds at the end; ``rss`` gets the resident set size at each mark
    but the last."""
    with tempfile.TemporaryDirectory() as tmp:
        write_node(Path(tmp), n, crash_every)
        marks: list[tuple[float, float]] = []
        cpu = time.process_time()
        wall = time.perf_counter()
        run = run_kubelet(
            manifests=Path(tmp),
            until=hours * 3600,
            max_pods=n,
            verbosity=0,
            setup=sampler(checkpoints, marks, rss),
            # Nothing here reads the events, and kubelet with no API server keeps none.
            keep_events=False,
        )
        marks.append((hours, time.process_time()))
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
    running = sum(1 for s in run.statuses.values() if s.phase == "Running")
    return cpu, wall, marks, running, sum(run.runtime_containers.values())


def full_node(n: int, hours: float) -> None:
    checkpoints = [hours * f for f in (1 / 24, 1 / 4, 1 / 2)]
    cpu, wall, marks, running, held = run_node(n, hours, checkpoints)
    print(f"{n}-pod node for {hours:g} virtual hours:")
    print(f"  CPU {cpu:7.1f} s ({cpu / hours:6.2f} s per virtual hour); wall {wall:7.1f} s")
    print_per_hour(marks)
    print(f"  {running} pods Running; the runtime holds {held} containers at the end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hours", type=float, default=24, help="virtual hours (default 24)")
    parser.add_argument("--pods", type=int, default=110, help="pods on the node (default 110)")
    parser.add_argument("--skip-crash-loop", action="store_true")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    if not args.skip_crash_loop:
        crash_loop([0.5, 1, 2, 4])
    full_node(args.pods, args.hours)


if __name__ == "__main__":
    main()
