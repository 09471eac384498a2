"""Giving each location of a trace the Go line it maps to, through the cross-linker.

A Python line maps to Go in three steps, each as precise as the facts allow:

1. the *function*: the innermost def around the line with a ``Go: <path> <symbol>`` mapping
   (``tools.xref``) gives the Go declaration and its lines;
2. the *block*: the innermost anchored case (``# Go: case …:``) around the line gives the Go
   case and its lines;
3. the *line*, when the Go text is at hand (source mode) and the step says what to look for:
   a log message is found as its string literal (kubelet's messages are kept verbatim), a call
   into the runtime by its CRI method, a ``select`` by its ``select {``, a goroutine start by
   its ``go`` statement, a sleep by ``time.Sleep(`` — searched in the block, else in the
   function, and taken only when it occurs exactly once there.

Otherwise ``line`` is the block's first line, or null with only the function known: a trace
never claims a Go line it cannot justify.  A ``select``'s case indexes are mapped to the Go
cases through the Python ``match`` that follows it: the arm each index reaches, and the anchor
above that arm.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.xref import TAG, Block, Index, Mapping, build_index, permalink

FUNCTION_KINDS = ("func", "method")
SELECT_CALLS = ("select", "try_select")
#: How a ``cri`` step's operation is written in Go (a method of the CRI services).
CRI_CALLS = {
    "RunPodSandbox": "RunPodSandbox(",
    "StopPodSandbox": "StopPodSandbox(",
    "CreateContainer": "CreateContainer(",
    "StartContainer": "StartContainer(",
    "StopContainer": "StopContainer(",
    "PullImage": "PullImage(",
}
SELECT_OPEN = re.compile(r"^\s*select\s*\{")
GO_STATEMENT = re.compile(r"^\s*go\s+\S")
#: A receive written with ``<-``, outside a select's ``case`` (a select's receive is a select
#: step) and outside a comment.
GO_RECEIVE = re.compile(r"^(?!\s*(?:case\b|//))(?:.*(?::=|[=(,]|\breturn))?\s*<-\s*[\w(]")
#: A ``for … range`` loop, which is how Go receives until a channel is closed.
GO_RANGE = re.compile(r"^\s*for\b.*\brange\s+\S")
#: A send statement: ``ch <- v``.
GO_SEND = re.compile(r"^\s*[\w.\[\]()]+\s*<-\s*\S")


@dataclass
class Where:
    """The Go of one Python line: its function, its block, and what else is known."""

    mapping: Mapping
    block: Block | None


class Resolver:
    """Maps Python lines of the port to Go lines of v1.21.3 with one cross-reference."""

    def __init__(self, index: Index, root: Path) -> None:
        self.index = index
        self.root = root
        self._by_file: dict[str, list[Mapping]] = {}
        for m in index.mappings:
            if m.resolved and m.go_kind in FUNCTION_KINDS and m.go_start is not None:
                self._by_file.setdefault(m.py_file, []).append(m)
        self._go: dict[str, list[str] | None] = {}
        self._py: dict[str, ast.Module | None] = {}

    # -- facts ------------------------------------------------------------------------------------
    def where(self, py_file: str, line: int) -> Where | None:
        """The mapped function (innermost) and anchored block (innermost) around a line."""
        around = [m for m in self._by_file.get(py_file, ()) if m.py_start <= line <= m.py_end]
        if not around:
            return None
        mapping = min(around, key=lambda m: m.py_end - m.py_start)
        blocks = [
            b for b in mapping.blocks if b.status == "ported" and b.py_start <= line <= b.py_end
        ]
        block = max(blocks, key=lambda b: (b.py_start, -b.py_end)) if blocks else None
        return Where(mapping, block)

    def go_lines(self, path: str) -> list[str] | None:
        """The lines of a Go file (source mode), else None."""
        if path not in self._go:
            text = self.index.go_source(path)
            self._go[path] = None if text is None else text.splitlines()
        return self._go[path]

    def python(self, py_file: str) -> ast.Module | None:
        if py_file not in self._py:
            try:
                self._py[py_file] = ast.parse((self.root / py_file).read_text(encoding="utf-8"))
            except (OSError, SyntaxError):
                self._py[py_file] = None
        return self._py[py_file]

    def find_once(self, path: str, start: int, end: int, pattern: Any) -> int | None:
        """The one line in ``start..end`` of a Go file matching ``pattern`` (a substring or a
        compiled regex), or None when there is none or more than one."""
        found = self.find_all(path, start, end, pattern)
        return found[0] if len(found) == 1 else None

    def find_all(self, path: str, start: int, end: int, pattern: Any) -> list[int]:
        """The lines in ``start..end`` of a Go file matching ``pattern`` (none in link-only)."""
        lines = self.go_lines(path)
        if lines is None:
            return []
        return [
            n
            for n in range(start, min(end, len(lines)) + 1)
            if (
                pattern.search(lines[n - 1])
                if isinstance(pattern, re.Pattern)
                else pattern in lines[n - 1]
            )
        ]

    # -- a location ---------------------------------------------------------------------------------
    def locate(self, location: dict[str, Any], step: dict[str, Any]) -> dict[str, Any] | None:
        """The ``go`` field of a location, from the first step seen there (see module doc)."""
        w = self.where(location["py"], location["line"])
        if w is None:
            return None
        m, b = w.mapping, w.block
        # Only resolved mappings are indexed (__init__): their Go lines are known.
        assert m.go_start is not None and m.go_end is not None
        start, end = (b.go_start, b.go_end) if b is not None else (m.go_start, m.go_end)
        line, how = None, "function"
        if b is not None:
            line, how = b.go_start, "case"
        cases: dict[str, Any] = {}
        if step.get("k") in ("select", "wait"):
            cases = self._select_cases(location, m, step)
            found = self._select_line(m, cases)
        else:
            found = self._refine(m, start, end, step)
            if found is None and b is not None:
                found = self._refine(m, m.go_start, m.go_end, step)
        if found is not None:
            line, how = found
        go: dict[str, Any] = {
            "path": m.go_path,
            "symbol": m.go_symbol,
            "start": m.go_start,
            "end": m.go_end,
            "line": line,
            "from": line if how not in ("case",) else start,
            "to": line if how not in ("case",) else end,
            "case": None if b is None else b.case,
            "how": how,
        }
        if line is None:
            go["from"], go["to"] = m.go_start, m.go_end
        go["permalink"] = permalink(m.go_path, go["from"], go["to"])
        go.update(cases)
        return go

    def _refine(
        self, m: Mapping, start: int, end: int, step: dict[str, Any]
    ) -> tuple[int, str] | None:
        kind = step.get("k")
        pattern: Any = None
        how = ""
        if kind == "log":
            pattern, how = '"' + step["msg"].replace('"', '\\"') + '"', "message"
        elif kind == "cri" and step.get("op") in CRI_CALLS:
            pattern, how = "." + CRI_CALLS[step["op"]], "call"
        elif kind == "go":
            pattern, how = GO_STATEMENT, "call"
        elif kind == "sleep":
            pattern, how = "time.Sleep(", "call"
        elif kind == "send":
            pattern, how = GO_SEND, "channel"
        elif kind == "recv":
            # A ``<-`` receive first; only a function without one receives with ``range``.
            receive = self.find_all(m.go_path, start, end, GO_RECEIVE)
            pattern, how = (GO_RECEIVE if receive else GO_RANGE), "channel"
        if pattern is None:
            return None
        line = self.find_once(m.go_path, start, end, pattern)
        return None if line is None else (line, how)

    def _select_line(self, m: Mapping, cases: dict[str, Any]) -> tuple[int, str] | None:
        """The ``select {`` line that opens the select whose cases were found (the last one
        above its first case), or the only one of the function."""
        lines = self.go_lines(m.go_path)
        if lines is None or m.go_start is None or m.go_end is None:
            return None
        opens = [
            n
            for n in range(m.go_start, min(m.go_end, len(lines)) + 1)
            if SELECT_OPEN.search(lines[n - 1])
        ]
        starts = [c[0] for c in cases.get("case_lines", ()) if c is not None]
        if "default_lines" in cases:
            starts.append(cases["default_lines"][0])
        if starts:
            before = [n for n in opens if n < min(starts)]
            return (before[-1], "select") if before else None
        return (opens[0], "select") if len(opens) == 1 else None

    # -- a select's cases ---------------------------------------------------------------------------
    def _select_cases(
        self, location: dict[str, Any], m: Mapping, step: dict[str, Any]
    ) -> dict[str, Any]:
        """``cases`` (Go case text per case index) and ``default`` of the select at a location."""
        n = len(step.get("cases", ()))
        arms = self._match_arms(location["py"], location["line"])
        blocks = [b for b in m.blocks if b.status == "ported" and b.go_kind == "select"]

        def case_of(index: int) -> Block | None:
            for arm in arms or ():
                if _arm_matches(arm.pattern, index):
                    inside = [b for b in blocks if b.py_start <= arm.pattern.lineno <= b.py_end]
                    return max(inside, key=lambda b: b.py_start) if inside else None
            return None

        cases = [case_of(i) for i in range(n)]
        default = case_of(-1)
        if default is not None and default.case != "default:":
            default = None
        out: dict[str, Any] = {"cases": [None if b is None else b.case for b in cases]}
        out["default"] = None if default is None else default.case
        out["case_lines"] = [None if b is None else [b.go_start, b.go_end] for b in cases]
        if default is not None:
            out["default_lines"] = [default.go_start, default.go_end]
        return out

    def _match_arms(self, py_file: str, line: int) -> list[ast.match_case] | None:
        """The arms of the ``match`` whose subject is the select call at ``line``."""
        tree = self.python(py_file)
        if tree is None:
            return None
        for node in ast.walk(tree):
            if isinstance(node, ast.Match) and _calls_select_at(node.subject, line):
                return node.cases
        return None


def _calls_select_at(expr: ast.expr, line: int) -> bool:
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            f = node.func
            name = (
                f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            )
            if name in SELECT_CALLS and node.lineno <= line <= (node.end_lineno or node.lineno):
                return True
    return False


def _arm_matches(pattern: ast.pattern, index: int) -> bool:
    """Whether the arm ``case <pattern>:`` takes the select result with this case index."""
    if isinstance(pattern, ast.MatchAs) and pattern.pattern is None:
        return True  # `case _:` or a capture: takes anything
    if isinstance(pattern, ast.MatchSequence) and pattern.patterns:
        first = pattern.patterns[0]
        if isinstance(first, ast.MatchAs) and first.pattern is None:
            return True
        if isinstance(first, ast.MatchValue):
            return _value(first.value) == index
    if isinstance(pattern, ast.MatchOr):
        return any(_arm_matches(p, index) for p in pattern.patterns)
    return False


def _value(expr: ast.expr) -> int | None:
    if isinstance(expr, ast.Constant) and isinstance(expr.value, int):
        return expr.value
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        v = _value(expr.operand)
        return None if v is None else -v
    name = (
        expr.id
        if isinstance(expr, ast.Name)
        else expr.attr
        if isinstance(expr, ast.Attribute)
        else ""
    )
    return -1 if name == "DEFAULT" else None


def resolve(trace: dict[str, Any], index: Index | None = None, root: Path | None = None) -> dict:
    """Add the Go of every location (and the ``xref`` header) to a recorded trace, in place."""
    from tools.xref.paths import REPO_ROOT

    root = root or REPO_ROOT
    index = index or build_index(root, offline=True)
    resolver = Resolver(index, root)
    places = [resolver.where(loc["py"], loc["line"]) for loc in trace["locations"]]
    # What to look for at a location is said by the steps it is the focus of (the innermost
    # mapped frame): an outer frame only calls further in.
    focus_step: dict[int, dict[str, Any]] = {}
    for step in trace["steps"]:
        focus = next((i for i in step.get("at", ()) if places[i] is not None), None)
        if focus is not None:
            focus_step.setdefault(focus, step)
    read_from: set[str] = set()
    for i, location in enumerate(trace["locations"]):
        place = places[i]
        if place is None:
            continue
        location["go"] = resolver.locate(location, focus_step.get(i, {}))
        if place.mapping.read_from:
            read_from.add(place.mapping.read_from)
    trace["xref"] = {"tag": TAG, "mode": index.mode, "read_from": sorted(read_from)}
    return trace
