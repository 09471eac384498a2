"""Go index: declarations and ``select``/``switch`` cases, read with tree-sitter-go.

One Go file becomes one *record*: its symbols (functions, methods with their receiver type,
types, interfaces and the methods of their method set), each with exact 1-based start/end lines
and byte offsets, the ``select`` communication cases and ``switch`` cases (expression and type
switches) inside each function with their header text and lines, and the places where
tree-sitter had to recover from a syntax error.  Records are plain tuples so that ``marshal``
can store them in the content-hash cache and send them between processes cheaply; `GoFile`
is the readable view of one record.

Symbol names use the annotation syntax of the port (see ``tools/xref/__init__.py``):
``Func``, ``(*Recv).Method``, ``(Recv).Method``, ``type Name``, ``Iface.Method``.
"""

from __future__ import annotations

import bisect
import hashlib
import marshal
import re
from functools import cache, cached_property
from typing import NamedTuple

# Bump when the record layout or the extraction changes: cached records are then re-made.
RECORD_FORMAT = 4

KIND_FUNC = "func"
KIND_METHOD = "method"
KIND_TYPE = "type"
KIND_INTERFACE = "interface"
KIND_IFACE_METHOD = "iface_method"

CASE_SELECT = "select"
CASE_SWITCH = "switch"
CASE_TYPESWITCH = "typeswitch"

# Declarations: patterns start at the root or at its children (`set_max_start_depth(1)`), so the
# cursor never walks function bodies; only top-level types are matched.
_DECL_QUERY = """
(function_declaration name: (identifier) @name) @func
(method_declaration receiver: (parameter_list) @recv name: (field_identifier) @name) @method
(type_declaration (type_spec name: (type_identifier) @name type: (_) @type) @spec) @decl
(type_declaration (type_alias name: (type_identifier) @name) @spec) @decl
(source_file (type_declaration (type_spec name: (type_identifier) @iname
  type: (interface_type (method_elem name: (field_identifier) @name) @elem))))
"""
_P_FUNC, _P_METHOD, _P_TYPE, _P_ALIAS, _P_IFACE_METHOD = range(5)

# Cases of one select/switch statement, run on that statement only (`set_max_start_depth(0)`).
# Statements are found from their keyword in the bytes, which is much cheaper than letting a
# query cursor walk every node of every function.
_CASE_QUERY = """
(select_statement [(communication_case ":" @colon) (default_case ":" @colon)] @case)
(expression_switch_statement [(expression_case ":" @colon) (default_case ":" @colon)] @case)
(type_switch_statement [(type_case ":" @colon) (default_case ":" @colon)] @case)
"""
_CASE_KIND = (CASE_SELECT, CASE_SWITCH, CASE_TYPESWITCH)
_KEYWORDS = (b"select", b"switch")

_RECV = re.compile(rb"\(\s*(?:[A-Za-z_]\w*\s+)?(\*?)\s*([A-Za-z_]\w*)")
_MAX_ERRORS = 20


@cache
def _go():
    """The tree-sitter-go language, a parser and the compiled query (once per process)."""
    import tree_sitter
    import tree_sitter_go

    language = tree_sitter.Language(tree_sitter_go.language())
    decl = tree_sitter.QueryCursor(tree_sitter.Query(language, _DECL_QUERY))
    decl.set_max_start_depth(1)
    cases = tree_sitter.QueryCursor(tree_sitter.Query(language, _CASE_QUERY))
    cases.set_max_start_depth(0)
    return tree_sitter.Parser(language), decl, cases


def grammar_versions() -> str:
    """Versions of py-tree-sitter and tree-sitter-go (part of every cache key)."""
    from importlib.metadata import PackageNotFoundError, version

    parts = []
    for dist in ("tree-sitter", "tree-sitter-go"):
        try:
            parts.append(f"{dist}={version(dist)}")
        except PackageNotFoundError:  # pragma: no cover - a vendored build
            parts.append(f"{dist}=?")
    return ",".join(parts)


