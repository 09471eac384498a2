"""``minikubelet trace show FILE``: the command line of the trace reader. Ours, not kubelet's.

`minikubelet.sim.cli` adds these arguments to its parser and calls [`trace_show`][]; the
listing itself is `minikubelet.sim.trace.show`'s. Building the parser imports nothing of the
port (``--help`` answers at once): the kinds of step are read off the trace format's schema
as a file.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from minikubelet.base.i18n import in_language, text


def add_trace_commands(
    commands: Any, lang: str, lang_help: str, duration: Callable[[str], float]
) -> None:
    """``minikubelet trace show FILE``: the reader of what ``run --trace FILE`` writes (ours)."""
    kinds = step_kinds()
    hidden = HIDDEN_KINDS

    def t(en: str, zh: str) -> str:
        return text(en, zh, lang)

    trace = commands.add_parser(
        "trace",
        help=t("read a trace written by run --trace", "查看 run --trace 写下的 trace"),
        description=t(
            "Read a trace that 'minikubelet run --trace FILE' wrote.",
            "查看 minikubelet run --trace FILE 写下的 trace。",
        ),
    )
    trace.add_argument("--lang", choices=["en", "zh"], help=lang_help)
    actions = trace.add_subparsers(dest="trace_command", metavar="ACTION", required=True)
    show = actions.add_parser(
        "show",
        help=t("print a trace, one line per step", "逐步打印 trace，每步一行"),
        description=t(
            "Print the steps of a trace, one a line: the time since the run started, the "
            "goroutine, the pod, the Go functions it was in and what happened (a select's "
            "branch, a pod worker, a container runtime call, a log line). The listing is "
            "minikubelet's own, not kubelet output. Coloured on a terminal, plain text when "
            "piped.",
            "逐行打印 trace 的每一步：从运行开始算起的时间、goroutine、Pod、所在的 Go 函数，以及发生了"
            "什么（select 选中的分支、pod worker、容器运行时调用、日志行）。这份列表是 minikubelet "
            "自己的，不是 kubelet 的输出。在终端中带颜色显示，通过管道输出时为纯文本。",
        ),
    )
    show.add_argument("file", metavar="FILE", help=t("the trace file", "trace 文件"))
    show.add_argument("--lang", choices=["en", "zh"], help=lang_help)
    show.add_argument(
        "--pod",
        metavar="NAME",
        help=t(
            "only the steps about this pod (namespace/name, or the name alone)",
            "只显示与这个 Pod 有关的步骤（命名空间/名称，或只写名称）",
        ),
    )
    show.add_argument(
        "--kind",
        action="append",
        type=kinds_arg(lang, kinds),
        metavar="KIND[,KIND…]",
        help=t(
            f"only these kinds of step (may be repeated): {', '.join(kinds)}, or all "
            f"(default: all but {' and '.join(hidden)})",
            f"只显示这些种类的步骤（可多次给出）：{', '.join(kinds)}，或 all"
            f"（默认：除 {'、'.join(hidden)} 以外的全部）",
        ),
    )
    show.add_argument(
        "--since",
        type=duration,
        default=0.0,
        metavar="DURATION",
        help=t("only the steps from this time on, e.g. 1s", "只显示从这个时间起的步骤，例如 1s"),
    )
    show.add_argument(
        "--until",
        type=duration,
        metavar="DURATION",
        help=t(
            "only the steps up to this time, e.g. 500ms", "只显示到这个时间为止的步骤，例如 500ms"
        ),
    )


#: The kinds of step ``trace show`` leaves out unless asked (as `minikubelet.sim.trace.replay`
#: does, which a test checks: importing it here would load the port for ``--help``).
HIDDEN_KINDS = ("close", "exit")


def step_kinds() -> tuple[str, ...]:
    """The kinds of step a trace holds, as the trace format's schema lists them (read as a file:
    importing the trace package would load the port for ``--help``)."""
    schema = json.loads(
        (Path(__file__).parent / "trace" / "schema.json").read_text(encoding="utf-8")
    )
    return tuple(schema["$defs"]["step"]["properties"]["k"]["enum"])


def kinds_arg(lang: str, known: tuple[str, ...]) -> Callable[[str], tuple[str, ...]]:
    """An argparse type for ``--kind select,cri`` (``all``: every kind)."""

    def parse(value: str) -> tuple[str, ...]:
        kinds = tuple(k.strip() for k in value.split(",") if k.strip())
        if kinds == ("all",):
            return known
        unknown = [k for k in kinds if k not in known]
        if unknown or not kinds:
            raise argparse.ArgumentTypeError(
                text(
                    f"{value!r}: no such kind of step; the kinds are {', '.join(known)} (or all)",
                    f"{value!r}：没有这种步骤；步骤的种类有 {'、'.join(known)}（或 all）",
                    lang,
                )
            )
        return kinds

    return parse


def trace_show(args: argparse.Namespace, lang: str, out: TextIO) -> int:
    """``minikubelet trace show FILE``: load the trace (a bad file: one line, status 2), then
    print it (`minikubelet.sim.trace.show`)."""
    from minikubelet.sim.trace.load import TraceFileError, load
    from minikubelet.sim.trace.replay import SHOWN
    from minikubelet.sim.trace.show import Filters, PodNotFound, find_pod, render

    try:
        recorded = load(args.file)
        pod = None if args.pod is None else find_pod(recorded, args.pod)
    except (TraceFileError, PodNotFound) as err:
        print(f"minikubelet: {in_language(err, lang)}", file=sys.stderr)
        return 2
    kinds = tuple(dict.fromkeys(k for ks in args.kind for k in ks)) if args.kind else SHOWN
    filters = Filters(kinds=kinds, pod=pod, since=args.since, until=args.until)
    try:
        render(recorded, out, lang, filters)
        out.flush()
    except BrokenPipeError:  # `… | head`: the reader has seen enough
        devnull = os.open(os.devnull, os.O_WRONLY)
        with contextlib.suppress(OSError, ValueError):
            os.dup2(devnull, out.fileno())
        os.close(devnull)
    return 0
