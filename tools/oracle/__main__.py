"""The oracle's command line (ours): write the goldens from the built Go oracle, or diff the port.

    python -m tools.oracle goldens BIN   # run BIN on every scenario at each level, write
                                         # tests/oracle/golden/ and its kubelet/ and volumes/
    python -m tools.oracle diff [--level runtime|kubelet|volumes] [NAME…]
                                         # the port against the goldens, with the accepted rules

``make oracle`` builds BIN (tools/oracle/build.sh) and runs ``goldens``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.oracle import compare


def goldens(binary: str) -> int:
    """Run the Go oracle on every scenario at each level; replace the goldens only when all of
    them ran."""
    tmp = Path(tempfile.mkdtemp(prefix="golden.", dir=compare.GOLDEN.parent))
    written = {}
    try:
        for level in compare.LEVELS:
            names = compare.scenario_names(level)
            out = tmp if level == "runtime" else tmp / level
            out.mkdir(exist_ok=True)
            for name in names:
                run = subprocess.run(
                    [binary, str(compare.SCENARIOS / f"{name}.yaml")],
                    capture_output=True,
                    text=True,
                    timeout=600,
                    env={**os.environ, "ORACLE_MODE": level},
                )
                if run.returncode != 0:
                    err = run.stderr.strip().splitlines()[-1:] or ["(no output)"]
                    print(
                        f"oracle: scenario {name} ({level} level) failed "
                        f"(rc={run.returncode}): {err[0]}",
                        file=sys.stderr,
                    )
                    return 1
                lines = compare.normalise(level, run.stdout.splitlines())
                text = compare.header(level) + "\n" + "\n".join(lines) + "\n"
                (out / f"{name}.trace").write_text(text)
            written[level] = len(names)
        if compare.GOLDEN.exists():
            shutil.rmtree(compare.GOLDEN)
        tmp.rename(compare.GOLDEN)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    counts = ", ".join(f"{n} at the {level} level" for level, n in written.items())
    print(f"oracle: wrote goldens to {compare.GOLDEN}: {counts}")
    return fmt_golden(Path(binary).with_name("fmtcheck"))


def fmt_golden(binary: Path) -> int:
    """Run the Go program that prints kubelet's values as its log lines do (fmtcheck, built
    next to the oracle) and write its output to tests/oracle/fmt.golden."""
    run = subprocess.run([str(binary)], capture_output=True, timeout=60)
    if run.returncode != 0:
        print(f"oracle: {binary} failed (rc={run.returncode})", file=sys.stderr)
        return 1
    compare.FMT_GOLDEN.write_bytes(compare.HEADER.encode() + b"\n" + run.stdout)
    print(f"oracle: wrote {compare.FMT_GOLDEN}")
    return 0


def diff(names: list[str], level: str = "runtime") -> int:
    """Print each scenario's verdict, and the differences the rules do not accept."""
    bad = 0
    for name in names or compare.scenario_names(level):
        d = compare.diff(name, level=level)
        print(f"{name}: {'matches' if not d else f'{len(d)} differing lines'}")
        if d:
            bad += 1
            print("\n".join(d[:40]))
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.oracle")
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("goldens", help="run the built Go oracle on every scenario")
    g.add_argument("binary")
    d = sub.add_parser("diff", help="compare the port with the goldens")
    d.add_argument("--level", choices=tuple(compare.LEVELS), default="runtime")
    d.add_argument("names", nargs="*")
    a = p.parse_args(argv)
    if a.cmd == "goldens":
        return goldens(a.binary)
    return diff(a.names, a.level)


if __name__ == "__main__":
    sys.exit(main())