_GO_TOKENS = re.compile(
    r'("(?:\\.|[^"\\\n])*"|`[^`]*`|\'(?:\\.|[^\'\\\n])*\')|//[^\n]*|/\*.*?\*/', re.S
)


def _strip_comment(m: re.Match) -> str:
    return m.group(1) or " "


def normalize_case(text: str) -> str:
    """A case header without Go comments, every run of whitespace made one space.

    ``case a, // why\\n\\tb:`` → ``case a, b:``.  String and rune literals are kept as they are.
    """
    if "/" in text:
        text = _GO_TOKENS.sub(_strip_comment, text)
    return " ".join(text.split())


def _end_line(node) -> int:
    """1-based last line holding text of `node`.

    tree-sitter-go lets a statement list swallow the newline (Go's implicit semicolon) and any
    blank lines after it, so a case can end at column 0 of a later line; step into the last
    child until an end with a column is found.
    """
    point = node.end_point
    if point[1] > 0:
        return point[0] + 1
    n = node
    while n.child_count:
        n = n.child(n.child_count - 1)
        point = n.end_point
        if point[1] > 0:
            return point[0] + 1
    return max(node.start_point[0] + 1, node.end_point[0])


def _errors(root) -> list[tuple[int, int, str]]:
    """(line, column, what) of ERROR and MISSING nodes; walks only subtrees that hold errors."""
    out: list[tuple[int, int, str]] = []
    stack = [root]
    while stack and len(out) < _MAX_ERRORS:
        node = stack.pop()
        if node.is_error:
            out.append((node.start_point[0] + 1, node.start_point[1] + 1, "syntax error"))
            continue
        if node.is_missing:
            out.append((node.start_point[0] + 1, node.start_point[1] + 1, f"missing {node.type}"))
            continue
        stack.extend(c for c in reversed(node.children) if c.has_error)
    return out


def _statements(src: bytes, root) -> list:
    """The select/switch statement nodes of a file, found from their keywords."""
    out = []
    for kw in _KEYWORDS:
        i = src.find(kw)
        while i >= 0:
            node = root.descendant_for_byte_range(i, i + 6)
            if node is not None and node.type == kw.decode() and node.parent is not None:
                out.append(node.parent)  # the keyword token: not in a comment, string or name
            i = src.find(kw, i + 6)
    return out


def parse_record(src: bytes) -> tuple:
    """Parse one Go file and return its record (a tuple of plain values, see `GoFile`)."""
    parser, decl_cursor, case_cursor = _go()
    root = parser.parse(src).root_node

    symbols: list[tuple] = []  # (symbol, kind, start, end, start_byte, end_byte)
    for pattern, caps in decl_cursor.matches(root):
        if pattern == _P_FUNC:
            node = caps["func"][0]
            symbol, kind = caps["name"][0].text.decode("utf-8", "replace"), KIND_FUNC
        elif pattern == _P_METHOD:
            node = caps["method"][0]
            recv = _RECV.match(caps["recv"][0].text)
            star, rtype = (recv.group(1), recv.group(2)) if recv else (b"", b"?")
            name = caps["name"][0].text.decode("utf-8", "replace")
            symbol, kind = f"({star.decode()}{rtype.decode()}).{name}", KIND_METHOD
        elif pattern == _P_IFACE_METHOD:
            node = caps["elem"][0]
            symbol = f"{caps['iname'][0].text.decode()}.{caps['name'][0].text.decode()}"
            start, end = node.start_point[0] + 1, _end_line(node)
            symbols.append((symbol, KIND_IFACE_METHOD, start, end, node.start_byte, node.end_byte))
            continue
        else:  # a type: the whole `type X …` unless it sits in a `type ( … )` group
            decl, spec = caps["decl"][0], caps["spec"][0]
            node = decl if decl.named_child_count == 1 else spec
            is_iface = pattern == _P_TYPE and caps["type"][0].type == "interface_type"
            kind = KIND_INTERFACE if is_iface else KIND_TYPE
            start, end = node.start_point[0] + 1, _end_line(node)
            symbol = f"type {caps['name'][0].text.decode('utf-8', 'replace')}"
            symbols.append((symbol, kind, start, end, node.start_byte, node.end_byte))
            continue
        start, end = node.start_point[0] + 1, node.end_point[0] + 1
        symbols.append((symbol, kind, start, end, node.start_byte, node.end_byte))
    symbols.sort(key=lambda s: (s[4], -s[5]))  # source order, whatever order matches came in
    funcs = [(s[4], s[5], i) for i, s in enumerate(symbols) if s[1] in (KIND_FUNC, KIND_METHOD)]

    cases: list[tuple] = []  # (start_byte, kind, header, start, end)
    for stmt in _statements(src, root) if funcs else ():
        for pattern, caps in case_cursor.matches(stmt):
            node = caps["case"][0]
            a = node.start_byte
            header = src[a : caps["colon"][0].end_byte].decode("utf-8", "replace")
            start, end = node.start_point[0] + 1, _end_line(node)
            cases.append((a, _CASE_KIND[pattern], normalize_case(header), start, end))
    starts = [f[0] for f in funcs]
    out_cases = []
    for a, kind, header, start, end in sorted(cases):
        i = bisect.bisect_right(starts, a) - 1
        # a case outside any function (in a package-level func literal) is dropped
        if i >= 0 and funcs[i][1] > a:
            out_cases.append((funcs[i][2], kind, header, start, end))
    errors = _errors(root) if root.has_error else []
    n_lines = src.count(b"\n") + (0 if src.endswith(b"\n") or not src else 1)
    return (RECORD_FORMAT, n_lines, symbols, out_cases, errors)


