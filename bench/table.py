"""Every figure of the speed issue and the learner's latency, as one table to compare against.

Each figure is measured in a fresh Python process (so its memory is its own), one after the
other, and printed as a row: what was measured, the figure, the goal, and whether it is met.
CPU seconds are the figures to compare on a shared machine; wall seconds also count the other
processes' turns. The loops are kubelet's own (the PLEG relists every second, pods resync every
minute, housekeeping every 2 s): nothing here skips one.

    python bench/table.py            # the figures that take a few minutes
    python bench/table.py --day      # also a 24-hour day of the mixed node (5-10 min)
    python bench/table.py --big      # also 100,000 pods (several minutes, a few GB)
    python bench/table.py --only pods-1k pods-10k

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MIB = 1024 * 1024


def steady_node() -> dict[str, float]:
    """110 static pods, none crash-looping, for 3 virtual hours: CPU per hour, and the RSS
    growth from the first virtual hour to the second."""
    from bench.bench_node_day import run_node

    rss: list[int] = []
    cpu, _, marks, running, _ = run_node(110, 3, [1, 2], crash_every=0, rss=rss)
    first_hour = marks[1][1] - marks[0][1]
    return {
        "cpu_first_hour": first_hour,
        "cpu_per_hour": cpu / 3,
        "rss_growth_mib_per_hour": (rss[2] - rss[1]) / MIB,
        "running": running,
    }


def mixed_node(hours: float) -> dict[str, float]:
    """bench_node_day's node (one pod in ten crash-looping) for ``hours`` virtual hours."""
    from bench.bench_node_day import run_node

    cpu, _, marks, running, _ = run_node(110, hours, [1.0] if hours > 1 else [])
    return {"cpu": cpu, "cpu_first_hour": marks[1][1] - marks[0][1], "running": running}


def pods(n: int) -> dict[str, float]:
    """n one-container pods through the whole port (bench_pods), with the memory they took."""
    from bench.bench_node_day import rss_bytes
    from bench.bench_pods import measure

    before = rss_bytes()
    wall, cpu = measure(n)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    return {"wall": wall, "cpu": cpu, "rss_per_pod_kib": (peak - before) / n / 1024}


def loops() -> dict[str, list[float]]:
    """Each of kubelet's periodic steps on a 110-pod node: CPU seconds per call, calls per
    virtual hour (0 for a step that runs only on a change)."""
    from bench.bench_loops import measure_loops

    return {name.strip(): [sec, per_hour] for name, sec, per_hour in measure_loops(110, 5, 100)}


def checks() -> dict[str, float]:
    """The learner's latency: one check after a save (in the check server) and as a command."""
    from bench.bench_walkthrough import check_latencies

    first, rows = check_latencies(2)
    return {
        "first": first,
        "after_save_median": statistics.median(max(f, p) for _, f, p, _, _ in rows),
        "after_save_worst": max(max(f, p) for _, f, p, _, _ in rows),
        "command_median": statistics.median(wall for _, _, _, wall, _ in rows),
        "command_cpu_median": statistics.median(cpu for *_, cpu in rows),
    }


#: Where each of kubelet's loops starts, as (file, function) in the port: the profile below
#: gives each its cumulative time. The sync loop's own row leaves out the housekeeping it calls.
LOOP_ROOTS = {
    "PLEG relist (every 1 s)": ("pleg/generic.py", "relist"),
    "pod workers: syncPod (each pod every 1 min)": ("pod_workers.py", "manage_pod_loop"),
    "file source: reading the manifests (every 20 s)": ("config/file.py", "extract_from_dir"),
    "syncLoopIteration: select and dispatch": ("kubelet.py", "sync_loop_iteration"),
    "housekeeping: HandlePodCleanups (every 2 s)": ("kubelet_pods.py", "handle_pod_cleanups"),
    "container GC (every 1 min)": ("container/container_gc.py", "garbage_collect"),
}


def hour_profile() -> dict[str, float]:
    """The steady 110-pod node for half a virtual hour under cProfile: each loop's share of
    the CPU time, and what is left (the scheduler, timers, channels)."""
    import cProfile
    import pstats

    from bench.bench_node_day import run_node

    profile = cProfile.Profile()
    profile.runcall(run_node, 110, 0.5, [], 0)
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = sum(tottime for _, _, tottime, _, _ in stats.values())
    cumulative = {
        name: sum(
            entry[3]
            for (path, _, function), entry in stats.items()
            if function == root and path.endswith(f"minikubelet/{suffix}")
        )
        for name, (suffix, root) in LOOP_ROOTS.items()
    }
    cumulative["syncLoopIteration: select and dispatch"] -= cumulative[
        "housekeeping: HandlePodCleanups (every 2 s)"
    ]
    shares = {name: seconds / total for name, seconds in cumulative.items()}
    shares["the rest: asyncio scheduling, timers, channels"] = 1 - sum(shares.values())
    return shares


FIGURES: dict[str, Callable[[], dict[str, Any]]] = {
    "steady-node": steady_node,
    "mixed-hour": lambda: mixed_node(1),
    "mixed-day": lambda: mixed_node(24),
    "pods-1k": lambda: pods(1_000),
    "pods-10k": lambda: pods(10_000),
    "pods-100k": lambda: pods(100_000),
    "loops": loops,
    "hour-profile": hour_profile,
    "check": checks,
}
OPTIONAL = {"mixed-day": "--day", "pods-100k": "--big"}


