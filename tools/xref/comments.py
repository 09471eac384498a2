"""Our words, not Kubernetes': find text of ours that repeats a Go comment word for word.

The side-by-side view already shows the Go with its comments, so a comment of the port says
what the reader needs beside it, in our words.  This module keeps it so.

**Units.**  Every comment of a mapped Go file is cut into units: each comment line, each
sentence of a run of comment lines (so a copy that was re-wrapped is still one unit), and each
clause of a sentence (between commas, colons, semicolons, parentheses) of `MIN_WORDS` words or more.  A unit is
normalised by `words`: lower case, underscores dropped (``pod_status`` and ``podStatus`` are the
same word), runs of letters and digits.  A unit of `MIN_WORDS` words or more is found wherever
it appears in our text, across line breaks; a shorter one (`SHORT_WORDS` and up) only when one
of our comment lines or sentences is exactly that unit.

**Facts, not text.**  The lock keeps, per Go file, only hashes of its units (`GoUnits`): the
first `MIN_WORDS` words hashed (the key a window of our text is looked up by) and, for longer
units, a short hash of the whole.  So ``check`` works offline; with the source it hashes the
source itself, names the Go line, and fails when the lock's hashes are stale.

**Our text** (`scan_project`): the comments and docstrings of every ``*.py`` file (strings are
not checked: log and error messages stay exactly as kubelet prints them), the comments of our Go
fixtures, and the prose of Markdown, YAML and Graphviz files.  A short quotation is allowed when it
is marked: a span in quotation marks ("…", “…”, 「…」) of at most `QUOTE_WORDS` words, or a
Markdown block quote (``> …``) that names its source (a ``.go`` path or a kubernetes link) in the
quote or on the line after it.  Docstring lines ``Go: <path> <symbol>`` and block anchors
``# Go: case …:`` are annotations (code, for tools.xref), not prose, and are skipped.

A contributor tag from Kubernetes (``TODO(name)``, ``NOTE(#123)``) in a comment of ours is an
error too: it names someone else's plan.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from .problems import ERROR, Problem
from .py_index import is_annotation

UNITS_FORMAT = 1  # bump when `words`, the units or the hashes change: the lock must be rewritten
MIN_WORDS = 6
SHORT_WORDS = 4
QUOTE_WORDS = 30
_KEY_HEX = 10  # 40 bits: a window of our text is looked up by this hash of its first words
_TAIL_HEX = 6  # checked only after the key matched

_WORD = re.compile(r"[A-Za-z0-9_]+")
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")
_CLAUSE_END = re.compile(r"[,;:()]\s")
_GO_TOKENS = re.compile(
    r'"(?:\\.|[^"\\\n])*"|`[^`]*`|\'(?:\\.|[^\'\\\n])*\'|//(?P<line>[^\n]*)|/\*(?P<block>.*?)\*/',
    re.S,
)
_QUOTE = re.compile(r'"[^"]*"|“[^”]*”|「[^」]*」', re.S)
_ANCHOR = re.compile(r"^\s*Go( omitted)?:\s*(case\b|default\b)")
_ATTRIBUTION = re.compile(r"[\w./-]+\.go\b|github\.com/kubernetes")
# A Go contributor tag: `TODO(name)`, `NOTE(#1234)`, `FIXME(someone)` …
_CONTRIBUTOR_TAG = re.compile(r"\b(?:TODO|NOTE|FIXME|XXX|BUG|HACK)\s?\(\s*[@#\w.-]+\s*\)")
_CODE_SPAN = re.compile(r"``.*?``|`[^`]*`")
_SKIP_DIRS = {"site", "node_modules", "__pycache__"}
TEXT_SUFFIXES = {".md", ".yaml", ".yml", ".dot"}
SCANNED_SUFFIXES = TEXT_SUFFIXES | {".py", ".go"}


def words(text: str) -> list[str]:
    """The normalised words of `text`: ``"The podStatus, pod_status"`` → the, podstatus, podstatus."""
    return [w for w in (m.group().replace("_", "").lower() for m in _WORD.finditer(text)) if w]


def _h(ws: Iterable[str]) -> str:
    return hashlib.blake2b(" ".join(ws).encode(), digest_size=8).hexdigest()


def unit_hash(ws: list[str]) -> str:
    """The lock's hash of one unit: the key (first `MIN_WORDS` words) and, if longer, a tail."""
    key = _h(ws[:MIN_WORDS])[:_KEY_HEX]
    return key if len(ws) <= MIN_WORDS else key + _h(ws)[:_TAIL_HEX]