class GoStmt(NamedTuple):
    """One statement of a function body, for ``# Go: <statement>`` anchors, or one field of a
    struct (`fields`), linked to the port's attribute of the same name.

    `text` is the statement's first line from its first token, whitespace normalised (Go
    comments dropped), or the field's name; `lead` the first line of the ``//`` comment right
    above it, if any; `group` tells the statements of one list (a block, a case) apart from
    those of another (-1 when unknown: facts from the lock).
    """

    text: str
    lead: int
    start: int
    end: int
    group: int = -1


def statements(text: str, first_line: int) -> list[GoStmt]:
    """Every statement, at any depth, of the function or method declaration `text` (which
    starts on line `first_line` of its file), in source order.

    Statements of a block and the ``else if`` of an ``if``; parsed on demand, since only the
    functions the port anchors statements in need them.
    """
    parser = _go()[0]
    prefix = b"package p\n"
    src = prefix + text.encode("utf-8")
    root = parser.parse(src).root_node
    lines = src.split(b"\n")
    shift = first_line - 2  # row 1 of `src` is `first_line`
    out: list[GoStmt] = []
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(reversed(node.named_children))
        parent = node.parent
        if node.type == "comment" or parent is None:
            continue
        in_list = parent.type == "statement_list"
        is_else_if = node.type == "if_statement" and parent.type == "if_statement"
        if not (in_list or is_else_if):
            continue
        row, col = node.start_point
        first = lines[row][col:].decode("utf-8", "replace")
        lead = _lead(lines, row)
        out.append(GoStmt(normalize_case(first), lead + shift + 1, row + shift + 1,
                          _end_line(node) + shift, parent.start_byte))  # fmt: skip
    out.sort(key=lambda s: (s.start, -s.end))
    return out


def _lead(lines: list[bytes], row: int) -> int:
    """The 0-based row of the first line of the ``//`` comment right above `row` (else `row`)."""
    lead = row
    while lead > 1 and lines[lead - 1].lstrip().startswith(b"//"):
        lead -= 1
    return lead


_TYPE_KEYWORD = re.compile(r"type\b")


