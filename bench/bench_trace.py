"""What trace recording costs: nothing measurable when off, and how much when on; trace sizes.

Off: the runtime and the port test ``tracing.tracer is not None`` at each hook. The workload
(n pods through the whole port for 10 virtual seconds) runs several times without a recording;
a recording whose tracer only counts tells how many of those tests the workload makes, and
``timeit`` what one costs. Their product is the whole cost of tracing off, printed beside the
run-to-run spread of the workload itself.

On: the same workload under a recording, and the chapter commands of the site: wall-clock time,
steps, and the bytes of the trace (``minikubelet run --trace``) and of the players' data.

    python bench/bench_trace.py [pods]      # default 300
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from minikubelet.go import tracing  # noqa: E402
from minikubelet.sim.trace import dumps, recording  # noqa: E402
from minikubelet.sim.trace.recorder import Recorder  # noqa: E402
from tests.e2e.harness import run_kubelet  # noqa: E402
from tests.e2e.test_pod_creation import pod  # noqa: E402

RUNS = 5


class Counter(Recorder):
    """A recorder that only counts the hooks it is called from."""

    calls = 0

    def __getattribute__(self, name: str):
        attr = super().__getattribute__(name)
        if name in HOOKS:
            Counter.calls += 1
        return attr


HOOKS = {
    "goroutine_started",
    "goroutine_ended",
    "buffer_changed",
    "sent",
    "received",
    "closed",
    "select_waits",
    "selected",
    "sleeps",
    "pod_worker",
    "pod_status",
    "cri",
    "log",
}


def workload(n: int) -> None:
    pods = [pod(f"p{i:04d}", ["app"]) for i in range(n)]
    run = run_kubelet(pods=pods, until=10, max_pods=n, cpu="20000", memory="20000Gi", verbosity=2)
    running = sum(1 for s in run.statuses.values() if s.phase == "Running")
    if running != n:
        raise SystemExit(f"only {running} of {n} pods are Running")


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def check_cost() -> float:
    """Seconds one ``tracing.tracer is not None`` takes, as the hooks write it."""
    number = 2_000_000
    loop = timeit.timeit("pass", number=number, globals={})
    test = timeit.timeit("tracing.tracer is not None", number=number, globals={"tracing": tracing})
    return max(0.0, (test - loop) / number)


def off_and_on(n: int) -> None:
    workload(n)  # warm up imports and caches
    off = [timed(lambda: workload(n)) for _ in range(RUNS)]
    tracing.tracer = Counter()
    try:
        Counter.calls = 0
        workload_checks = (workload(n), Counter.calls)[1]
    finally:
        tracing.tracer = None
    cost = check_cost()
    median = statistics.median(off)
    spread = (max(off) - min(off)) / median
    overhead = workload_checks * cost
    print(f"workload: {n} pods through the port, 10 virtual seconds, {RUNS} runs")
    print(f"  tracing off      median {median:8.3f} s   spread (max-min)/median {spread:6.1%}")
    print(
        f"  hook tests       {workload_checks:,} per run x {cost * 1e9:.1f} ns = "
        f"{overhead * 1e3:.2f} ms ({overhead / median:.3%} of the run)"
    )
    with recording() as rec:
        on = timed(lambda: workload(n))
    text = dumps(rec.trace())
    print(
        f"  tracing on       {on:8.3f} s   x{on / median:.2f}   {len(rec.steps):,} steps   "
        f"{len(text.encode()) / 1e6:.1f} MB of trace"
    )


def chapters() -> None:
    """Each chapter's trace directives: recording time, trace size, player data per language."""
    from tools.site.directives import find
    from tools.site.trace import options
    from tools.trace import record
    from tools.trace.player import build
    from tools.xref import build_index

    index = build_index(ROOT, offline=True)
    print(f"chapter traces (cross-reference: {index.mode})")
    print(
        f"  {'page / id':<38} {'record s':>8} {'steps':>7} {'trace KB':>9} {'player KB en/zh':>16}"
    )
    for page in sorted((ROOT / "docs" / "chapters").glob("[0-9][0-9]-*.md")):
        if page.name.endswith(".zh.md"):
            continue
        directives = [d for d in find(page.read_text(encoding="utf-8")) if d.name == "trace"]
        for number, d in enumerate(directives, 1):
            start = time.perf_counter()
            trace = record(d.args[0], index=index)
            took = time.perf_counter() - start
            sizes = []
            for lang in ("en", "zh"):
                player = build(trace, index, ROOT, lang=lang, trace_id="x", options=options(d))
                sizes.append(
                    len(json.dumps(player, ensure_ascii=False, separators=(",", ":")).encode())
                )
            name = f"{page.stem} / {d.kwargs.get('id', number)}"
            print(
                f"  {name:<38} {took:>8.2f} {len(trace['steps']):>7,} "
                f"{len(dumps(trace).encode()) / 1e3:>9.0f} {sizes[0] / 1e3:>8.0f}/{sizes[1] / 1e3:.0f}"
            )


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    off_and_on(n)
    chapters()


if __name__ == "__main__":
    main()
