"""Benchmark of the ``minikubelet`` command's start-up: ``--version`` and ``--help``.

Run: ``python bench/bench_cli.py [--n 10]``. Prints the median wall time of each command beside
a bare ``python -c pass`` (the interpreter's own start-up) and ``run --until 1ms``; asserts
nothing.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "minikubelet --version": [sys.executable, "-m", "minikubelet.sim.cli", "--version"],
    "minikubelet --help": [sys.executable, "-m", "minikubelet.sim.cli", "--help"],
    "minikubelet run --until 1ms": [
        sys.executable,
        "-m",
        "minikubelet.sim.cli",
        "run",
        "--manifests",
        str(ROOT / "examples" / "static-pods"),
        "--until",
        "1ms",
    ],
}


def median_seconds(cmd: list[str], n: int) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10, help="runs per command (default 10)")
    args = parser.parse_args()
    for name, cmd in COMMANDS.items():
        print(f"{name:<32} {median_seconds(cmd, args.n) * 1000:8.0f} ms (median of {args.n})")


if __name__ == "__main__":
    main()
