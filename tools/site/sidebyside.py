"""Side-by-side views: a Go declaration of v1.21.3 beside the Python that ports it.

The view model is built here from `tools.xref`'s index (`build_view`); the HTML comes from the
template ``sidebyside.html.j2``.  Code is highlighted with Pygments token by token, so that each
line can carry the blocks (select/switch cases) it belongs to; the CSS classes are Pygments'
short names (``k``, ``nf``, ``s``…), which mkdocs-material colours inside ``.highlight``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from pygments.lexers import GoLexer, PythonLexer
from pygments.token import STANDARD_TYPES, _TokenType

from tools.xref import TAG, Block, Index, Mapping, permalink

from .directives import DirectiveError
from .render import render

LEXERS = {"go": GoLexer, "python": PythonLexer}


@dataclass
class Token:
    cls: str
    text: str


@dataclass
class CodeLine:
    """One line of code: its real number, tokens and the blocks it belongs to."""

    number: int
    tokens: list[Token]
    indent: str = ""  # leading whitespace, kept apart so that a wrapped line hangs under it
    blocks: list[str] = field(default_factory=list)  # ids of every block containing the line
    block: str | None = None  # the innermost one: what pointing at the line lights up
    head: bool = False  # the first line of a block
    href: str | None = None  # Go: the line's permalink at the tag


@dataclass
class Row:
    """A row of the view: a Go line and a Python line, either may be padding (None).

    Padding belongs to the blocks of the line above it on its side (``go_pad``/``py_pad``), so
    that a lit block stays one piece.
    """

    go: CodeLine | None
    py: CodeLine | None
    go_pad: list[str] = field(default_factory=list)
    py_pad: list[str] = field(default_factory=list)


@dataclass
class BlockView:
    """A select/switch case, an anchored statement or a struct field, and its Python twin."""

    id: str
    case: str  # the case header, or the start of the statement
    kind: str  # select | switch | typeswitch | stmt | member | field
    status: str  # ported | omitted
    reason: str
    go_start: int  # what lights up: a statement's comment included
    go_end: int
    py_start: int
    py_end: int
    permalink: str
    depth: int = 0
    link_start: int = 0  # the first line of the case or statement itself (the permalink's)

    def __post_init__(self):
        self.link_start = self.link_start or self.go_start


@dataclass
class View:
    id: str
    lang: str
    mode: str  # source | link-only
    tag: str
    go_path: str
    go_symbol: str
    go_kind: str
    py_file: str
    py_qualname: str
    py_start: int
    py_end: int
    go_start: int | None
    go_end: int | None
    permalink: str
    file_permalink: str
    verified: bool
    read_from: str | None
    blocks: list[BlockView]
    rows: list[Row] = field(default_factory=list)  # source mode
    py_lines: list[CodeLine] = field(default_factory=list)  # link-only mode
    reference_href: str | None = None
    source_version: str | None = None
    source_kind: str | None = None  # dir | git | cache
    source_identity: str = ""  # how the release of the Go text is known
    go_first: int | None = None  # the lines shown (with the doc comment, when asked for)


def css_class(ttype: _TokenType) -> str:
    """Pygments' short CSS class for a token type (``Token.Keyword`` → ``k``)."""
    while ttype not in STANDARD_TYPES and ttype.parent is not None:
        ttype = ttype.parent
    return STANDARD_TYPES[ttype]


def highlight_lines(code: str, language: str) -> list[list[Token]]:
    """Highlight ``code`` and split the tokens into lines (one list per line of ``code``)."""
    lexer = LEXERS[language](stripnl=False, ensurenl=True)
    lines: list[list[Token]] = [[]]
    for ttype, value in lexer.get_tokens(code):
        cls = css_class(ttype)
        for i, part in enumerate(value.split("\n")):
            if i:
                lines.append([])
            if part:
                lines[-1].append(Token(cls, part))
    if not lines[-1]:
        lines.pop()
    expected = len(code.splitlines())
    if len(lines) != expected:  # pragma: no cover - Pygments keeps every newline
        raise AssertionError(f"highlighting gave {len(lines)} lines for {expected}")
    return lines


def go_doc_start(lines: list[str], start: int) -> int:
    """The first line of the ``//`` comment right above line ``start`` (1-based), or ``start``."""
    n = start
    while n > 1 and lines[n - 2].lstrip().startswith("//"):
        n -= 1
    return n


def dedent(lines: list[str]) -> list[str]:
    """Remove the indentation common to every non-blank line (a method's class indentation)."""
    widths = [len(s) - len(s.lstrip(" ")) for s in lines if s.strip()]
    cut = min(widths, default=0)
    return [s[cut:] if s.strip() else "" for s in lines]