@dataclass
class GoUnits:
    """The hashed comment units of one Go file, by word count.

    `lines` (hash → 1-based line) is known only when read from the source; the lock has none.
    """

    by_len: dict[int, frozenset[str]] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, str]:
        return {str(n): " ".join(sorted(hs)) for n, hs in sorted(self.by_len.items())}

    @classmethod
    def from_json(cls, data: dict[str, str]) -> GoUnits:
        return cls({int(n): frozenset(hs.split()) for n, hs in data.items()})

    def __len__(self) -> int:
        return sum(len(hs) for hs in self.by_len.values())


def go_comments(src: str) -> Iterator[list[tuple[int, str]]]:
    """Runs of Go comments, each a list of (1-based line, text without ``//`` or ``/* */``).

    Consecutive ``//`` lines make one run; a ``/* */`` comment is a run of its own.  Strings and
    rune literals are skipped, so ``"http://…"`` is no comment.
    """
    starts = [0, *(i + 1 for i, c in enumerate(src) if c == "\n")]
    run: list[tuple[int, str]] = []
    for m in _GO_TOKENS.finditer(src):
        if m.group("line") is None and m.group("block") is None:
            continue
        line = bisect.bisect_right(starts, m.start())
        if m.group("line") is not None and run and run[-1][0] == line - 1:
            run.append((line, m.group("line")))
            continue
        if run:
            yield run
        if m.group("line") is not None:
            run = [(line, m.group("line"))]
        else:
            yield [(line + i, t) for i, t in enumerate(m.group("block").split("\n"))]
            run = []
    if run:
        yield run


def go_units(src: bytes | str) -> GoUnits:
    """The comment units of one Go file, hashed (`unit_hash`), with the line each starts on."""
    text = src.decode("utf-8", "replace") if isinstance(src, bytes) else src
    by_len: dict[int, set[str]] = {}
    lines: dict[str, int] = {}

    def add(ws: list[str], line: int) -> None:
        if len(ws) >= SHORT_WORDS:
            h = unit_hash(ws)
            by_len.setdefault(len(ws), set()).add(h)
            lines.setdefault(h, line)

    for run in go_comments(text):
        for line, t in run:
            add(words(t), line)
        joined = "\n".join(t for _, t in run)
        offset = 0
        for sentence in _SENTENCE_END.split(joined):
            offset = joined.find(sentence, offset)
            line = run[0][0] + joined.count("\n", 0, max(offset, 0))
            add(words(sentence), line)
            clauses = _CLAUSE_END.split(sentence)
            for clause in clauses if len(clauses) > 1 else ():
                ws = words(clause)
                if len(ws) >= MIN_WORDS:
                    add(ws, line)
    return GoUnits({n: frozenset(hs) for n, hs in by_len.items()}, lines)


@dataclass
class Copy:
    """A place in our text that repeats a unit of a Go comment."""

    file: str
    line: int
    go_path: str
    go_line: int | None


class Matcher:
    """Looks our text up in the units of many Go files."""

    def __init__(self, files: dict[str, GoUnits]):
        # key → [(word count, whole hash, Go path)]; short units: whole hash → (count, path)
        self.long: dict[str, list[tuple[int, str, str]]] = {}
        self.short: dict[str, tuple[int, str]] = {}
        self.files = files
        for path, units in sorted(files.items()):
            for n, hashes in units.by_len.items():
                for h in hashes:
                    if n >= MIN_WORDS:
                        self.long.setdefault(h[:_KEY_HEX], []).append((n, h, path))
                    else:
                        self.short.setdefault(h, (n, path))

    def find(self, tokens: list[tuple[str | None, int]]) -> Iterator[tuple[int, int, str, str]]:
        """(first line, last line, Go path, hash) of each long unit found in `tokens`.

        `tokens` are (word, line) pairs; a None word breaks the text (a marked quotation).
        """
        for i in range(len(tokens) - MIN_WORDS + 1):
            words = [w for w, _ in tokens[i : i + MIN_WORDS] if w is not None]
            if len(words) < MIN_WORDS:
                continue
            for n, h, path in self.long.get(_h(words)[:_KEY_HEX], ()):
                span = tokens[i : i + n]
                if len(span) == n and all(w is not None for w, _ in span):
                    if unit_hash([w for w, _ in span if w is not None]) == h:
                        yield span[0][1], span[-1][1], path, h

    def find_whole(self, ws: list[str]) -> tuple[str, str] | None:
        """(Go path, hash) when `ws`, a whole line or sentence of ours, is a unit.

        Long units are found in the tokens too, but there a quotation breaks the text: a Go
        line that quotes a name ("github.com/…") and is copied whole is caught here.
        """
        if len(ws) < SHORT_WORDS:
            return None
        h = unit_hash(ws)
        if len(ws) >= MIN_WORDS:
            for n, full, path in self.long.get(h[:_KEY_HEX], ()):
                if n == len(ws) and full == h:
                    return path, h
            return None
        hit = self.short.get(h)
        return (hit[1], h) if hit and hit[0] == len(ws) else None

    def go_line(self, path: str, h: str) -> int | None:
        return self.files[path].lines.get(h)


