"""How long the runner takes to check one exercise: in process, and as a fresh command.

For every exercise: the best of a few runs (as timeit reports: the others measure the machine's
other work) of ``check()`` on the shipped file (fails) and on the reference (the port's code,
passes) once the check server has imported the port, as ``watch`` pays after each save; then a
fresh ``python -m walkthrough check NAME`` on a copy of the chapters, as a learner pays it, in
two cases: **cold**, no check server running (the command starts one, which imports the port),
and **warm**, the server left running by an earlier command (walkthrough/checkserver.py). Each
gives its wall-clock seconds and the CPU seconds of every process that worked for it (the
runner, the server when the command started it, the check's process), which a busy machine
does not inflate as much. The goal (issue 24): a median under 0.5 s for the fresh command.

Python keeps its bytecode cache as a learner's does (``PYTHONDONTWRITEBYTECODE`` is removed
from the commands' environment, so the first import writes it); ``--no-bytecode`` measures
without any (every module compiled from source on each import, the standard library too).

    python bench/bench_walkthrough.py [--no-bytecode] [repeats]

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
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from walkthrough import checkserver  # noqa: E402
from walkthrough.catalog import PACKAGE_DIR, discover  # noqa: E402
from walkthrough.checker import check  # noqa: E402
from walkthrough.derive import learner_text, reference_text  # noqa: E402
from walkthrough.proctree import become_subreaper  # noqa: E402


class Row(NamedTuple):
    """One exercise's seconds: a check after a save, on the shipped file (fails) and on the
    reference (passes); the fresh command with a cold and with a warm check server."""

    exercise: str
    shipped: float
    reference: float
    cold_wall: float
    cold_cpu: float
    warm_wall: float
    warm_cpu: float

    @property
    def after_save(self) -> float:
        return max(self.shipped, self.reference)


def best_seconds(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def command_seconds(how: str, command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``command`` and every process that worked for it, measured by
    a fresh process of this script that adopts them all (a subreaper) and waits for each;
    ``how``: ``cold`` (no check server before) or ``warm`` (the one running is kept)."""
    done = subprocess.run(
        [sys.executable, __file__, "--tree", how, *command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    wall, cpu = done.stdout.split()
    return float(wall), float(cpu)


def server_cpu() -> float:
    """CPU seconds the running check server has used, its checks' processes included."""
    pid = checkserver.server_pid()
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError, TypeError):
        return 0.0
    # utime, stime, and those of its children it has waited for (the checks), in clock ticks
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def tree(how: str, command: list[str]) -> None:
    """``--tree cold|warm COMMAND...``: print the wall seconds of ``command`` and the CPU seconds
    of it, of every process it started and of the server's work for it."""
    become_subreaper()
    if how == "cold":
        checkserver.stop()
    before = server_cpu()  # a server already running works for the command too
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    served = server_cpu() - before if before else 0.0
    started = checkserver.server_pid()
    if how == "cold":
        checkserver.stop()  # the one the command started is ours now: end it, count all of it
    ended = set()
    while True:  # the processes it left are ours now: wait for each
        try:
            ended.add(os.wait()[0])
        except ChildProcessError:
            break
    if how == "cold" and started not in ended:
        sys.exit(f"the command used a check server it did not start ({started}): not cold")
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{wall:.4f} {used.ru_utime + used.ru_stime + served:.4f}")


def command_env(tmp: Path, bytecode: bool) -> dict[str, str]:
    """The fresh commands' environment: the chapters' copy, and the bytecode cache or none."""
    env = {**os.environ, "MINIKUBELET_LANG": "en"}
    env["MINIKUBELET_WALKTHROUGH_DIR"] = str(tmp / "walkthrough")
    env["MINIKUBELET_WALKTHROUGH_PROGRESS"] = str(tmp / "progress.json")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not bytecode:  # nothing cached is found (an empty cache folder), nothing is written
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "no-bytecode")
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def check_latencies(
    repeats: int, bytecode: bool = True, sample: bool = False
) -> tuple[float, list[Row]]:
    """The first check's seconds, then a row of seconds per exercise; with ``sample``, only
    the first exercise of each chapter, and one fresh command of each kind (a quick measurement)."""
    chapters = discover()
    exercises = [e for c in chapters for e in c.exercises]
    measured = [c.exercises[0] for c in chapters if c.exercises] if sample else exercises
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        for chapter in sorted(PACKAGE_DIR.glob("ch[0-9][0-9]")):
            shutil.copytree(
                chapter,
                Path(tmp) / "walkthrough" / chapter.name,
                ignore=shutil.ignore_patterns("exercise.py"),
            )
        env = command_env(Path(tmp), bytecode)
        start = time.perf_counter()
        first_file = Path(tmp) / "first.py"
        first_file.write_text(reference_text(exercises[0], exercises, "en"), encoding="utf-8")
        check(exercises[0], first_file)  # starts the check server, which imports the port once
        first = time.perf_counter() - start
        runs = 1 if sample else max(3, repeats // 2)
        try:
            for exercise in measured:
                shipped = Path(tmp) / f"{exercise.name}.py"
                shipped.write_text(learner_text(exercise, exercises, "en"), encoding="utf-8")
                reference = Path(tmp) / f"{exercise.name}-reference.py"
                reference.write_text(reference_text(exercise, exercises, "en"), encoding="utf-8")
                failing = best_seconds(lambda e=exercise, f=shipped: check(e, f), repeats)
                passing = best_seconds(lambda e=exercise, f=reference: check(e, f), repeats)
                command = [sys.executable, "-m", "walkthrough", "check", exercise.name]
                cold = [command_seconds("cold", command, env) for _ in range(runs)]
                subprocess.run(command, env=env, capture_output=True, check=False)  # a server
                warm = [command_seconds("warm", command, env) for _ in range(runs)]
                rows.append(Row(exercise.key, failing, passing, *best(cold), *best(warm)))
        finally:
            checkserver.stop()
            stop = "from walkthrough import checkserver; checkserver.stop()"
            subprocess.run([sys.executable, "-c", stop], cwd=ROOT, env=env, check=False)
    return first, rows


def best(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The least wall and the least CPU seconds of a few runs."""
    return min(w for w, _ in runs), min(c for _, c in runs)


def main() -> None:
    if sys.argv[1:2] == ["--tree"]:
        tree(sys.argv[2], sys.argv[3:])
        return
    args = sys.argv[1:]
    bytecode = "--no-bytecode" not in args
    args = [a for a in args if a != "--no-bytecode"]
    repeats = int(args[0]) if args else 5
    first, rows = check_latencies(repeats, bytecode)
    cache = "with the bytecode cache" if bytecode else "without any bytecode cache"
    print(f"{cache}; first check (starts the check server): {first:.3f} s\n")
    print(f"{'':<28} {'after a save':^20} {'fresh, cold server':^20} {'fresh, warm server':^20}")
    print(
        f"{'exercise':<28} {'shipped':>9} {'reference':>10} {'wall':>9} {'CPU':>10}"
        f" {'wall':>9} {'CPU':>10}"
    )
    for key, failing, passing, cold_wall, cold_cpu, warm_wall, warm_cpu in rows:
        print(
            f"{key:<28} {failing:>8.3f}s {passing:>9.3f}s {cold_wall:>8.3f}s {cold_cpu:>9.3f}s"
            f" {warm_wall:>8.3f}s {warm_cpu:>9.3f}s"
        )
    worst = max(r.after_save for r in rows)
    print(f"\nslowest check after a save: {worst:.3f} s")
    for label, (wall, cpu) in medians(rows).items():
        verdict = "under" if cpu <= 0.5 else "OVER"
        print(
            f"fresh command, {label} server, median: {cpu:.3f} s CPU ({verdict} the 0.5 s goal), "
            f"{wall:.3f} s wall"
        )


def medians(rows: list[Row]) -> dict[str, tuple[float, float]]:
    """The fresh command's median wall and CPU seconds, with a cold and a warm server."""
    return {
        "cold": (
            statistics.median(r.cold_wall for r in rows),
            statistics.median(r.cold_cpu for r in rows),
        ),
        "warm": (
            statistics.median(r.warm_wall for r in rows),
            statistics.median(r.warm_cpu for r in rows),
        ),
    }


if __name__ == "__main__":
    main()