def pick_mapping(index: Index, go_path: str, go_symbol: str, py: str | None = None) -> Mapping:
    """The mapping of ``go_symbol`` in ``go_path`` (the one of Python def ``py``, if given)."""
    found = [m for m in index.mappings if m.go_path == go_path and m.go_symbol == go_symbol]
    if py is not None:
        found = [m for m in found if m.py_qualname == py or f"{m.py_file}:{m.py_qualname}" == py]
    if not found:
        known = sorted({m.go_symbol for m in index.mappings if m.go_path == go_path})
        if not known:
            paths = sorted({m.go_path for m in index.mappings})
            close = difflib.get_close_matches(go_path, paths, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise DirectiveError(f"no Python ports anything of {go_path}{hint}")
        close = difflib.get_close_matches(go_symbol, known, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        which = f" (with py={py!r})" if py else ""
        raise DirectiveError(f"no Python ports {go_symbol} of {go_path}{which}{hint}")
    if len(found) > 1:
        # Prefer the def with anchored blocks, then the first in the port.
        found.sort(key=lambda m: (-len(m.blocks), m.py_file, m.py_start))
    mapping = found[0]
    if not mapping.resolved:
        raise DirectiveError(
            f"{go_symbol} of {go_path} does not resolve (run 'python -m tools.xref check')"
        )
    return mapping


def _split_indent(tokens: list[Token]) -> tuple[list[Token], str]:
    """Take the leading whitespace off a line's tokens: (tokens, indentation)."""
    indent = ""
    rest = list(tokens)
    while rest:
        text = rest[0].text
        stripped = text.lstrip(" \t")
        indent += text[: len(text) - len(stripped)]
        if stripped:
            rest[0] = Token(rest[0].cls, stripped)
            break
        rest.pop(0)
    return rest, indent


def _member_blocks(index: Index, mapping: Mapping) -> list[Block]:
    """Mappings nested in this one on both sides (an interface's methods in the Protocol that
    ports it), as blocks: a type's view links its members' lines too."""
    if not mapping.resolved or mapping.go_start is None or mapping.go_end is None:
        return []
    out = []
    for m in index.mappings:
        if m is mapping or not m.resolved or m.go_start is None or m.go_end is None:
            continue
        if (
            m.py_file == mapping.py_file
            and mapping.py_start < m.py_start <= m.py_end <= mapping.py_end
            and m.go_path == mapping.go_path
            and mapping.go_start < m.go_start <= m.go_end <= mapping.go_end
        ):
            out.append(
                Block(m.go_symbol, "ported", m.py_line, m.py_start, m.py_end, m.go_start,
                      m.go_end, "member", m.permalink)
            )  # fmt: skip
    return out


def _block_views(blocks: list[Block]) -> list[BlockView]:
    blocks = sorted(blocks, key=lambda b: (b.go_lead, -b.go_end))
    views = [
        BlockView(
            f"c{i}",
            b.case,
            b.go_kind,
            b.status,
            b.reason,
            b.go_lead,
            b.go_end,
            b.py_start,
            b.py_end,
            b.permalink,
            link_start=b.go_start,
        )
        for i, b in enumerate(blocks)
    ]
    for v in views:
        v.depth = sum(
            1 for o in views if o is not v and o.go_start <= v.go_start and v.go_end <= o.go_end
        )
    return views


def _mark(line: CodeLine, blocks: list[BlockView], side: str) -> None:
    def span(b: BlockView) -> tuple[int, int]:
        return (b.go_start, b.go_end) if side == "go" else (b.py_start, b.py_end)

    inside = [b for b in blocks if span(b)[0] <= line.number <= span(b)[1]]
    line.blocks = [b.id for b in inside]
    if inside:
        innermost = min(inside, key=lambda b: (span(b)[1] - span(b)[0], -span(b)[0]))
        line.block = innermost.id
        line.head = any(span(b)[0] == line.number for b in inside)


def _code_lines(
    text_lines: list[str], first: int, language: str, blocks: list[BlockView], side: str
) -> list[CodeLine]:
    tokens = highlight_lines("\n".join(text_lines) + "\n", language)
    out = []
    for offset, toks in enumerate(tokens):
        line = CodeLine(first + offset, *_split_indent(toks))
        _mark(line, blocks, side)
        out.append(line)
    return out


def align(go: list[CodeLine], py: list[CodeLine], blocks: list[BlockView]) -> list[Row]:
    """Pair Go and Python lines so that each block starts on the same row in both panes.

    The start lines of the blocks are the points to align; those that would cross (a Python
    block earlier than the one before it) are skipped.  Between two points the shorter side is
    padded at the end.
    """
    go_at = {line.number: i for i, line in enumerate(go)}
    py_at = {line.number: i for i, line in enumerate(py)}
    points: list[tuple[int, int]] = []
    for b in sorted(blocks, key=lambda b: (b.go_start, b.py_start)):
        if b.go_start not in go_at or b.py_start not in py_at:
            continue
        g, p = go_at[b.go_start], py_at[b.py_start]
        if not points or (g > points[-1][0] and p > points[-1][1]):
            points.append((g, p))
    rows: list[Row] = []
    g0 = p0 = 0
    for g1, p1 in [*points, (len(go), len(py))]:
        gs, ps = go[g0:g1], py[p0:p1]
        for i in range(max(len(gs), len(ps))):
            row = Row(gs[i] if i < len(gs) else None, ps[i] if i < len(ps) else None)
            if row.go is None and gs:
                row.go_pad = gs[-1].blocks
            if row.py is None and ps:
                row.py_pad = ps[-1].blocks
            rows.append(row)
        g0, p0 = g1, p1
    return rows


def _without_anchors(lines: list[CodeLine], mapping: Mapping, blocks: list[BlockView]):
    """The Python lines without the anchor comments of ported blocks (``# Go: case …:``,
    ``# Go: <statement>``): the view shows the link itself, with the Go beside.  An omission's
    comment stays (it is all the Python side has to say), and so does a struct field's line (the
    attribute itself: its name is the link).  Each block then starts at its first
    line left."""
    anchors = {b.py_line for b in mapping.blocks if b.status == "ported" and b.go_kind != "field"}
    kept = [line for line in lines if line.number not in anchors]
    numbers = [line.number for line in kept]
    for b in blocks:
        first = next((n for n in numbers if b.py_start <= n <= b.py_end), None)
        if first is not None and first != b.py_start:
            b.py_start = first
            for line in kept:
                if line.number == first:
                    line.head = True
    return kept


def reference_id(py_file: str, qualname: str) -> str | None:
    """The id mkdocstrings gives the def in the API reference (None if it is not shown there)."""
    if any(part.startswith("_") and not part.startswith("__") for part in qualname.split(".")):
        return None
    module = py_file.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
    return f"{module}.{qualname}"


def build_view(
    index: Index,
    mapping: Mapping,
    root: Path,
    *,
    lang: str = "en",
    view_id: str = "sbs-1",
    doc: bool = False,
    reference_href: str | None = None,
) -> View:
    """The view model of one mapping, from the Go source if the index has it, else link-only."""
    blocks = _block_views(mapping.blocks + _member_blocks(index, mapping))
    py_text = (root / mapping.py_file).read_text(encoding="utf-8").splitlines()
    py_src = dedent(py_text[mapping.py_start - 1 : mapping.py_end])
    py_lines = _without_anchors(
        _code_lines(py_src, mapping.py_start, "python", blocks, "py"), mapping, blocks
    )
    source = index.source
    view = View(
        id=view_id,
        lang=lang,
        mode=index.mode,
        tag=index.tag,
        go_path=mapping.go_path,
        go_symbol=mapping.go_symbol,
        go_kind=mapping.go_kind,
        py_file=mapping.py_file,
        py_qualname=mapping.py_qualname,
        py_start=mapping.py_start,
        py_end=mapping.py_end,
        go_start=mapping.go_start,
        go_end=mapping.go_end,
        permalink=mapping.permalink,
        file_permalink=mapping.file_permalink,
        verified=mapping.verified,
        read_from=mapping.read_from,
        blocks=blocks,
        reference_href=reference_href,
        source_version=source.version if source is not None else None,
        source_kind=source.kind if source is not None else None,
        source_identity=source.identity if source is not None else "",
    )
    go_text = index.go_source(mapping.go_path) if index.mode == "source" else None
    if go_text is None or mapping.go_start is None or mapping.go_end is None:
        view.mode = "link-only"
        view.py_lines = py_lines
        return view
    go_all = go_text.splitlines()
    first = go_doc_start(go_all, mapping.go_start) if doc else mapping.go_start
    view.go_first = first
    go_lines = _code_lines(go_all[first - 1 : mapping.go_end], first, "go", blocks, "go")
    for line in go_lines:
        line.href = permalink(mapping.go_path, line.number, tag=mapping.read_from or index.tag)
    view.rows = align(go_lines, py_lines, blocks)
    return view


def render_view(view: View) -> str:
    """The HTML of a view (``templates/sidebyside.html.j2``), on one line per row."""
    html = render("sidebyside.html.j2", view=view, TAG=TAG)
    # Python-Markdown would end a raw HTML block at a blank line: there must be none.
    return re.sub(r"\n\s*\n", "\n", html)