def fields(text: str, first_line: int) -> list[GoStmt]:
    """The fields of the struct type declaration `text` (which starts on line `first_line` of
    its file), in source order: one `GoStmt` per name, its `text` the field's name (an embedded
    field's is its type's name: ``*kubecontainer.Runtime`` → ``Runtime``).

    Only the struct's own fields (not those of a struct nested in one); none for another type.
    `text` may be a whole ``type X struct {…}`` or one spec of a ``type ( … )`` group.
    """
    parser = _go()[0]
    prefix = b"package p\n" + (b"" if _TYPE_KEYWORD.match(text) else b"type ")
    src = prefix + text.encode("utf-8")
    root = parser.parse(src).root_node
    spec = next((c for c in root.named_children if c.type == "type_declaration"), None)
    spec = spec.named_children[0] if spec is not None and spec.named_children else None
    struct = spec.child_by_field_name("type") if spec is not None else None
    if struct is None or struct.type != "struct_type":
        return []
    body = next((c for c in struct.named_children if c.type == "field_declaration_list"), None)
    if body is None:
        return []
    lines = src.split(b"\n")
    shift = first_line - 2  # row 1 of `src` is `first_line`
    out: list[GoStmt] = []
    for decl in body.named_children:
        if decl.type != "field_declaration":
            continue
        names = [n.text.decode() for n in decl.children_by_field_name("name")]
        if not names:  # embedded: named after its type
            kind = decl.child_by_field_name("type")
            names = re.findall(r"\w+", kind.text.decode())[-1:] if kind is not None else []
        row = decl.start_point[0]
        for name in names:
            out.append(GoStmt(name, _lead(lines, row) + shift + 1, row + shift + 1,
                              _end_line(decl) + shift, body.start_byte))  # fmt: skip
    return out


class GoCase(NamedTuple):
    """One ``case …:`` or ``default:`` of a select or switch inside a function."""

    header: str  # whitespace-normalised text up to and including the colon
    kind: str  # select | switch | typeswitch
    start: int
    end: int


class GoSymbol(NamedTuple):
    """A declaration: `symbol` in annotation syntax, `kind`, 1-based inclusive lines, bytes."""

    symbol: str
    kind: str
    start: int
    end: int
    start_byte: int
    end_byte: int
    cases: tuple[GoCase, ...] = ()


class GoFile:
    """The index of one Go file.

    Built from its record, or from the record's ``marshal`` bytes as stored in the cache; those
    are decoded on first use, so loading the index of a large unchanged tree costs little.
    """

    __slots__ = ("__dict__", "_blob", "_record", "path", "sha256")

    def __init__(self, path: str, sha256: str, record: tuple | None = None, blob: bytes = b""):
        self.path, self.sha256, self._record, self._blob = path, sha256, record, blob

    @property
    def record(self) -> tuple:
        if self._record is None:
            self._record = marshal.loads(self._blob)
        return self._record

    @property
    def blob(self) -> bytes:
        if not self._blob:
            self._blob = marshal.dumps(self._record)
        return self._blob

    @property
    def lines(self) -> int:
        return self.record[1]

    @property
    def errors(self) -> list[tuple[int, int, str]]:
        """(line, column, what) where tree-sitter recovered from a syntax error."""
        return [tuple(e) for e in self.record[4]]

    @cached_property
    def symbols(self) -> list[GoSymbol]:
        _, _, syms, cases, _ = self.record
        per: dict[int, list[GoCase]] = {}
        for i, kind, header, start, end in cases:
            per.setdefault(i, []).append(GoCase(header, kind, start, end))
        return [
            GoSymbol(s, k, a, b, sa, sb, tuple(per.get(i, ())))
            for i, (s, k, a, b, sa, sb) in enumerate(syms)
        ]

    @cached_property
    def by_symbol(self) -> dict[str, GoSymbol]:
        out: dict[str, GoSymbol] = {}
        for s in self.symbols:
            out.setdefault(s.symbol, s)  # `func init` may repeat: the first one wins
        return out

    def get(self, symbol: str) -> GoSymbol | None:
        return self.by_symbol.get(symbol)


def index_bytes(path: str, src: bytes) -> GoFile:
    """Index one file held in memory (no cache)."""
    return GoFile(path, hashlib.sha256(src).hexdigest(), parse_record(src))
