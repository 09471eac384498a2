"""How long the runner takes to check one exercise: in process, and as a fresh command.

For every exercise: the best of a few runs (as timeit reports: the others measure the machine's
other work) of ``check()`` on the shipped file (fails) and on the reference (the port's code,
passes) once the check server has imported the port, as ``watch`` pays after each save; then a
fresh ``python -m walkthrough check NAME`` on a copy of the chapters (interpreter start, the
check server and imports included), as a learner pays it: its wall-clock seconds and the CPU
seconds of every process it started (the runner, the server checks are forked from, the
check), which a busy machine does not inflate as much. The goal (issue 24): a median under
0.5 s for the fresh command.

    python bench/bench_walkthrough.py [repeats]

Prints figures; asserts nothing.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from walkthrough.catalog import PACKAGE_DIR, discover  # noqa: E402
from walkthrough.checker import check  # noqa: E402
from walkthrough.derive import learner_text, reference_text  # noqa: E402
from walkthrough.proctree import become_subreaper  # noqa: E402

#: (exercise, shipped, reference, fresh command wall, fresh command CPU) seconds.
Row = tuple[str, float, float, float, float]


def best_seconds(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def command_seconds(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``command`` and every process below it, measured by a fresh
    process of this script that adopts them all (a subreaper) and waits for each."""
    done = subprocess.run(
        [sys.executable, __file__, "--tree", *command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    wall, cpu = done.stdout.split()
    return float(wall), float(cpu)


def tree(command: list[str]) -> None:
    """``--tree COMMAND...``: print the wall seconds of ``command`` and the CPU seconds of it
    and of every process it started, once all of them have ended."""
    become_subreaper()
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    while True:  # the processes it left (its check server) are ours now: wait for each
        try:
            os.wait()
        except ChildProcessError:
            break
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{wall:.4f} {used.ru_utime + used.ru_stime:.4f}")


def check_latencies(repeats: int) -> tuple[float, list[Row]]:
    """The first check's seconds, then a row of seconds per exercise."""
    exercises = [e for c in discover() for e in c.exercises]
    env = {**os.environ, "MINIKUBELET_LANG": "en"}
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "walkthrough"
        for chapter in sorted(PACKAGE_DIR.glob("ch[0-9][0-9]")):
            shutil.copytree(
                chapter, copy / chapter.name, ignore=shutil.ignore_patterns("exercise.py")
            )
        env["MINIKUBELET_WALKTHROUGH_DIR"] = str(copy)
        env["MINIKUBELET_WALKTHROUGH_PROGRESS"] = str(Path(tmp) / "progress.json")
        start = time.perf_counter()
        first_file = Path(tmp) / "first.py"
        first_file.write_text(reference_text(exercises[0], exercises, "en"), encoding="utf-8")
        check(exercises[0], first_file)  # starts the check server, which imports the port once
        first = time.perf_counter() - start
        for exercise in exercises:
            shipped = Path(tmp) / f"{exercise.name}.py"
            shipped.write_text(learner_text(exercise, exercises, "en"), encoding="utf-8")
            reference = Path(tmp) / f"{exercise.name}-reference.py"
            reference.write_text(reference_text(exercise, exercises, "en"), encoding="utf-8")
            failing = best_seconds(lambda e=exercise, f=shipped: check(e, f), repeats)
            passing = best_seconds(lambda e=exercise, f=reference: check(e, f), repeats)
            command = [sys.executable, "-m", "walkthrough", "check", exercise.name]
            fresh = [command_seconds(command, env) for _ in range(max(3, repeats // 2))]
            rows.append(
                (exercise.key, failing, passing, min(w for w, _ in fresh), min(c for _, c in fresh))
            )
    return first, rows


def main() -> None:
    if sys.argv[1:2] == ["--tree"]:
        tree(sys.argv[2:])
        return
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    first, rows = check_latencies(repeats)
    print(f"first check (starts the check server): {first:.3f} s\n")
    print(f"{'':<28} {'after a save':^20} {'fresh command':^20}")
    print(f"{'exercise':<28} {'shipped':>9} {'reference':>10} {'wall':>9} {'CPU':>10}")
    for key, failing, passing, wall, cpu in rows:
        print(f"{key:<28} {failing:>8.3f}s {passing:>9.3f}s {wall:>8.3f}s {cpu:>9.3f}s")
    worst = max(max(f, p) for _, f, p, _, _ in rows)
    print(f"\nslowest check after a save: {worst:.3f} s")
    wall = statistics.median(r[3] for r in rows)
    cpu = statistics.median(r[4] for r in rows)
    verdict = "under" if wall < 0.5 else "OVER"
    print(f"fresh command, median: {wall:.3f} s wall ({verdict} the 0.5 s goal), {cpu:.3f} s CPU")


if __name__ == "__main__":
    main()