@dataclass
class TextBlock:
    """A run of our text (a comment, a docstring, a paragraph): its lines and their text."""

    lines: list[tuple[int, str]]


def _tokens(block: TextBlock) -> tuple[list[tuple[str | None, int]], list[tuple[list[str], int]]]:
    """The words of a block with their lines (None where a marked quotation breaks the text),
    and the wholes: each line's and each sentence's words, with the line it starts on."""
    text = "\n".join(t for _, t in block.lines)
    starts = [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]

    def line_at(pos: int) -> int:
        return block.lines[bisect.bisect_right(starts, pos) - 1][0]

    quoted = [
        (m.start(), m.end()) for m in _QUOTE.finditer(text) if len(words(m.group())) <= QUOTE_WORDS
    ]
    tokens: list[tuple[str | None, int]] = []
    q = 0
    for m in _WORD.finditer(text):
        while q < len(quoted) and quoted[q][1] <= m.start():
            q += 1
        if q < len(quoted) and quoted[q][0] <= m.start():
            if not tokens or tokens[-1][0] is not None:
                tokens.append((None, line_at(m.start())))
            continue
        w = m.group().replace("_", "").lower()
        if w:
            tokens.append((w, line_at(m.start())))

    def mostly_quoted(start: int, end: int) -> bool:
        """A whole that is mostly a marked quotation is one (and allowed)."""
        inside = sum(
            len(words(text[max(a, start) : min(b, end)]))
            for a, b in quoted
            if a < end and b > start
        )
        return 2 * inside >= len(words(text[start:end]))

    wholes = []
    for (n, t), start in zip(block.lines, starts, strict=True):
        if not mostly_quoted(start, start + len(t)):
            wholes.append((words(t), n))
    offset = 0
    for sentence in _SENTENCE_END.split(text):
        offset = text.find(sentence, offset)
        if not mostly_quoted(max(offset, 0), max(offset, 0) + len(sentence)):
            wholes.append((words(sentence), line_at(max(offset, 0))))
    return tokens, wholes


def find_copies(blocks: Iterable[tuple[str, TextBlock]], matcher: Matcher) -> list[Copy]:
    """Every line of our text that is part of a repeated Go comment unit (one per file:line)."""
    seen: dict[tuple[str, int], Copy] = {}
    for rel, block in blocks:
        tokens, wholes = _tokens(block)
        for first, last, path, h in matcher.find(tokens):
            for n, _ in block.lines:
                if first <= n <= last:
                    seen.setdefault((rel, n), Copy(rel, n, path, matcher.go_line(path, h)))
        for ws, n in wholes:
            hit = matcher.find_whole(ws)
            if hit:
                seen.setdefault((rel, n), Copy(rel, n, hit[0], matcher.go_line(*hit)))
    return sorted(seen.values(), key=lambda c: (c.file, c.line))


# --- our text -------------------------------------------------------------------------------


_PY_QUERY = """
(comment) @comment
(module . (expression_statement (string) @doc))
(function_definition body: (block . (expression_statement (string) @doc)))
(class_definition body: (block . (expression_statement (string) @doc)))
"""


@cache
def _python():
    import tree_sitter
    import tree_sitter_python

    language = tree_sitter.Language(tree_sitter_python.language())
    query = tree_sitter.Query(language, _PY_QUERY)
    return tree_sitter.Parser(language), query, tree_sitter.QueryCursor