def measure_in_child(name: str) -> dict[str, Any] | str:
    """The figure's numbers from a fresh process, or what went wrong there in one line."""
    done = subprocess.run(
        [sys.executable, __file__, "--figure", name], capture_output=True, text=True, check=False
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"failed (exit {done.returncode}): {last}"
    return json.loads(lines[-1])


def rows(results: dict[str, dict[str, Any]]) -> list[tuple[str, str, str]]:
    """(what, figure, goal and verdict) for each measured figure."""

    def goal(value: float, limit: float, at_most: bool = True) -> str:
        met = value <= limit if at_most else value >= limit
        return f"{'≤' if at_most else '≥'} {limit:g}: {'met' if met else 'NOT met'}"

    out: list[tuple[str, str, str]] = []
    if s := results.get("steady-node"):
        out.append(
            (
                "110 steady static pods, 1st virtual hour, CPU s",
                f"{s['cpu_first_hour']:.2f}",
                goal(s["cpu_first_hour"], 5),
            )
        )
        out.append(("  same node, CPU s per hour over 3 hours", f"{s['cpu_per_hour']:.2f}", ""))
        out.append(
            (
                "  RSS growth per virtual hour (h1→h2), MiB",
                f"{s['rss_growth_mib_per_hour']:+.2f}",
                goal(s["rss_growth_mib_per_hour"], 1),
            )
        )
    if m := results.get("mixed-hour"):
        out.append(
            ("bench_node_day's node, 1 virtual hour, CPU s", f"{m['cpu']:.2f}", goal(m["cpu"], 12))
        )
    if d := results.get("mixed-day"):
        out.append(
            (
                "bench_node_day's node, 24 virtual hours, CPU s",
                f"{d['cpu']:.1f}",
                goal(d["cpu"], 300),
            )
        )
    one = results.get("pods-1k")
    if one:
        out.append(
            (
                "1,000 pods: pods per CPU second",
                f"{1000 / one['cpu']:.0f}",
                goal(1000 / one["cpu"], 1000, False),
            )
        )
    for key, n in (("pods-10k", 10_000), ("pods-100k", 100_000)):
        if (r := results.get(key)) and one:
            ratio = (r["cpu"] / n) / (one["cpu"] / 1000)
            limit = goal(ratio, 1.1) if n == 10_000 else "printed, not a goal"
            out.append((f"{n:,} pods: CPU per pod vs 1,000", f"{ratio:.2f}x", limit))
        if r := results.get(key):
            out.append((f"{n:,} pods: RSS per pod, KiB", f"{r['rss_per_pod_kib']:.1f}", "printed"))
    if lp := results.get("loops"):
        for name, (sec, per_hour) in lp.items():
            share = f"{sec * per_hour:.3f} CPU s per virtual hour" if per_hour else "on a change"
            out.append((f"loop step: {name}, µs per call", f"{sec * 1e6:.1f}", share))
    if hp := results.get("hour-profile"):
        hour = results.get("steady-node", {}).get("cpu_per_hour")
        for name, share in hp.items():
            spent = f"{share * hour:.2f} CPU s per virtual hour" if hour else ""
            out.append((f"steady hour: {name}, share", f"{share:.0%}", spent))
    if c := results.get("check"):
        command = c["command_median"]
        out.append(
            ("`python -m walkthrough check`, median s", f"{command:.3f}", goal(command, 0.5))
        )
        out.append(
            ("  its CPU s (every process it starts), median", f"{c['command_cpu_median']:.3f}", "")
        )
        out.append(("check after a save (watch), median s", f"{c['after_save_median']:.3f}", ""))
        out.append(("check after a save (watch), slowest s", f"{c['after_save_worst']:.3f}", ""))
        out.append(("first check (starts the check server), s", f"{c['first']:.3f}", ""))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--figure", choices=FIGURES, help=argparse.SUPPRESS)
    parser.add_argument("--day", action="store_true", help="also a 24-hour day of the mixed node")
    parser.add_argument("--big", action="store_true", help="also 100,000 pods")
    parser.add_argument("--only", nargs="+", choices=FIGURES, help="only these figures")
    args = parser.parse_args()
    if args.figure:
        print(json.dumps(FIGURES[args.figure]()))
        return
    wanted = args.only or [
        name
        for name in FIGURES
        if name not in OPTIONAL or getattr(args, OPTIONAL[name].lstrip("-"))
    ]
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {time.strftime('%Y-%m-%d')}"
    )
    results: dict[str, dict[str, Any]] = {}
    for name in wanted:
        start = time.perf_counter()
        got = measure_in_child(name)
        print(f"  measured {name} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
        if isinstance(got, str):
            print(f"{name}: {got}")
        else:
            results[name] = got
    table = rows(results)
    width = max((len(what) for what, _, _ in table), default=10)
    print(f"{'figure':<{width}}  {'value':>9}  goal or share")
    for what, value, verdict in table:
        print(f"{what:<{width}}  {value:>9}  {verdict}")


if __name__ == "__main__":
    main()
