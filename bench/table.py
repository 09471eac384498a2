"""Every figure of the speed issue and the learner's latency, as one table to compare against.

Each figure is measured in a fresh Python process (so its memory is its own), one after the
other, and printed as a row: what was measured, the figure, the goal, and whether it is met.
CPU seconds are the figures to compare on a shared machine; wall seconds also count the other
processes' turns. The loops are kubelet's own (the PLEG relists every second, pods resync every
minute, housekeeping every 2 s): nothing here skips one.

    python -m bench                  # every figure: about 25 min and 3 GB (a 24-hour day, 100k pods)
    python -m bench --quick          # a few minutes: shorter runs, per-hour figures scaled up
    python -m bench --only pods-1k pods-10k

``--quick`` runs the nodes for less virtual time and says so in the row; the 24-hour day is then
the first hour times 24 and 100,000 pods are not measured. Prints figures; asserts nothing.
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


def steady_node(quick: bool) -> dict[str, float]:
    """110 static pods, none crash-looping: the CPU of the first virtual hour, CPU per hour
    over the run, and the RSS growth per virtual hour between the last two checkpoints (the
    first hour holds the start-up's allocations). The run keeps no events, as kubelet with no
    API server: a standalone node records its pressure events again at every sync of a static
    pod, and a list of them all grew by 5 MiB per virtual hour."""
    from bench.bench_node_day import run_node

    hours, checkpoints = (1.05, [0.5, 1.0]) if quick else (3.0, [1.0, 2.0])
    rss: list[int] = []
    cpu, _, marks, running, _ = run_node(110, hours, checkpoints, crash_every=0, rss=rss)
    at = dict(marks)
    return {
        "cpu_first_hour": at[1.0] - at[0.0],
        "cpu_per_hour": cpu / hours,
        "hours": hours,
        "rss_growth_mib_per_hour": (rss[-1] - rss[-2]) / MIB / (checkpoints[-1] - checkpoints[-2]),
        "leak_from": checkpoints[-2],
        "leak_to": checkpoints[-1],
        "running": running,
    }


def mixed_node(hours: float) -> dict[str, float]:
    """bench_node_day's node (one pod in ten crash-looping) for ``hours`` virtual hours."""
    from bench.bench_node_day import run_node

    cpu, _, marks, running, _ = run_node(110, hours, [1.0] if hours > 1 else [])
    return {
        "cpu": cpu,
        "hours": hours,
        "cpu_first_hour": marks[1][1] - marks[0][1],
        "running": running,
    }


def pods(n: int) -> dict[str, float]:
    """n one-container pods through the whole port (bench_pods), with the memory they took.
    Below 10,000 pods a run lasts a second or two, so the least CPU of three runs is taken
    (as timeit does): other processes' turns only ever add to it."""
    from bench.bench_node_day import rss_bytes
    from bench.bench_pods import measure

    before = rss_bytes()
    wall, cpu = min((measure(n) for _ in range(3 if n < 10_000 else 1)), key=lambda r: r[1])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    return {"wall": wall, "cpu": cpu, "rss_per_pod_kib": (peak - before) / n / 1024}


def loop_steps(quick: bool) -> dict[str, list[float]]:
    """Each of kubelet's periodic steps on a 110-pod node: CPU seconds per call, calls per
    virtual hour (0 for a step that runs only on a change)."""
    from bench.bench_loops import measure_loops

    batches, calls = (3, 30) if quick else (5, 100)
    rows = measure_loops(110, batches, calls)
    return {name.strip(): [sec, per_hour] for name, sec, per_hour in rows}


def loop_cpu(quick: bool) -> dict[str, float]:
    """The steady 110-pod node's CPU per virtual hour, by the loop (goroutine) that spent it,
    over its first virtual hour (its first quarter hour with ``quick``: start-up weighs more)."""
    from bench.bench_loop_cpu import measure_loop_cpu

    return measure_loop_cpu(110, 0.25 if quick else 1.0)


def pods_by_loop(quick: bool) -> dict[str, list[float]]:
    """Each loop's CPU µs per pod with 1,000 and with 10,000 pods (bench_pods' run): where the
    cost per pod grows."""
    from bench.bench_loop_cpu import measure_pods_by_loop

    ones = [measure_pods_by_loop(1_000) for _ in range(3)]  # the least CPU of three, as pods()
    one, ten = min(ones, key=lambda r: sum(r.values())), measure_pods_by_loop(10_000)
    return {name: [one.get(name, 0.0), us] for name, us in ten.items()}


def checks(quick: bool) -> dict[str, float]:
    """The learner's latency: one check after a save (in the check server) and as a command."""
    from bench.bench_walkthrough import check_latencies, medians

    first, rows = check_latencies(1 if quick else 2, sample=quick)
    (cold_wall, cold_cpu), (warm_wall, warm_cpu) = medians(rows).values()
    return {
        "first": first,
        "exercises": len(rows),
        "after_save_median": statistics.median(r.after_save for r in rows),
        "after_save_worst": max(r.after_save for r in rows),
        "command_median": warm_wall,
        "command_cpu_median": warm_cpu,
        "cold_command_median": cold_wall,
        "cold_command_cpu_median": cold_cpu,
    }


FIGURES: dict[str, Callable[[bool], dict[str, Any]]] = {
    "steady-node": steady_node,
    "mixed-hour": lambda quick: mixed_node(0.25 if quick else 1),
    "mixed-day": lambda quick: mixed_node(24),
    "pods-1k": lambda quick: pods(1_000),
    "pods-10k": lambda quick: pods(10_000),
    "pods-100k": lambda quick: pods(100_000),
    "loop-steps": loop_steps,
    "loop-cpu": loop_cpu,
    "pods-by-loop": pods_by_loop,
    "check": checks,
}
#: Figures ``--quick`` leaves out (the table says what stands in for them).
SLOW = ("mixed-day", "pods-100k")


def measure_in_child(name: str, quick: bool) -> dict[str, Any] | str:
    """The figure's numbers from a fresh process, or what went wrong there in one line."""
    command = [sys.executable, __file__, "--figure", name, *(["--quick"] if quick else [])]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"failed (exit {done.returncode}): {last}"
    return json.loads(lines[-1])


def rows(results: dict[str, dict[str, Any]], quick: bool) -> list[tuple[str, str, str]]:
    """(what, figure, goal and verdict) for each figure of the issue, measured or not."""

    def goal(value: float, limit: float, at_most: bool = True) -> str:
        met = value <= limit if at_most else value >= limit
        return f"{'≤' if at_most else '≥'} {limit:g}: {'met' if met else 'NOT met'}"

    def hours(h: float) -> str:
        return f"{h:g} virtual hour{'s' if h != 1 else ''}"

    out: list[tuple[str, str, str]] = []
    if s := results.get("steady-node"):
        out.append(
            (
                "110 steady static pods, 1st virtual hour, CPU s",
                f"{s['cpu_first_hour']:.2f}",
                goal(s["cpu_first_hour"], 5),
            )
        )
        out.append(
            (
                f"  same node, CPU s per hour over {hours(s['hours'])}",
                f"{s['cpu_per_hour']:.2f}",
                "",
            )
        )
        out.append(
            (
                f"  RSS growth per virtual hour ({s['leak_from']:g} h→{s['leak_to']:g} h), MiB",
                f"{s['rss_growth_mib_per_hour']:+.2f}",
                goal(s["rss_growth_mib_per_hour"], 1),
            )
        )
    m = results.get("mixed-hour")
    if m:
        per_hour = m["cpu"] / m["hours"]
        what = "bench_node_day's node, CPU s per virtual hour"
        if m["hours"] != 1:
            what += f" (from {m['hours'] * 60:g} virtual min)"
        out.append((what, f"{per_hour:.2f}", goal(per_hour, 12)))
    if d := results.get("mixed-day"):
        out.append(
            (
                "bench_node_day's node, 24 virtual hours, CPU s",
                f"{d['cpu']:.1f}",
                goal(d["cpu"], 300),
            )
        )
    elif m and quick:
        day = 24 * m["cpu"] / m["hours"]
        out.append(
            (
                "bench_node_day's node, 24 virtual hours, CPU s (24 × the above)",
                f"{day:.0f}",
                goal(day, 300),
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
        elif key == "pods-100k" and quick:
            out.append(("100,000 pods", "-", "not measured with --quick"))
    if c := results.get("check"):
        cpu = c["command_cpu_median"]
        sample = f" ({c['exercises']:g} exercises)"
        out.append(
            (
                f"`python -m walkthrough check` (check server running), median CPU s{sample}",
                f"{cpu:.3f}",
                goal(cpu, 0.5),
            )
        )
        out.append(("  its wall s, median", f"{c['command_median']:.3f}", ""))
        cold = c["cold_command_cpu_median"]
        out.append(("  with no check server yet (it starts one), CPU s", f"{cold:.3f}", ""))
        out.append(("  with no check server yet, wall s", f"{c['cold_command_median']:.3f}", ""))
        out.append(("check after a save (watch), median s", f"{c['after_save_median']:.3f}", ""))
        out.append(("check after a save (watch), slowest s", f"{c['after_save_worst']:.3f}", ""))
        out.append(("first check (starts the check server), s", f"{c['first']:.3f}", ""))
    if lc := results.get("loop-cpu"):
        total = sum(lc.values())
        for name, sec in sorted(lc.items(), key=lambda kv: -kv[1]):
            if sec >= 0.005 * total:
                out.append((f"steady hour by loop: {name}", f"{sec:.2f}", f"{sec / total:.0%}"))
    if pl := results.get("pods-by-loop"):
        total = sum(ten for _, ten in pl.values())
        for name, (one_k, ten_k) in sorted(pl.items(), key=lambda kv: -kv[1][1]):
            if ten_k >= 0.01 * total:
                growth = f"{ten_k / one_k:.2f}x of 1,000 pods' {one_k:.0f}" if one_k else "new"
                out.append((f"10,000 pods by loop: {name}, CPU µs per pod", f"{ten_k:.0f}", growth))
    if lp := results.get("loop-steps"):
        for name, (sec, per_hour) in lp.items():
            share = f"{sec * per_hour:.3f} CPU s per virtual hour" if per_hour else "on a change"
            out.append((f"loop step: {name}, µs per call", f"{sec * 1e6:.1f}", share))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--figure", choices=FIGURES, help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="a few minutes: shorter runs")
    parser.add_argument("--only", nargs="+", choices=FIGURES, help="only these figures")
    args = parser.parse_args()
    if args.figure:
        print(json.dumps(FIGURES[args.figure](args.quick)))
        return
    wanted = args.only or [name for name in FIGURES if not (args.quick and name in SLOW)]
    mode = " (--quick)" if args.quick else ""
    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{time.strftime('%Y-%m-%d %H:%M')}{mode}"
    )
    results: dict[str, dict[str, Any]] = {}
    for name in wanted:
        start = time.perf_counter()
        got = measure_in_child(name, args.quick)
        print(f"  measured {name} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
        if isinstance(got, str):
            print(f"{name}: {got}")
        else:
            results[name] = got
    table = rows(results, args.quick)
    width = max((len(what) for what, _, _ in table), default=10)
    print(f"{'figure':<{width}}  {'value':>9}  goal, share or note")
    for what, value, verdict in table:
        print(f"{what:<{width}}  {value:>9}  {verdict}")


if __name__ == "__main__":
    main()
