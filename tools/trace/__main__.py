"""``python -m tools.trace "<command>" [-o FILE]``: record a command, resolve it to Go, print it."""

from __future__ import annotations

import argparse
import sys

from minikubelet.sim.trace import dumps, write

from . import TraceError, record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.trace", description=__doc__)
    parser.add_argument(
        "command", help="'minikubelet run …' or 'python walkthrough/chNN/example.py …'"
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    args = parser.parse_args(argv)
    try:
        trace = record(args.command)
    except TraceError as exc:
        print(f"tools.trace: {exc}", file=sys.stderr)
        return 2
    if args.output:
        write(trace, args.output)
    else:
        sys.stdout.write(dumps(trace))
    return 0


if __name__ == "__main__":
    sys.exit(main())