def _python_blocks(src: str) -> Iterator[TextBlock]:
    """Comments (consecutive own-line comments in one column are one block) and docstrings."""
    parser, query, cursor = _python()
    data = src.encode()
    caps = cursor(query).captures(parser.parse(data).root_node)
    lines = data.split(b"\n")
    run: list[tuple[int, str]] = []
    last = (-2, -1)  # (line, column) of the previous own-line comment
    for node in sorted(caps.get("comment", []), key=lambda n: n.start_byte):
        text = node.text.decode("utf-8", "replace")[1:].removeprefix(":")  # ``#:`` documents
        row, col = node.start_point[0] + 1, node.start_point[1]
        own_line = not lines[row - 1][:col].strip()
        if _ANCHOR.match(text):
            text = ""
        if own_line and run and last == (row - 1, col):
            run.append((row, text))
        else:
            if run:
                yield TextBlock(run)
            run = [(row, text)]
        last = (row, col) if own_line else (-2, -1)
    if run:
        yield TextBlock(run)
    for node in caps.get("doc", []):
        parts = [c for c in node.children if c.type == "string_content"]
        if not parts:
            continue
        first = parts[0].start_point[0] + 1
        text = data[parts[0].start_byte : parts[-1].end_byte].decode("utf-8", "replace")
        doc = [(first + i, "" if _is_go_line(t) else t) for i, t in enumerate(text.split("\n"))]
        yield from _markdown_blocks(doc)


def _is_go_line(text: str) -> bool:
    s = text.strip()
    return s.startswith("Go:") and is_annotation(s[3:])


def _markdown_blocks(lines: list[tuple[int, str]], quotes: bool = True) -> Iterator[TextBlock]:
    """Paragraphs; with `quotes`, an attributed block quote is skipped (an unattributed one is
    checked like any paragraph)."""
    i = 0
    while i < len(lines):
        if not lines[i][1].strip():
            i += 1
            continue
        quote = quotes and lines[i][1].lstrip().startswith(">")
        j = i
        while (
            j < len(lines)
            and lines[j][1].strip()
            and (quotes and lines[j][1].lstrip().startswith(">")) == quote
        ):
            j += 1
        block = lines[i:j]
        if quote:
            after = next((t for _, t in lines[j:] if t.strip()), "")
            if any(_ATTRIBUTION.search(t) for _, t in block) or _ATTRIBUTION.search(after):
                i = j
                continue
            block = [(n, t.lstrip().lstrip(">")) for n, t in block]
        yield TextBlock(block)
        i = j


def text_blocks(path: Path, src: str) -> Iterator[TextBlock]:
    """The blocks of our text in one file."""
    numbered = list(enumerate(src.split("\n"), 1))
    if path.suffix == ".py":
        yield from _python_blocks(src)
    elif path.suffix == ".go":
        for run in go_comments(src):
            yield TextBlock(run)
    elif path.suffix == ".md":
        yield from _markdown_blocks(numbered)
    else:
        yield from _markdown_blocks(numbered, quotes=False)


def project_files(root: Path, skip: Path | None = None) -> Iterator[Path]:
    """Files of ours that hold prose or comments.

    Hidden, build and cache folders are skipped, and `skip` (the Go source, if it is a folder
    under `root`).
    """
    skip_dir = str(Path(skip).resolve()) if skip is not None else None
    for top, dirs, files in os.walk(root):
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".")
            and d not in _SKIP_DIRS
            and not d.endswith(".egg-info")
            and str(Path(top, d).resolve()) != skip_dir
        )
        for name in sorted(files):
            p = Path(top, name)
            if p.suffix in SCANNED_SUFFIXES:
                yield p


def scan_project(root: Path, skip: Path | None = None) -> Iterator[tuple[str, TextBlock]]:
    """(repository-relative path, block) for our text under `root`."""
    root = Path(root)
    for p in project_files(root, skip):
        try:
            src = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        rel = p.resolve().relative_to(root.resolve()).as_posix()
        for block in text_blocks(p, src):
            yield rel, block


def check_comments_in(
    root: Path, units: dict[str, GoUnits], skip: Path | None = None
) -> list[Problem]:
    """An error for each line of our text that repeats a Go comment of `units` word for word,
    and for each Go contributor tag (``TODO(name)``) in a comment of ours."""
    out = []
    blocks = list(scan_project(root, skip))
    for rel, block in blocks:
        if not rel.endswith((".py", ".go")):
            continue
        for n, text in block.lines:
            m = _CONTRIBUTOR_TAG.search(_CODE_SPAN.sub("", text))  # ``TODO(x)`` is a mention
            if m:
                out.append(
                    Problem(
                        ERROR,
                        "contributor-tag",
                        rel,
                        n,
                        f"{m.group()!r} is a Kubernetes contributor's tag: say what is left to do, "
                        "if anything, in our words",
                    )
                )
    for c in find_copies(blocks, Matcher(units)):
        where = f"{c.go_path}:{c.go_line}" if c.go_line else c.go_path
        out.append(
            Problem(
                ERROR,
                "copied-comment",
                c.file,
                c.line,
                f"repeats a Kubernetes comment ({where}) word for word: say in our words what "
                "a reader needs beside the Go, or quote briefly, marked and attributed",
            )
        )
    return out
