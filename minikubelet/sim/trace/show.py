"""``minikubelet trace show FILE``: a trace in the terminal, one line per step. Ours, not kubelet's.

Nothing here is kubelet output: kubelet records no such trace. Each line is a step of the port's
run (see `minikubelet.sim.trace` for what a step is), in columns a learner reads left to right:

```
  time  goroutine                 pod                         where (Go)                                  step
0.100s  1 main                    default/nginx-minikubelet   Run › syncLoop › syncLoopIteration          log: "SyncLoop ADD" …
0.100s  14 podWorker default/ng…  default/nginx-minikubelet   SyncPod › startContainer › CreateContainer  container runtime: CreateContainer nginx for …
```

*time* is virtual time since the run started; *goroutine* is the one that took the step (its
number and name, as the recording named it); *pod* is the pod the step is about (its own field,
else the pod of its goroutine, else the pods its value or log line names); *where* is the call
path of Go functions the step's Python lines port (the innermost three, or as many as fit;
Python names where the trace has no Go lines); *step* is the sentence the site's player shows (`explain`). The state
the sentences need is replayed from the first step (`replay`), whatever the filters hide.

On a terminal the lines are coloured with ``rich`` (installed with the ``xref`` extra; plain
text without it); piped or redirected, they are plain text with the same columns.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from minikubelet.base.i18n import both, text

from .explain import explain
from .replay import SHOWN, Context, State, channel_labels, focus_of

#: Widest a column but the last may be (longer text ends in "…").
WIDTHS = {"g": 24, "pod": 34, "where": 48}
#: How many functions of a step's call path are shown (the innermost ones).
PATH = 3
#: Columns a sentence needs beside the others for the coloured listing to keep one row a step.
SENTENCE_WIDTH = 60
#: Lines handed to rich at a time (a long trace streams instead of waiting for its end).
CHUNK = 200


class PodNotFound(ValueError):
    """``--pod NAME`` names no pod of the trace, or several."""


@dataclass
class Filters:
    """Which steps to show: all that match every filter given."""

    kinds: tuple[str, ...] = SHOWN
    pod: str | None = None  # namespace/name, as the trace names pods
    since: float = 0.0  # seconds of virtual time
    until: float | None = None


@dataclass
class Row:
    """One line of the listing."""

    t: int  # nanoseconds since the run started
    goroutine: str
    pod: str
    where: str
    kind: str
    step: str
    severity: str = ""  # a log line's: I, W or E


_KV_POD = re.compile(r'\bpod="([^"]+)"')
_KV_PODS = re.compile(r"\bpods=\[([^\]]*)\]")


def pods_of_trace(trace: dict[str, Any]) -> list[str]:
    """The pods a trace names (``namespace/name``), in the order it first names them: a step's
    own ``pod`` field, and a log line's ``pod="…"`` and ``pods=[…]`` (klog's keys)."""
    seen: dict[str, None] = {}
    for step in trace["steps"]:
        if "pod" in step:
            seen.setdefault(step["pod"], None)
        elif step["k"] == "log":
            for m in _KV_POD.finditer(step["kv"]):
                seen.setdefault(m.group(1), None)
            for m in _KV_PODS.finditer(step["kv"]):
                for name in m.group(1).split():
                    seen.setdefault(name, None)
    return [p for p in seen if "/" in p]


def find_pod(trace: dict[str, Any], name: str) -> str:
    """The pod ``--pod NAME`` means: ``namespace/name`` as given, or a name without its
    namespace that only one pod of the trace has. Raises `PodNotFound` saying which it has."""
    pods = pods_of_trace(trace)
    if name in pods:
        return name
    matches = [p for p in pods if p.split("/", 1)[1] == name]
    if len(matches) == 1:
        return matches[0]
    listed = ", ".join(pods) if pods else "-"
    if matches:
        raise PodNotFound(
            both(
                f"--pod {name}: several pods have that name: {', '.join(matches)}; "
                "give namespace/name",
                f"--pod {name}：有多个 Pod 叫这个名字：{'、'.join(matches)}；请写成 命名空间/名称",
            )
        )
    raise PodNotFound(
        both(
            f"--pod {name}: the trace has no such pod; its pods: {listed}",
            f"--pod {name}：trace 中没有这个 Pod；其中的 Pod 有：{listed}",
        )
    )


def _short(symbol: str) -> str:
    """``syncPod`` for ``(*Kubelet).syncPod``; ``start`` for ``Manager.sync_pod.<locals>.start``."""
    return symbol.replace(".<locals>", "").rsplit(".", 1)[-1]


def call_path(trace: dict[str, Any], step: dict[str, Any]) -> str:
    """The Go functions the step is in, outer to inner, the innermost `PATH` of them (Python's
    names where the trace has no Go for the step)."""
    locations = [trace["locations"][i] for i in reversed(step["at"])]
    mapped = [loc for loc in locations if "go" in loc]
    names: list[str] = []
    for loc in mapped or locations:  # Python's own helpers left out where the Go is known
        name = _short(loc["go"]["symbol"] if "go" in loc else loc["fn"])
        if not names or names[-1] != name:
            names.append(name)
    names = names[-PATH:]
    while len(names) > 1 and width(" › ".join(names)) > WIDTHS["where"]:
        names = names[1:]  # the innermost functions matter most: the outer ones give way
    return " › ".join(names)


class _Pods:
    """Finds the pods a step is about."""

    def __init__(self, trace: dict[str, Any]) -> None:
        pods = sorted(pods_of_trace(trace), key=len, reverse=True)
        alternatives = "|".join(re.escape(p) for p in pods)
        self.names = re.compile(rf"(?<![\w.-])(?:{alternatives})(?![\w.-])") if pods else None
        self.goroutines = {g["id"]: g["name"] for g in trace["goroutines"]}

    def of(self, step: dict[str, Any]) -> list[str]:
        if "pod" in step:
            return [step["pod"]]
        if self.names is None:
            return []
        found: dict[str, None] = {}
        goroutine = self.goroutines.get(step["g"], "")
        # A goroutine started is about its own pod; other steps about their goroutine's pod,
        # else the pods their value or log line names.
        for where in (step.get("name"), goroutine, step.get("v"), step.get("kv")):
            if isinstance(where, str):
                found.update(dict.fromkeys(self.names.findall(where)))
            if found:
                break
        return list(found)


def rows(trace: dict[str, Any], lang: str, filters: Filters | None = None) -> Iterator[Row]:
    """The lines of the listing of ``trace`` in ``lang``, the steps ``filters`` keep."""
    f = filters or Filters()
    state = State()
    ctx = Context(trace, channel_labels(trace), state)
    pods = _Pods(trace)
    names = {g["id"]: g["name"] for g in trace["goroutines"]}
    for step in trace["steps"]:
        ctx.before = dict(state.w)
        state.apply(step)
        seconds = step["t"] / 1e9
        if f.until is not None and seconds > f.until:
            break
        if step["k"] not in f.kinds or seconds < f.since:
            continue
        about = pods.of(step)
        if f.pod is not None and f.pod not in about:
            continue
        focus = focus_of(trace, step)
        ctx.focus = None if focus is None else trace["locations"][focus]
        g = step["g"]
        yield Row(
            t=step["t"],
            goroutine=f"{g} {names.get(g, '?')}" if g else text("timer", "计时器", lang),
            pod=" ".join(about[:1]) + (f" +{len(about) - 1}" if len(about) > 1 else ""),
            where=call_path(trace, step),
            kind=step["k"],
            step=explain(step, ctx, lang),
            severity=step.get("sev", ""),
        )


def header(trace: dict[str, Any], lang: str) -> list[str]:
    """What the listing says before its lines: the command, the run, and that it is ours."""
    xref = trace.get("xref")
    steps = len(trace["steps"])
    clock = {"virtual": text("virtual", "虚拟", lang), "real": text("real", "真实", lang)}.get(
        trace["clock"], "?"
    )
    if xref is None:
        go = text("no Go lines", "没有 Go 代码行", lang)
    else:
        read = ", ".join(xref["read_from"]) or xref["tag"]
        go = text(f"Go lines of {read}", f"Go 代码行取自 {read}", lang)
    lines = [
        text(
            f"trace of: {trace['command'] or '?'}",
            f"trace 来自：{trace['command'] or '?'}",
            lang,
        ),
        text(
            f"seed {trace['seed']}, {clock} clock, {steps} steps, {go}",
            f"种子 {trace['seed']}，{clock}时钟，共 {steps} 步，{go}",
            lang,
        ),
        text(
            "minikubelet's own record of the run (not kubelet output); times are since the start",
            "这是 minikubelet 自己对这次运行的记录（不是 kubelet 的输出）；时间从运行开始算起",
            lang,
        ),
    ]
    if trace["truncated"]:
        lines.append(
            text(
                "the run made more steps than were kept: the trace stops early",
                "这次运行的步数超过了记录上限：trace 提前结束",
                lang,
            )
        )
    return lines


def columns(lang: str) -> tuple[str, ...]:
    """The column titles."""
    return (
        text("time", "时间", lang),
        "goroutine",
        "Pod" if lang == "zh" else "pod",
        text("where (Go)", "位置（Go）", lang),
        text("step", "步骤", lang),
    )


def _cells(row: Row) -> tuple[str, ...]:
    return (f"{row.t / 1e9:.3f}s", row.goroutine, row.pod, row.where, row.step)


def width(s: str) -> int:
    """Columns ``s`` takes in a terminal (a Chinese character takes two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def _cut(s: str, w: int) -> str:
    """``s`` cut to ``w`` columns, ending in "…" when cut."""
    if width(s) > w:
        while width(s) > w - 1:
            s = s[:-1]
        s += "…"
    return s


def _fit(s: str, w: int) -> str:
    """``s`` cut to ``w`` columns and padded to them."""
    s = _cut(s, w)
    return s + " " * (w - width(s))


def _widths(titles: tuple[str, ...], shown: list[Row]) -> list[int]:
    caps = [None, WIDTHS["g"], WIDTHS["pod"], WIDTHS["where"]]
    out = []
    for i, cap in enumerate(caps):
        w = max([width(titles[i]), *(width(_cells(r)[i]) for r in shown)])
        out.append(w if cap is None else min(w, cap))
    return out


def footer(shown: int, total: int, lang: str) -> str:
    """The line after the listing: how many steps it showed."""
    if shown == 0:
        return text(
            f"no step of the {total} matches the filters",
            f"{total} 步中没有符合筛选条件的",
            lang,
        )
    return text(f"{shown} of {total} steps shown", f"共 {total} 步，显示了 {shown} 步", lang)


def render(
    trace: dict[str, Any],
    out: TextIO,
    lang: str,
    filters: Filters | None = None,
    color: bool | None = None,
) -> int:
    """Print the listing of ``trace`` to ``out``; the number of lines shown. ``color``: None
    colours when ``out`` is a terminal and ``rich`` is installed."""
    shown = list(rows(trace, lang, filters))
    titles = columns(lang)
    widths = _widths(titles, shown)
    if color is None:
        color = out.isatty()
    console = _console(out) if color else None
    if console is None:
        for line in header(trace, lang):
            out.write(line + "\n")
        out.write("\n")
        table = [titles, *(_cells(r) for r in shown)]
        for cells in table:
            first = cells[0].rjust(widths[0])
            middle = [_fit(c, w) for c, w in zip(cells[1:4], widths[1:], strict=True)]
            out.write("  ".join([first, *middle, cells[4]]).rstrip() + "\n")
    else:
        _rich(console, trace, lang, titles, widths, shown)
    end = footer(len(shown), len(trace["steps"]), lang)
    if console is None:
        out.write(f"\n{end}\n")
    else:
        console.print(f"\n{end}", style="dim", markup=False)
    return len(shown)


def _console(out: TextIO) -> Any:
    """A rich console on ``out``, or None when rich is not installed."""
    try:
        from rich.console import Console
    except ImportError:  # rich comes with the cross-linker's extra; plain text without it
        return None
    return Console(file=out, highlight=False, soft_wrap=False)


#: Colours of the step column by kind (rich styles).
STYLES = {
    "select": "bold blue",
    "wait": "blue",
    "worker": "bold magenta",
    "cri": "bold yellow",
    "cgroup": "bold cyan",
    "status": "bold green",
    "go": "cyan",
    "exit": "dim cyan",
}


def _style(row: Row) -> str:
    if row.kind == "log":
        return {"E": "bold red", "W": "yellow"}.get(row.severity, "")
    return STYLES.get(row.kind, "")


def _rich(
    console: Any,
    trace: dict[str, Any],
    lang: str,
    titles: tuple[str, ...],
    widths: list[int],
    shown: list[Row],
) -> None:
    """The listing in colour: one row a step where the terminal is wide enough for the columns
    and a sentence, else two lines a step (the columns, then the sentence below them)."""
    from rich.console import Group
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    for i, line in enumerate(header(trace, lang)):
        console.print(Text(line, style="bold" if i == 0 else "dim"))
    console.print()
    wide = console.width >= sum(widths) + 2 * len(widths) + SENTENCE_WIDTH
    colours = ("dim", "cyan", "magenta", "green")

    def grid(heading: bool) -> Any:
        table = Table.grid(padding=(0, 2))
        table.add_column(justify="right", style="dim", min_width=widths[0], no_wrap=True)
        for w, style in zip(widths[1:], colours[1:], strict=True):
            table.add_column(style=style, width=w, no_wrap=True, overflow="ellipsis")
        table.add_column(ratio=1, overflow="fold")
        if heading:
            table.add_row(*(Text(t, style="bold underline") for t in titles))
        return table

    def record(row: Row) -> Any:
        cells = _cells(row)
        first = Text(no_wrap=True, overflow="ellipsis")
        first.append(cells[0].rjust(widths[0]), style="dim")
        for cell, w, style in zip(cells[1:4], widths[1:], colours[1:], strict=True):
            if cell:
                first.append("  ")
                first.append(_cut(cell, w), style=style)
        return Group(first, Padding(Text(row.step, style=_style(row)), (0, 0, 0, widths[0] + 2)))

    table = grid(heading=True) if wide else None
    batch: list[Any] = []
    for n, row in enumerate(shown, 1):
        if table is not None:
            table.add_row(*(Text(c) for c in _cells(row)[:4]), Text(row.step, style=_style(row)))
        else:
            batch.append(record(row))
        if n % CHUNK == 0:
            console.print(table if table is not None else Group(*batch))
            table, batch = (grid(heading=False) if wide else None), []
    if table is not None or batch:
        console.print(table if table is not None else Group(*batch))
