"""What the page's trace player loads: the steps to show, their sentences, state and code.

`build` turns a resolved trace (`tools.trace.record`) into one JSON document per page
language, which the ``trace`` directive embeds in the page for ``trace.js``::

    {"v": 1, "id": "03-1", "lang": "en", "command": "…", "seed": 0, "mode": "source",
     "gh": "https://github.com/kubernetes/kubernetes/blob/v1.21.3/",
     "total": 412,                      # steps in the trace before the directive's filters
     "fns":  [{"py": file, "fn": qualname, "ps": first line, "lines": [html, …],
               "go": null | {"path", "sym", "s", "e", "lines": [html, …] | null,
                             "cases": [[start, end, text], …]}}, …],
     "locs": [{"f": fn, "py": line, "go": line | null, "gf": from, "gt": to,
               # a select's: each case's lines and channel (Go name), its default's lines
               "sel": [[go line, py line] | null, …], "names": [name, …], "dflt": [go, py] | null}, …],
     "chans": [{"id", "label", "name", "cap"}, …],   # the channels the state panel shows
     "gs": {"1": "main", …},
     "init": {"ch": {id: [item, …]}, "w": {pod: [working, pending]}, "p": {pod: pod state}},
     "steps": [{"t": ns, "g": id, "k": kind, "l": loc | null, "s": sentence,
                "r": [ready case indexes], "c": chosen case index,   # selects only
                "d": {"ch": …, "w": …, "p": …}}, …]}       # what changed since the last step

A pod state is ``{"phase", "reason", "containers": [[name, state, ready]], "init": […]}``.
Code lines are HTML with Pygments' short classes (``<span class="k">func</span>``).
"""

from __future__ import annotations

import ast
import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minikubelet.sim.trace.explain import channel_of_case, explain
from minikubelet.sim.trace.replay import SHOWN, Context, State, channel_labels, focus_of
from tools.site.sidebyside import dedent, highlight_lines
from tools.xref import Index

from .resolve import Resolver

FORMAT_VERSION = 1
#: Steps shown when the directive does not say otherwise (a chapter's trace stays small).
LIMIT = 400
#: Longest sentence kept.
SENTENCE = 240


@dataclass
class Options:
    """What of a trace a player shows (the ``trace`` directive's options)."""

    kinds: tuple[str, ...] = SHOWN
    #: Keep only steps with one of these on their stack (Go symbols or Python qualnames).
    within: tuple[str, ...] = ()
    #: Keep only steps that happen in one of these (their innermost mapped function).
    focus: tuple[str, ...] = ()
    start: float = 0.0  # seconds of virtual time
    end: float | None = None
    limit: int = LIMIT
    #: Channels the state panel shows, by label; empty: every buffered channel the steps use.
    channels: tuple[str, ...] = ()
    #: Keep only the log lines whose message matches this regular expression.
    grep: str | None = None


def _keep(trace: dict[str, Any], step: dict[str, Any], opts: Options) -> bool:
    if step["k"] not in opts.kinds:
        return False
    if opts.grep is not None and step["k"] == "log" and not re.search(opts.grep, step["msg"]):
        return False
    t = step["t"] / 1e9
    if t < opts.start or (opts.end is not None and t > opts.end):
        return False
    if opts.within and not _names(trace, step.get("at") or []) & set(opts.within):
        return False
    if opts.focus:
        focus = focus_of(trace, step)
        if focus is None or not _names(trace, [focus]) & set(opts.focus):
            return False
    return True


def _names(trace: dict[str, Any], at: list[int]) -> set[str]:
    """The Python qualnames and Go symbols of these locations."""
    names = set()
    for i in at:
        loc = trace["locations"][i]
        names.add(loc["fn"])
        if "go" in loc:
            names.add(loc["go"]["symbol"])
    return names


#: Pygments classes left out of the player's code: names (Go's are `nx`) and whitespace have the
#: code's own colour in mkdocs-material, so their spans would only add weight.
PLAIN = {"", "n", "nx", "w"}


