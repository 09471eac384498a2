"""How long the runner takes to check one exercise: in process, and as a fresh command.

For every exercise: the best of a few runs (as timeit reports: the others measure the machine's
other work) of ``check()`` on the shipped file (fails) and on the reference (the port's code,
passes) once the check server has imported the port, as ``watch`` pays after each save; then the
wall-clock time of a fresh ``python -m walkthrough check NAME`` on a copy of the chapters
(interpreter start, the check server and imports included), as a learner pays it. The goal is
under 0.5 s for the first two.

    python bench/bench_walkthrough.py [repeats]
"""

from __future__ import annotations

import os
import shutil
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


def best_seconds(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def check_latencies(repeats: int) -> tuple[float, list[tuple[str, float, float, float]]]:
    """The first check's seconds, then (exercise, shipped, reference, fresh command) seconds."""
    exercises = [e for c in discover() for e in c.exercises]
    env = {**os.environ, "MINIKUBELET_LANG": "en"}
    rows: list[tuple[str, float, float, float]] = []
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
            rows.append((exercise.key, failing, passing, cold))
    return first, rows


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    first, rows = check_latencies(repeats)
    print(f"first check (starts the check server): {first:.3f} s\n")
    print(f"{'exercise':<28} {'shipped':>9} {'reference':>10} {'fresh command':>14}")
    for key, failing, passing, cold in rows:
        print(f"{key:<28} {failing:>8.3f}s {passing:>9.3f}s {cold:>13.3f}s")
    worst = max(max(f, p) for _, f, p, _ in rows)
    verdict = "under" if worst < 0.5 else "OVER"
    print(f"\nslowest check after a save: {worst:.3f} s ({verdict} the 0.5 s goal)")


if __name__ == "__main__":
    main()
