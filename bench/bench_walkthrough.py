"""How long the runner takes to check one exercise: in process, and as a fresh command.

For every exercise: the best of a few runs (as timeit reports: the others measure the machine's
other work) of ``check()`` on the shipped file (fails) and on the
reference solution (passes) once the port is imported, as ``watch`` pays after each save; then
the wall-clock time of a fresh ``python -m walkthrough check NAME`` (interpreter start and
imports included), as a learner pays it. The goal is under 0.5 s.

    python bench/bench_walkthrough.py [repeats]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from walkthrough.catalog import discover  # noqa: E402
from walkthrough.checker import check  # noqa: E402
from walkthrough.runner import shipped_version  # noqa: E402


def best_seconds(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    exercises = [e for c in discover() for e in c.exercises]
    start = time.perf_counter()
    check(exercises[0], exercises[0].solution_file)  # imports the port once
    print(f"first check in this process (imports the port): {time.perf_counter() - start:.3f} s\n")
    env = {**os.environ, "MINIKUBELET_LANG": "en"}
    print(f"{'exercise':<28} {'shipped':>9} {'solution':>9} {'fresh command':>14}")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        env["MINIKUBELET_WALKTHROUGH_PROGRESS"] = str(Path(tmp) / "progress.json")
        for exercise in exercises:
            shipped = Path(tmp) / f"{exercise.name}.py"
            shipped.write_text(shipped_version(exercise), encoding="utf-8")
            failing = best_seconds(lambda e=exercise, f=shipped: check(e, f), repeats)
            passing = best_seconds(lambda e=exercise: check(e, e.solution_file), repeats)
            cold = best_seconds(
                lambda e=exercise: subprocess.run(
                    [sys.executable, "-m", "walkthrough", "check", e.name],
                    cwd=ROOT,
                    env=env,
                    capture_output=True,
                    check=False,
                ),
                max(3, repeats // 2),
            )
            worst = max(worst, failing, passing, cold)
            print(f"{exercise.key:<28} {failing:>8.3f}s {passing:>8.3f}s {cold:>13.3f}s")
    verdict = "under" if worst < 0.5 else "OVER"
    print(f"\nslowest: {worst:.3f} s ({verdict} the 0.5 s goal)")


if __name__ == "__main__":
    main()