def _line_html(tokens: list[Any]) -> str:
    """One line of highlighted code as HTML, adjacent tokens of one class merged."""
    runs: list[list[str]] = []
    for t in tokens:
        cls = "" if t.cls in PLAIN else t.cls
        if runs and runs[-1][0] == cls:
            runs[-1][1] += t.text
        else:
            runs.append([cls, t.text])
    return "".join(
        f'<span class="{cls}">{html.escape(text, quote=False)}</span>'
        if cls
        else html.escape(text, quote=False)
        for cls, text in runs
    )


def _code(lines: list[str], language: str) -> list[str]:
    return [_line_html(toks) for toks in highlight_lines("\n".join(lines) + "\n", language)]


class _Functions:
    """The functions the player shows, each once, with their code."""

    def __init__(self, index: Index, resolver: Resolver, root: Path) -> None:
        self.index, self.resolver, self.root = index, resolver, root
        self.items: list[dict[str, Any]] = []
        self._ids: dict[tuple[str, int], int] = {}
        self.blocks: dict[int, list[Any]] = {}

    def of(self, loc: dict[str, Any]) -> int | None:
        where = self.resolver.where(loc["py"], loc["line"]) if "go" in loc else None
        if where is not None:
            m = where.mapping
            start, end = m.py_start, m.py_end
        else:
            span = _def_around(self.resolver.python(loc["py"]), loc["line"])
            if span is None:
                return None
            start, end = span
        key = (loc["py"], start)
        if key in self._ids:
            return self._ids[key]
        text = (self.root / loc["py"]).read_text(encoding="utf-8").splitlines()
        item: dict[str, Any] = {
            "py": loc["py"],
            "fn": loc["fn"] if where is None else where.mapping.py_qualname,
            "ps": start,
            "lines": _code(dedent(text[start - 1 : end]), "python"),
            "go": None,
        }
        if where is not None:
            m = where.mapping
            # The resolver indexes resolved mappings only: their Go lines are known.
            assert m.go_start is not None and m.go_end is not None
            go_lines = self.resolver.go_lines(m.go_path)
            item["go"] = {
                "path": m.go_path,
                "sym": m.go_symbol,
                "s": m.go_start,
                "e": m.go_end,
                "lines": None
                if go_lines is None
                else _code(go_lines[m.go_start - 1 : m.go_end], "go"),
                "cases": [
                    [b.go_start, b.go_end, b.case]
                    for b in sorted(m.blocks, key=lambda b: b.go_start)
                    if b.status == "ported"
                ],
            }
            self.blocks[len(self.items)] = m.blocks
        self._ids[key] = len(self.items)
        self.items.append(item)
        return self._ids[key]


def _def_around(tree: ast.Module | None, line: int) -> tuple[int, int] | None:
    """First and last line of the innermost def around ``line`` (decorators included)."""
    if tree is None:
        return None
    best: tuple[int, int] | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            last = node.end_lineno or node.lineno
            if first <= line <= last and (best is None or first >= best[0]):
                best = (first, last)
    return best


def _select_lines(
    go: dict[str, Any], blocks: list[Any], py_line: int
) -> tuple[list[Any] | None, list[int | None] | None]:
    """Go and Python lines of each case of the select at ``py_line``: the Python line is that of
    the anchor below the select with the same Go case text (None when there is none)."""

    def py_of(text: str | None, lines: list[int] | None) -> list[int | None] | None:
        if text is None or lines is None:
            return None
        below = [
            b for b in blocks if b.case == text and b.go_start == lines[0] and b.py_start > py_line
        ]
        return [lines[0], min(below, key=lambda b: b.py_start).py_start if below else None]

    cases = go.get("cases")
    if cases is None:
        return None, None
    sel = [py_of(text, lines) for text, lines in zip(cases, go.get("case_lines", []), strict=False)]
    dflt = py_of(go.get("default"), go.get("default_lines"))
    return sel, dflt


