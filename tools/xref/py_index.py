"""Python index: the ``Go:`` annotations of the port, read with tree-sitter-python.

See the convention in ``tools/xref/__init__.py``.  This module only reads and checks the
*form* of the annotations; `tools.xref.resolve` checks them against the Go source or the lock.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .go_index import (
    KIND_FUNC,
    KIND_IFACE_METHOD,
    KIND_METHOD,
    KIND_TYPE,
    normalize_case,
)
from .problems import ERROR, Problem

_GO_LINE = re.compile(r"^\s*Go:(?:\s+(?P<rest>.*?))?\s*$")
_ANCHOR = re.compile(r"^#\s*Go:(?P<text>.*)$")
_OMITTED = re.compile(r"^#\s*Go omitted:(?P<text>.*)$")
_OMIT_SPLIT = re.compile(r"^(?P<case>.*?:)\s+--(?:\s+(?P<reason>.*?))?\s*$")
_OMIT_STATEMENT_SPLIT = re.compile(r"^(?P<case>.*?)\s+--(?:\s+(?P<reason>.*?))?\s*$")
_PATH = re.compile(r"[\w.\-]+(?:/[\w.\-]+)*\.go")
_IDENT = r"[^\W\d]\w*"
_SYMBOL_FORMS = (
    (re.compile(rf"type {_IDENT}"), KIND_TYPE),
    (re.compile(rf"\(\*?{_IDENT}\)\.{_IDENT}"), KIND_METHOD),
    (re.compile(rf"{_IDENT}\.{_IDENT}"), KIND_IFACE_METHOD),
    (re.compile(_IDENT), KIND_FUNC),
)
_CASE = re.compile(r"^(?:case\s.*|default\s*):$")
_CASE_LIKE = re.compile(r"^(?:case|default)\b")  # else the comment is prose, not an anchor

SYMBOL_HELP = "Func, (*Recv).Method, (Recv).Method, type Name or Iface.Method"


_GO_KEYWORDS = frozenset(
    {
        "break", "case", "chan", "const", "continue", "default", "defer", "else",
        "fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map",
        "package", "range", "return", "select", "struct", "switch", "type", "var",
    }
)  # fmt: skip


def symbol_kind(symbol: str) -> str | None:
    """The Go kind an annotation symbol names (func, method, type, iface_method), or None."""
    if _GO_KEYWORDS.intersection(re.findall(r"\w+", symbol.removeprefix("type "))):
        return None
    for pattern, kind in _SYMBOL_FORMS:
        if pattern.fullmatch(symbol):
            return kind
    return None


def valid_go_path(path: str) -> bool:
    return bool(_PATH.fullmatch(path)) and ".." not in path.split("/")


@dataclass
class PyAnchor:
    """A ``# Go: <case>:`` or ``# Go: <statement>`` block anchor, or a ``# Go omitted: … --
    <reason>`` omission of either."""

    kind: str  # "anchor" | "omitted" (cases), "statement" | "omitted-statement"
    case: str  # whitespace-normalised Go case header, or the start of a Go statement
    line: int  # the comment's line
    start: int  # Python lines ported from the case: the comment, and the statement below it
    end: int
    reason: str = ""


@dataclass
class PyField:
    """An attribute of a class: a field of its body (``kill_pod: bool = False``) or an
    assignment to ``self.<name>`` directly in its ``__init__``.  Linked to the Go struct field
    of the same name (`tools.xref.resolve`)."""

    name: str
    line: int  # the statement's line
    start: int  # with the plain comments right above it (``#:`` documentation)
    end: int


@dataclass
class PyMapping:
    """One ``Go: <path> <symbol>`` line of a docstring."""

    line: int
    go_path: str
    symbol: str
    go_kind: str  # what the symbol's form says: func | method | type | iface_method


@dataclass
class PyDef:
    """A Python function or class whose docstring maps Go symbols."""

    file: str
    qualname: str
    kind: str  # function | class
    start: int  # the def/class line (decorators excluded)
    end: int
    mappings: list[PyMapping]
    anchors: list[PyAnchor] = field(default_factory=list)
    fields: list[PyField] = field(default_factory=list)  # a class's attributes, in order


@dataclass
class PyModule:
    file: str  # repository-relative, posix
    go_files: list[tuple[int, str]]  # (docstring line, Go path) from ``Go: <path>`` lines
    defs: list[PyDef]


@dataclass
class PyIndex:
    modules: list[PyModule]
    problems: list[Problem]

    @property
    def defs(self) -> list[PyDef]:
        return [d for m in self.modules for d in m.defs]

    def go_paths(self) -> set[str]:
        """Every Go file named by an annotation."""
        out = {p for m in self.modules for _, p in m.go_files}
        out.update(mp.go_path for d in self.defs for mp in d.mappings)
        return out


@cache
def _python():
    import tree_sitter
    import tree_sitter_python

    language = tree_sitter.Language(tree_sitter_python.language())
    query = tree_sitter.Query(
        language, "(function_definition) @def (class_definition) @def (comment) @comment"
    )
    return tree_sitter.Parser(language), query, tree_sitter


def _docstring(body) -> tuple[str, int] | None:
    """(content, line of its first character) of the docstring of a module or def body."""
    for child in body.named_children:
        if child.type == "comment":
            continue
        if child.type != "expression_statement" or child.named_child_count != 1:
            return None
        string = child.named_children[0]
        if string.type != "string":
            return None
        parts = [c for c in string.children if c.type == "string_content"]
        start = string.children[0]  # string_start: the quotes (and prefix)
        text = b"".join(p.text for p in parts).decode("utf-8", "replace")
        return text, start.end_point[0] + 1
    return None


def is_annotation(rest: str) -> bool:
    """A docstring ``Go:`` line is an annotation when its first word looks like a path.

    ``Go: pkg/kubelet/kubelet.go …`` is one; ``Go: `close(ch)`.`` is prose and is ignored.
    """
    first = rest.split(maxsplit=1)[0] if rest.strip() else ""
    return "/" in first or first.endswith(".go")


def _go_lines(doc: tuple[str, int] | None):
    """(line number, rest of line) for each ``Go:`` annotation line of a docstring."""
    if doc is None:
        return
    text, first = doc
    for i, line in enumerate(text.split("\n")):
        m = _GO_LINE.match(line)
        if m and is_annotation(m.group("rest") or ""):
            yield first + i, m.group("rest")


def _qualname(node) -> str:
    names = []
    n = node
    while n is not None:
        if n.type in ("function_definition", "class_definition"):
            name = n.child_by_field_name("name")
            names.append(name.text.decode() if name is not None else "?")
        n = n.parent
    return ".".join(reversed(names))


def _end_line(node) -> int:
    row, col = node.end_point
    return row + 1 if col > 0 or row == node.start_point[0] else row


def _covered(root, lines: list[bytes], comment_line: int, def_end: int) -> int:
    """Last line of the statement directly below a comment (the first code line after it).

    For ``if``/``elif`` it is the end of that branch's body: a chain ``if … elif … else`` is
    the usual way to port a select, one branch per Go case.
    """
    node = _statement_at(root, lines, comment_line, def_end)
    if node is None:
        return comment_line
    if node.type in ("if_statement", "elif_clause"):  # only this branch, not the elif/else
        body = node.child_by_field_name("consequence")
        if body is not None:
            return _end_line(body)
    return _end_line(node)


def _statement_at(root, lines: list[bytes], comment_line: int, def_end: int):
    """The statement starting on the first code line after a comment (None if none)."""
    i = comment_line
    while i < len(lines) and i < def_end:
        stripped = lines[i].strip()
        if stripped and not stripped.startswith(b"#"):
            break
        i += 1
    else:
        return None
    col = len(lines[i]) - len(lines[i].lstrip())
    node = root.named_descendant_for_point_range((i, col), (i, col))
    while (
        node is not None
        and node.parent is not None
        and node.parent.start_point == node.start_point
        and node.parent.type not in ("block", "module", "function_definition", "class_definition")
    ):
        node = node.parent
    return node


def _is_anchor(comment: str) -> bool:
    return bool(_ANCHOR.match(comment) or _OMITTED.match(comment))


def _names_statement(comment, lines: list[bytes]) -> bool:
    """A ``# Go: …`` or ``# Go omitted: …`` comment on its own line that is not about a case: it
    may name a statement (whether it does is known once resolved against the Go)."""
    row, col = comment.start_point
    if lines[row][:col].strip():
        return False
    m = _ANCHOR.match(comment.text.decode("utf-8", "replace")) or _OMITTED.match(
        comment.text.decode("utf-8", "replace")
    )
    return m is not None and not _CASE_LIKE.match(m.group("text").strip())


def _comments_above(lines: list[bytes], row: int) -> int:
    """The 0-based row of the first of the plain comments right above `row` (else `row`): an
    anchor (``# Go: …``) is not one of them."""
    start = row
    while start > 0 and lines[start - 1].strip().startswith(b"#"):
        if _is_anchor(lines[start - 1].strip().decode("utf-8", "replace")):
            break
        start -= 1
    return start


def _assigned(statement, target_type: str):
    """The target of ``name = …``/``name: T = …`` (`target_type` identifier) or of
    ``self.name = …`` (attribute): its name, else None."""
    if statement.type != "expression_statement" or statement.named_child_count != 1:
        return None
    assignment = statement.named_children[0]
    left = assignment.child_by_field_name("left") if assignment.type == "assignment" else None
    if left is None or left.type != target_type:
        return None
    if target_type == "identifier":
        return left.text.decode()
    obj, attr = left.child_by_field_name("object"), left.child_by_field_name("attribute")
    if obj is None or attr is None or obj.text != b"self":
        return None
    return attr.text.decode()


def _class_fields(node, lines: list[bytes]) -> list[PyField]:
    """The attributes of a class: annotated names of its body (a dataclass's fields), then what
    its ``__init__`` assigns to ``self`` in its own body (not in a nested block); the first
    statement of each name."""
    body = node.child_by_field_name("body")
    found: list[tuple[str, Any]] = []
    for statement in body.named_children if body is not None else ():
        name = _assigned(statement, "identifier")
        if name is not None and statement.named_children[0].child_by_field_name("type"):
            found.append((name, statement))
        if (
            statement.type == "function_definition"
            and statement.child_by_field_name("name").text == b"__init__"
        ):
            init = statement.child_by_field_name("body")
            for inner in init.named_children if init is not None else ():
                name = _assigned(inner, "attribute")
                if name is not None:
                    found.append((name, inner))
    out: list[PyField] = []
    seen: set[str] = set()
    for name, statement in found:
        if name in seen:
            continue
        seen.add(name)
        row = statement.start_point[0]
        out.append(PyField(name, row + 1, _comments_above(lines, row) + 1, _end_line(statement)))
    return out


def _block_span(
    root, lines: list[bytes], comment, def_end: int, anchors: list[int]
) -> tuple[int, int]:
    """The Python lines a ``# Go: <statement>`` anchor covers.

    From the comment (and the plain comments right above it) to the end of the last statement
    before the next statement anchor of the same block, or before a statement that holds
    anchors of its own (structure for what follows, such as a ``with`` that plays Go's
    ``defer``), or before the block's end: a Go statement may take several Python statements.
    An anchor above ``elif``/``else`` covers that branch.  `anchors`: the byte offsets of every
    statement anchor of the file (a ``# Go:`` comment that may name a statement).
    """
    line = comment.start_point[0]  # 0-based
    start = _comments_above(lines, line)
    node = _statement_at(root, lines, line + 1, def_end)
    if node is None:
        return start + 1, line + 1
    if node.type in ("elif_clause", "else_clause"):
        body = node.child_by_field_name("consequence") or node.child_by_field_name("body")
        return start + 1, _end_line(body if body is not None else node)
    end = _end_line(node)
    sibling = node.next_sibling
    while sibling is not None:
        if sibling.type == "comment":  # a case anchor belongs to a select/switch: not a new run
            if sibling.start_byte in anchors:
                break
        elif sibling.is_named:
            if any(sibling.start_byte <= a < sibling.end_byte for a in anchors):
                break
            end = _end_line(sibling)
        sibling = sibling.next_sibling
    return start + 1, end


_Report = Callable[[int, str, str], None]


def index_file(path: Path, rel: str) -> tuple[PyModule, list[Problem]]:
    """The annotations of one Python file.

    One pass after the other: the module docstring's Go files, the defs whose docstrings map
    Go symbols, then each ``# Go:`` comment placed in the innermost mapped function."""
    parser, query, ts = _python()
    src = path.read_bytes()
    tree = parser.parse(src)
    root = tree.root_node
    problems: list[Problem] = []

    def problem(line: int, code: str, message: str) -> None:
        problems.append(Problem(ERROR, code, rel, line, message))

    if root.has_error:
        problem(root.start_point[0] + 1, "python-syntax", "tree-sitter-python found syntax errors")
    go_files = _module_go_files(root, problem)
    captures = ts.QueryCursor(query).captures(root)
    lines = src.split(b"\n")
    defs = _mapped_defs(captures.get("def", []), rel, lines, problem)
    comments = sorted(captures.get("comment", []), key=lambda n: n.start_byte)
    statement_anchors = [c.start_byte for c in comments if _names_statement(c, lines)]
    for c in comments:
        anchor = _read_anchor(c, lines, problem)
        if anchor is not None:
            _place_anchor(anchor, c, root, lines, defs, statement_anchors, problem)
    for _, d in defs:
        d.anchors.sort(key=lambda a: a.line)
    return PyModule(rel, go_files, [d for _, d in defs]), problems


def _module_go_files(root: Any, problem: _Report) -> list[tuple[int, str]]:
    """The module docstring's ``Go: <path>`` lines: (line, path)."""
    go_files: list[tuple[int, str]] = []
    for line, rest in _go_lines(_docstring(root)):
        parts = rest.split()
        if len(parts) != 1 or not valid_go_path(parts[0]):
            problem(
                line,
                "malformed-annotation",
                f"module docstring line 'Go: {rest}' should be 'Go: <path/to/file.go>' "
                "(symbols are mapped in function and class docstrings)",
            )
            continue
        go_files.append((line, parts[0]))
    return go_files


def _mapped_defs(
    nodes: list[Any], rel: str, lines: list[bytes], problem: _Report
) -> list[tuple[Any, PyDef]]:
    """Each function or class whose docstring has ``Go: <path> <symbol>`` lines, in file
    order, with its node (a class with its fields)."""
    defs: list[tuple[Any, PyDef]] = []
    for node in sorted(nodes, key=lambda n: n.start_byte):
        body = node.child_by_field_name("body")
        mappings: list[PyMapping] = []
        for line, rest in _go_lines(_docstring(body) if body is not None else None):
            go_path, _, symbol = rest.partition(" ")
            symbol = " ".join(symbol.split())
            kind = symbol_kind(symbol)
            if not valid_go_path(go_path) or kind is None:
                problem(
                    line,
                    "malformed-annotation",
                    f"docstring line 'Go: {rest}' should be 'Go: <path/to/file.go> <symbol>' "
                    f"with <symbol> one of {SYMBOL_HELP}",
                )
                continue
            mappings.append(PyMapping(line, go_path, symbol, kind))
        if mappings:
            def_kind = "class" if node.type == "class_definition" else "function"
            start, end = node.start_point[0] + 1, _end_line(node)
            d = PyDef(rel, _qualname(node), def_kind, start, end, mappings)
            if def_kind == "class":
                d.fields = _class_fields(node, lines)
            defs.append((node, d))
    return defs


@dataclass
class _Anchor:
    """A ``# Go:`` or ``# Go omitted:`` comment on its own line, read."""

    line: int
    case: str  # the case header or statement text, normalised
    reason: str  # an omission's reason ("" for an anchor)
    is_case: bool  # names a select/switch case (else a statement)
    omitted: bool


def _read_anchor(c: Any, lines: list[bytes], problem: _Report) -> _Anchor | None:
    """The anchor comment `c` holds, or None when it is prose (or malformed: reported)."""
    text = c.text.decode("utf-8", "replace")
    omitted = _OMITTED.match(text)
    anchor = None if omitted else _ANCHOR.match(text)
    match = omitted or anchor
    if match is None:
        return None
    body = match.group("text").strip()
    line = c.start_point[0] + 1
    own_line = not lines[c.start_point[0]][: c.start_point[1]].strip()
    is_case = bool(_CASE_LIKE.match(body))
    if anchor and not is_case and not own_line:
        return None  # prose in a trailing comment, such as '# Go: panic'
    if not own_line:
        problem(line, "malformed-anchor", "a Go block anchor must be a comment on its own line")
        return None
    if omitted:
        m = (_OMIT_SPLIT if is_case else _OMIT_STATEMENT_SPLIT).match(body)
        if (
            m is None
            or not (m.group("case") or "").strip()
            or not (m.group("reason") or "").strip()
        ):
            what = "<case header>:" if is_case else "<statement>"
            problem(
                line,
                "malformed-anchor",
                f"omission '{body}' needs a reason: '# Go omitted: {what} -- <reason>'",
            )
            return None
        case, reason = normalize_case(m.group("case")), m.group("reason").strip()
    else:
        case, reason = normalize_case(body), ""
    if is_case and not _CASE.match(case):
        problem(
            line,
            "malformed-anchor",
            f"'{case}' is not a Go case header: a block anchor names a select/switch case "
            "exactly as in the Go source, e.g. '# Go: case u, open := <-configCh:' or "
            "'# Go: default:'",
        )
        return None
    return _Anchor(line, case, reason, is_case, bool(omitted))


def _place_anchor(
    a: _Anchor,
    c: Any,
    root: Any,
    lines: list[bytes],
    defs: list[tuple[Any, PyDef]],
    statement_anchors: list[int],
    problem: _Report,
) -> None:
    """Give anchor `a` (comment `c`) to the innermost mapped function around it, with the
    Python lines it covers; outside any, a case or omission is an error, a remark is prose."""
    owner = None
    for node, d in defs:
        if (
            d.kind == "function"
            and node.start_byte <= c.start_byte < node.end_byte
            and (owner is None or node.start_byte > owner[0].start_byte)
        ):
            owner = (node, d)
    if owner is None:
        if a.is_case or a.omitted:
            problem(
                a.line,
                "orphan-anchor",
                f"block anchor '{a.case}' is not inside a function whose docstring has a "
                "'Go: <path> <symbol>' line",
            )
        return  # a '# Go:' remark outside any mapped function is prose
    if a.omitted:
        start = end = a.line
        kind = "omitted" if a.is_case else "omitted-statement"
    elif a.is_case:
        start, end = a.line, _covered(root, lines, a.line, owner[1].end)
        kind = "anchor"
    else:
        start, end = _block_span(root, lines, c, owner[1].end, statement_anchors)
        kind = "statement"
    owner[1].anchors.append(PyAnchor(kind, a.case, a.line, start, end, a.reason))


def index_package(package_dir: Path, root: Path | None = None) -> PyIndex:
    """The annotations of every ``*.py`` file under `package_dir` (paths relative to `root`)."""
    package_dir = Path(package_dir)
    root = Path(root) if root is not None else package_dir.parent
    modules: list[PyModule] = []
    problems: list[Problem] = []
    for path in sorted(package_dir.rglob("*.py")):
        if any(part.startswith(".") or part == "__pycache__" for part in path.parts):
            continue
        try:
            rel = path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            rel = path.as_posix()
        module, found = index_file(path, rel)
        modules.append(module)
        problems.extend(found)
    return PyIndex(modules, problems)