def build(
    trace: dict[str, Any],
    index: Index,
    root: Path,
    *,
    lang: str,
    trace_id: str,
    options: Options | None = None,
) -> dict[str, Any]:
    """The player's document for ``trace`` in ``lang`` (see the module docstring)."""
    opts = options or Options()
    resolver = Resolver(index, root)
    labels = channel_labels(trace)
    kept = [i for i, s in enumerate(trace["steps"]) if _keep(trace, s, opts)]
    total_kept = len(kept)
    kept = kept[: opts.limit]
    used: set[int] = set()
    for i in kept:
        s = trace["steps"][i]
        used.update(c for _, c in s.get("cases", ()) if c is not None)
        if "ch" in s:
            used.add(s["ch"])
    chans = [
        ch
        for ch in trace["channels"]
        if (
            labels.get(ch["id"]) in opts.channels
            if opts.channels
            else ch["id"] in used and ch["cap"] > 0
        )
    ]
    shown = {ch["id"] for ch in chans}
    fns = _Functions(index, resolver, root)
    locs: list[dict[str, Any]] = []
    loc_ids: dict[int, int] = {}
    state = State()
    ctx = Context(trace, labels, state)
    steps: list[dict[str, Any]] = []
    goroutines = {g["id"]: g["name"] for g in trace["goroutines"]}
    gs: dict[str, str] = {}
    keep = set(kept)
    init: dict[str, Any] | None = None
    last = kept[-1] if kept else -1
    for i, step in enumerate(trace["steps"][: last + 1]):
        if i in keep and init is None:
            init = state.take(shown, everything=True)
        ctx.before = dict(state.w)
        state.apply(step)
        if i not in keep:
            continue
        focus = focus_of(trace, step)
        ctx.focus = None if focus is None else trace["locations"][focus]
        out: dict[str, Any] = {"t": step["t"], "g": step["g"], "k": step["k"]}
        out["l"] = None if focus is None else _loc(focus, trace, fns, locs, loc_ids)
        sentence = explain(step, ctx, lang)
        out["s"] = sentence if len(sentence) <= SENTENCE else sentence[: SENTENCE - 1] + "…"
        if step["k"] == "select":
            out["r"], out["c"] = step["ready"], step["chosen"]
        delta = state.take(shown)
        if delta:
            out["d"] = delta
        if step["g"]:
            gs[str(step["g"])] = goroutines.get(step["g"], "?")
        steps.append(out)
    tag = (trace.get("xref") or {}).get("tag", index.tag)
    return {
        "v": FORMAT_VERSION,
        "id": trace_id,
        "lang": lang,
        "command": trace.get("command"),
        "seed": trace.get("seed"),
        "mode": index.mode,
        "gh": f"https://github.com/kubernetes/kubernetes/blob/{tag}/",
        "total": total_kept,
        "fns": fns.items,
        "locs": locs,
        "chans": [
            {
                "id": ch["id"],
                "label": labels.get(ch["id"], ""),
                "name": ch["name"],
                "cap": ch["cap"],
            }
            for ch in chans
        ],
        "gs": gs,
        "init": init or {},
        "steps": steps,
    }


def _loc(
    focus: int,
    trace: dict[str, Any],
    fns: _Functions,
    locs: list[dict[str, Any]],
    loc_ids: dict[int, int],
) -> int | None:
    if focus in loc_ids:
        return loc_ids[focus]
    loc = trace["locations"][focus]
    f = fns.of(loc)
    if f is None:
        return None
    go = loc.get("go") or {}
    out: dict[str, Any] = {"f": f, "py": loc["line"], "go": go.get("line")}
    if go:
        out["gf"], out["gt"] = go["from"], go["to"]
        sel, dflt = _select_lines(go, fns.blocks.get(f, []), loc["line"])
        if sel is not None:
            out["sel"] = sel
            out["dflt"] = dflt
            out["names"] = [channel_of_case(c) for c in go["cases"]]
    loc_ids[focus] = len(locs)
    locs.append(out)
    return loc_ids[focus]
