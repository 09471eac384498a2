"""Resolving the port's annotations against Go facts (from the source, or from the lock).

Every ``Go:`` mapping must name an existing file and symbol; every block anchor must name a
select/switch case of the Go function mapped by its enclosing Python function; and every case
of a mapped Go function must be ported or omitted (fidelity).  Against a source, the lock is
also compared with what the source says (drift).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

from .comments import go_units
from .go_index import KIND_FUNC, KIND_METHOD, KIND_TYPE, GoCase, GoFile, GoStmt, fields, statements
from .hashes import git_blob_sha, sha256
from .lock import Lock, LockFile, LockSymbol
from .paths import TAG, permalink
from .problems import ERROR, NOTE, WARNING, Problem
from .py_index import PyDef, PyIndex

FUNCTION_KINDS = (KIND_FUNC, KIND_METHOD)


@dataclass
class GoFacts:
    """What is known of one Go symbol."""

    path: str
    symbol: str
    kind: str
    start: int
    end: int
    sha256: str
    read_from: str
    cases: tuple[GoCase, ...] = ()
    text: str | None = None  # the declaration's text, when the source is at hand


class SourceLookup:
    """Go facts read from source files (indexed with tree-sitter-go)."""

    def __init__(self, files: dict[str, tuple[GoFile, bytes]], version: str, where: str):
        self.files, self.version, self.where = files, version, where
        self._statements: dict[tuple[str, str], list[GoStmt]] = {}
        self._fields: dict[tuple[str, str], list[GoStmt]] = {}

    def has_file(self, path: str) -> bool:
        return path in self.files

    def names(self, path: str) -> list[str]:
        return [s.symbol for s in self.files[path][0].symbols] if path in self.files else []

    def symbol(self, path: str, name: str) -> GoFacts | None:
        if path not in self.files:
            return None
        gofile, data = self.files[path]
        s = gofile.get(name)
        if s is None:
            return None
        raw = data[s.start_byte : s.end_byte]
        return GoFacts(
            path,
            s.symbol,
            s.kind,
            s.start,
            s.end,
            sha256(raw),
            self.version,
            s.cases,
            raw.decode("utf-8", "replace"),
        )

    def errors(self, path: str) -> list[tuple[int, int, str]]:
        return self.files[path][0].errors if path in self.files else []

    exact_statements = False  # an anchor names a statement by the start of its first line

    def statements(self, path: str, name: str) -> list[GoStmt]:
        """Every statement of a function, for ``# Go: <statement>`` anchors (parsed on demand)."""
        key = (path, name)
        if key not in self._statements:
            facts = self.symbol(path, name)
            self._statements[key] = (
                statements(facts.text, facts.start) if facts and facts.text else []
            )
        return self._statements[key]

    def fields(self, path: str, name: str) -> list[GoStmt]:
        """The fields of a struct type (parsed on demand), to link a class's attributes to."""
        key = (path, name)
        if key not in self._fields:
            facts = self.symbol(path, name)
            self._fields[key] = fields(facts.text, facts.start) if facts and facts.text else []
        return self._fields[key]

    def file_fact(self, path: str) -> LockFile:
        gofile, data = self.files[path]
        return LockFile(
            path, gofile.sha256, git_blob_sha(data), gofile.lines, self.version, go_units(data)
        )


class LockLookup:
    """Go facts from the lock file (link-only mode)."""

    def __init__(self, lock: Lock | None, where: str = "the lock file"):
        self.lock = lock or Lock()
        self.where = where
        self.version = None

    def has_file(self, path: str) -> bool:
        return path in self.lock.files or any(p == path for p, _ in self.lock.symbols)

    def names(self, path: str) -> list[str]:
        return [s for p, s in self.lock.symbols if p == path]

    def symbol(self, path: str, name: str) -> GoFacts | None:
        s = self.lock.symbols.get((path, name))
        if s is None:
            return None
        return GoFacts(path, s.symbol, s.kind, s.start, s.end, s.sha256, s.read_from, s.cases)

    def errors(self, path: str) -> list[tuple[int, int, str]]:
        return []

    exact_statements = True  # the lock holds the anchors' own text

    def statements(self, path: str, name: str) -> list[GoStmt]:
        """The statements the port anchors, as the lock recorded them."""
        s = self.lock.symbols.get((path, name))
        return list(s.blocks) if s is not None else []

    def fields(self, path: str, name: str) -> list[GoStmt]:
        """The struct fields the port links, as the lock recorded them (a type's blocks)."""
        return self.statements(path, name)


@dataclass
class Block:
    """A Go case or statement and the Python lines that port it (or why it is omitted)."""

    case: str  # the case header, or the anchor's text for a statement
    status: str  # ported | omitted
    py_line: int
    py_start: int
    py_end: int
    go_start: int
    go_end: int
    go_kind: str  # select | switch | typeswitch | stmt | field
    permalink: str
    reason: str = ""
    go_lead: int = 0  # a statement's first line with the comment above it (else go_start)

    def __post_init__(self):
        self.go_lead = self.go_lead or self.go_start


@dataclass
class Mapping:
    """One Python def ↔ one Go symbol, resolved (or not) to lines of the tag."""

    py_file: str
    py_qualname: str
    py_kind: str
    py_start: int
    py_end: int
    py_line: int  # the docstring's ``Go:`` line
    go_path: str
    go_symbol: str
    go_kind: str
    resolved: bool
    go_start: int | None = None
    go_end: int | None = None
    sha256: str | None = None
    read_from: str | None = None  # the release the lines were read from
    verified: bool = False  # read from the tag itself (else: show the file permalink first)
    permalink: str = ""
    file_permalink: str = ""
    blocks: list[Block] = field(default_factory=list)
    go_text: str | None = None

    def to_json(self, text: bool = False) -> dict:
        out = {k: v for k, v in self.__dict__.items() if k not in ("blocks", "go_text")}
        out["blocks"] = [b.__dict__ for b in self.blocks]
        if text:
            out["go_text"] = self.go_text
        return out


@dataclass
class FidelityCase:
    case: str
    kind: str
    go_start: int
    go_end: int
    status: str  # ported | omitted | missing
    reason: str = ""
    py_file: str = ""
    py_line: int = 0


@dataclass
class FidelityOmission:
    """A part of a Go function that is not a case, left out with a reason."""

    what: str
    reason: str
    py_file: str
    py_line: int


@dataclass
class Fidelity:
    """For one mapped Go function: each of its select/switch cases and what the port did."""

    go_path: str
    go_symbol: str
    go_start: int
    go_end: int
    py: list[tuple[str, int]]  # where it is mapped (file, line)
    cases: list[FidelityCase]
    omissions: list[FidelityOmission] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for c in self.cases if c.status == status)

    def to_json(self) -> dict:
        return {
            "go_path": self.go_path,
            "go_symbol": self.go_symbol,
            "go_start": self.go_start,
            "go_end": self.go_end,
            "permalink": permalink(self.go_path, self.go_start, self.go_end),
            "py": [{"file": f, "line": n} for f, n in self.py],
            "ported": self.count("ported"),
            "omitted": self.count("omitted"),
            "missing": self.count("missing"),
            "cases": [c.__dict__ for c in self.cases],
            "omissions": [o.__dict__ for o in self.omissions],
        }


def _lines(path: str, start: int, end: int) -> str:
    return f"{path}:{start}-{end}"


def _missing_symbol_hint(name: str, names: list[str]) -> str:
    hints = []
    if name.startswith("(*") and name.replace("(*", "(", 1) in names:
        hints.append(f"the Go receiver is a value: {name.replace('(*', '(', 1)}")
    elif name.startswith("(") and not name.startswith("(*") and name.replace("(", "(*", 1) in names:
        hints.append(f"the Go receiver is a pointer: {name.replace('(', '(*', 1)}")
    close = [n for n in difflib.get_close_matches(name, names, n=3, cutoff=0.6) if n != name]
    if close and not hints:
        hints.append("did you mean " + ", ".join(close) + "?")
    return ("; " + "; ".join(hints)) if hints else ""


def _place_statement(
    a, d: PyDef, resolved_funcs, lookup, taken, omissions, tag: str
) -> Problem | None:
    """Resolve one statement anchor (``# Go: <statement>``, ``# Go omitted: <statement> --
    <reason>``) to the first statement of the enclosing def's Go function(s) that its text
    starts, and that no earlier anchor took.  A ``# Go:`` comment that starts no statement is a
    remark; one whose statements are all taken is said (a warning); an omission must resolve,
    and is then listed in `omissions` under its function (what ``report`` shows)."""
    seen = 0
    for out, facts in resolved_funcs:
        key = (out.go_path, facts.symbol)
        for i, st in enumerate(lookup.statements(*key)):
            if not (st.text == a.case if lookup.exact_statements else st.text.startswith(a.case)):
                continue
            seen += 1
            if i in taken[key]:
                continue
            link = permalink(out.go_path, st.start, st.end, tag=out.read_from or tag)
            status = "omitted" if a.kind == "omitted-statement" else "ported"
            block = Block(a.case, status, a.line, a.start, a.end, st.start, st.end, "stmt", link,
                          a.reason, st.lead)  # fmt: skip
            taken[key][i] = block
            out.blocks.append(block)
            if a.kind == "omitted-statement":
                omissions.setdefault(key, []).append(
                    FidelityOmission(a.case, a.reason, d.file, a.line)
                )
            return None
    if a.kind == "statement" and not seen:
        return None  # a '# Go:' remark that names no statement is prose
    targets = ", ".join(
        f"{f.symbol} ({_lines(o.go_path, f.start, f.end)})" for o, f in resolved_funcs
    )
    if seen:
        return Problem(
            WARNING if a.kind == "statement" else ERROR,
            "extra-anchor",
            d.file,
            a.line,
            f"'# Go: {a.case}' matches {seen} statement(s) of {targets}, and each already has "
            "an anchor",
        )
    if lookup.exact_statements:
        hint = " (link-only: the lock lacks it; run 'python -m tools.xref lock' with the source)"
    else:
        texts = [
            st.text for o, f in resolved_funcs for st in lookup.statements(o.go_path, f.symbol)
        ]
        close = difflib.get_close_matches(a.case, texts, n=3, cutoff=0.5)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return Problem(
        ERROR,
        "unresolved-anchor",
        d.file,
        a.line,
        f"'# Go omitted: {a.case}' names no statement of {targets}{hint}",
    )


def _key(name: str) -> str:
    """What a Go field and a Python attribute are matched by: ``SandboxID`` and ``sandbox_id``
    (``_sandbox_id``) are both ``sandboxid``."""
    return name.lstrip("_").replace("_", "").lower()


def _link_fields(out: Mapping, d: PyDef, go_fields: list[GoStmt], tag: str) -> None:
    """Link each field of a Go struct to the attribute of `d` that has its name (`_key`): the
    port keeps Go's names, so the name is the anchor.  A name that two fields (or two
    attributes) share links nothing; a field or an attribute without a twin stays unlinked."""
    go_by: dict[str, list[GoStmt]] = {}
    for g in go_fields:
        go_by.setdefault(_key(g.text), []).append(g)
    py_by: dict[str, list] = {}
    for f in d.fields:
        py_by.setdefault(_key(f.name), []).append(f)
    for key, gos in go_by.items():
        pys = py_by.get(key, [])
        if len(gos) == 1 and len(pys) == 1:
            g, p = gos[0], pys[0]
            link = permalink(out.go_path, g.start, g.end, tag=out.read_from or tag)
            out.blocks.append(Block(g.text, "ported", p.line, p.start, p.end, g.start, g.end,
                                    "field", link, "", g.lead))  # fmt: skip


def _extend_runs(stmts: list[GoStmt], placed: dict[int, Block], path: str, tag: str) -> None:
    """An anchored statement's Go block runs on over the statements after it in its list, up to
    the next anchored one: like its Python twin, which runs to the next anchor."""
    for i, block in placed.items():
        st, end = stmts[i], stmts[i].end
        for j in range(i + 1, len(stmts)):
            other = stmts[j]
            if other.group != st.group or other.start <= st.end:
                continue  # nested in this statement, or in another list
            if j in placed:
                break
            end = max(end, other.end)
        block.go_end = end
        block.permalink = permalink(path, st.start, end, tag=tag)


def resolve(
    py: PyIndex, lookup, *, strict_fidelity: bool = True, tag: str = TAG
) -> tuple[list[Mapping], list[Fidelity], list[Problem]]:
    """Resolve every annotation of `py` with `lookup` (a `SourceLookup` or a `LockLookup`).

    One pass after the other: the modules' Go files, the defs' mappings, the block anchors
    inside the defs, the statement runs, fidelity, and tree-sitter's syntax warnings."""
    problems = _check_module_files(py, lookup)
    mapped = _resolve_mappings(py, lookup, tag, problems)
    taken, taken_stmts, omissions = _place_anchors(mapped, lookup, tag, problems)
    if not lookup.exact_statements:  # from the source: statements know their siblings
        for key, placed in taken_stmts.items():
            if placed:
                _extend_runs(lookup.statements(*key), placed, key[0], mapped.funcs[key].read_from)
    fidelity = _fidelity(mapped, taken, omissions, strict_fidelity, problems)
    problems += _go_syntax_warnings(py, lookup, mapped.mappings)
    return mapped.mappings, fidelity, problems


def _check_module_files(py: PyIndex, lookup) -> list[Problem]:
    """Each module docstring's ``Go: <path>`` names a file `lookup` has."""
    return [
        Problem(
            ERROR,
            "unresolved-file",
            module.file,
            line,
            f"looked for Go file {path} in {lookup.where}: not found",
        )
        for module in py.modules
        for line, path in module.go_files
        if not lookup.has_file(path)
    ]


@dataclass
class _Mapped:
    """What resolving the defs' ``Go:`` lines found."""

    mappings: list[Mapping] = field(default_factory=list)
    #: Each mapped Go function or method, by (path, symbol).
    funcs: dict[tuple[str, str], GoFacts] = field(default_factory=dict)
    #: Where the port maps each of them (file, docstring line).
    mapped_at: dict[tuple[str, str], list[tuple[str, int]]] = field(default_factory=dict)
    #: Each def with the Go functions its mappings resolved to.
    def_funcs: list[tuple[PyDef, list[tuple[Mapping, GoFacts]]]] = field(default_factory=list)


def _resolve_mappings(py: PyIndex, lookup, tag: str, problems: list[Problem]) -> _Mapped:
    """Resolve each def's ``Go: <path> <symbol>`` lines to Go facts, link a struct's fields."""
    where = lookup.where
    found = _Mapped()
    for d in py.defs:
        resolved_funcs = []
        for m in d.mappings:
            out = Mapping(
                d.file,
                d.qualname,
                d.kind,
                d.start,
                d.end,
                m.line,
                m.go_path,
                m.symbol,
                m.go_kind,
                resolved=False,
                file_permalink=permalink(m.go_path, tag=tag),
            )
            out.permalink = out.file_permalink
            found.mappings.append(out)
            if not lookup.has_file(m.go_path):
                problems.append(
                    Problem(
                        ERROR,
                        "unresolved-file",
                        d.file,
                        m.line,
                        f"looked for {m.symbol} in Go file {m.go_path} in {where}: file not found",
                    )
                )
                continue
            facts = lookup.symbol(m.go_path, m.symbol)
            if facts is None:
                hint = _missing_symbol_hint(m.symbol, lookup.names(m.go_path))
                problems.append(
                    Problem(
                        ERROR,
                        "unresolved-symbol",
                        d.file,
                        m.line,
                        f"looked for {m.symbol} in {m.go_path} ({where}): not found{hint}",
                    )
                )
                continue
            out.resolved = True
            out.go_kind = facts.kind
            out.go_start, out.go_end, out.sha256 = facts.start, facts.end, facts.sha256
            out.read_from = facts.read_from
            out.verified = facts.read_from == tag
            # A line number links to the release it was read from: the tag's lines may differ.
            out.permalink = permalink(m.go_path, facts.start, facts.end, tag=facts.read_from)
            out.go_text = facts.text
            if facts.kind in FUNCTION_KINDS:
                key = (m.go_path, facts.symbol)
                found.funcs[key] = facts
                found.mapped_at.setdefault(key, []).append((d.file, m.line))
                resolved_funcs.append((out, facts))
            elif facts.kind == KIND_TYPE and d.fields:
                _link_fields(out, d, lookup.fields(m.go_path, facts.symbol), tag)
        found.def_funcs.append((d, resolved_funcs))
    return found


#: The case anchors placed so far, by Go function: case index → (anchor, def).
_TakenCases = dict[tuple[str, str], dict[int, tuple]]
#: The statement anchors placed so far, by Go function: statement index → block.
_TakenStatements = dict[tuple[str, str], dict[int, Block]]
_Omissions = dict[tuple[str, str], list[FidelityOmission]]


def _place_anchors(
    mapped: _Mapped, lookup, tag: str, problems: list[Problem]
) -> tuple[_TakenCases, _TakenStatements, _Omissions]:
    """Block anchors, in order of occurrence, against the cases and statements of the
    enclosing def's function(s)."""
    taken: _TakenCases = {k: {} for k in mapped.funcs}
    taken_stmts: _TakenStatements = {k: {} for k in mapped.funcs}
    omissions: _Omissions = {}
    for d, resolved_funcs in mapped.def_funcs:
        if not d.anchors:
            continue
        if not resolved_funcs:
            if all(m.go_kind not in FUNCTION_KINDS for m in d.mappings):
                problems += [
                    Problem(
                        ERROR,
                        "anchor-without-function",
                        d.file,
                        a.line,
                        f"block anchor '{a.case}' is in {d.qualname}, which maps no Go "
                        "function or method",
                    )
                    for a in d.anchors
                ]
            continue  # its mapping did not resolve: already reported
        for a in d.anchors:
            if a.kind in ("statement", "omitted-statement"):
                problem = _place_statement(
                    a, d, resolved_funcs, lookup, taken_stmts, omissions, tag
                )
            else:
                problem = _place_case(a, d, resolved_funcs, taken, tag)
            if problem is not None:
                problems.append(problem)
    return taken, taken_stmts, omissions


def _place_case(
    a, d: PyDef, resolved_funcs: list[tuple[Mapping, GoFacts]], taken: _TakenCases, tag: str
) -> Problem | None:
    """Resolve one case anchor (``# Go: case …:``, ``# Go omitted: case …: -- <reason>``) to
    the first case of the enclosing def's Go function(s) with its text that no earlier anchor
    took."""
    seen = 0
    for out, facts in resolved_funcs:
        key = (out.go_path, facts.symbol)
        for i, c in enumerate(facts.cases):
            if c.header != a.case:
                continue
            seen += 1
            if i in taken[key]:
                continue
            taken[key][i] = (a, d)
            status = "omitted" if a.kind == "omitted" else "ported"
            link = permalink(out.go_path, c.start, c.end, tag=out.read_from or tag)
            out.blocks.append(
                Block(a.case, status, a.line, a.start, a.end, c.start, c.end, c.kind,
                      link, a.reason)
            )  # fmt: skip
            return None
    targets = ", ".join(
        f"{f.symbol} ({_lines(o.go_path, f.start, f.end)})" for o, f in resolved_funcs
    )
    if seen:
        return Problem(
            ERROR,
            "extra-anchor",
            d.file,
            a.line,
            f"'{a.case}' occurs {seen} time(s) in {targets} and every occurrence "
            "already has an anchor or omission",
        )
    known = [f"{c.header} (L{c.start})" for _, f in resolved_funcs for c in f.cases]
    listing = "; ".join(known) if known else "none, it has no select/switch"
    return Problem(
        ERROR,
        "unresolved-anchor",
        d.file,
        a.line,
        f"looked for '{a.case}' among the select/switch cases of {targets}: "
        f"not found. Cases there: {listing}",
    )


def _fidelity(
    mapped: _Mapped,
    taken: _TakenCases,
    omissions: _Omissions,
    strict_fidelity: bool,
    problems: list[Problem],
) -> list[Fidelity]:
    """For each mapped Go function, in file and line order, each case's status: ported,
    omitted, or missing (an error, a warning when not `strict_fidelity`)."""
    fidelity: list[Fidelity] = []
    for key, facts in sorted(mapped.funcs.items(), key=lambda kv: (kv[0][0], kv[1].start)):
        cases = []
        for i, c in enumerate(facts.cases):
            got = taken[key].get(i)
            if got is None:
                cases.append(FidelityCase(c.header, c.kind, c.start, c.end, "missing"))
                py_file, py_line = mapped.mapped_at[key][0]
                problems.append(
                    Problem(
                        ERROR if strict_fidelity else WARNING,
                        "missing-case",
                        py_file,
                        py_line,
                        f"{facts.symbol}: '{c.header}' ({key[0]}:{c.start}) is neither "
                        f"ported ('# Go: {c.header}') nor omitted ('# Go omitted: "
                        f"{c.header} -- <reason>')",
                    )
                )
            else:
                a, d = got
                status = "omitted" if a.kind == "omitted" else "ported"
                cases.append(
                    FidelityCase(c.header, c.kind, c.start, c.end, status, a.reason, d.file, a.line)
                )
        fidelity.append(
            Fidelity(
                key[0],
                facts.symbol,
                facts.start,
                facts.end,
                mapped.mapped_at[key],
                cases,
                omissions.get(key, []),
            )
        )
    return fidelity


def _go_syntax_warnings(py: PyIndex, lookup, mappings: list[Mapping]) -> list[Problem]:
    """A warning for each Go file tree-sitter-go parsed only by recovering from errors."""
    warnings = []
    for path in sorted({m.go_path for m in mappings} | py.go_paths()):
        errs = lookup.errors(path)
        if errs:
            line, col, what = errs[0]
            warnings.append(
                Problem(
                    WARNING,
                    "go-syntax",
                    path,
                    line,
                    f"tree-sitter-go recovered from {len(errs)} syntax error(s) in {path}, "
                    f"first: {what} at {line}:{col}; symbols after it may be missing",
                )
            )
    return warnings


def make_lock(py: PyIndex, lookup: SourceLookup, mappings: list[Mapping], tag: str = TAG) -> Lock:
    """The lock for every mapped file and every resolved mapped symbol, read from `lookup`."""
    lock = Lock(tag=tag)
    for path in sorted(py.go_paths()):
        if lookup.has_file(path):
            lock.files[path] = lookup.file_fact(path)
    for m in mappings:
        if not m.resolved:
            continue
        f = lookup.symbol(m.go_path, m.go_symbol)
        assert f is not None  # resolved against this lookup
        key = (m.go_path, m.go_symbol)
        old = lock.symbols[key].blocks if key in lock.symbols else ()
        lock.symbols[key] = LockSymbol(
            f.path, f.symbol, f.kind, f.start, f.end, f.sha256, f.read_from, f.cases,
            _stmt_blocks(m, old),
        )  # fmt: skip
    return lock


def _stmt_blocks(m: Mapping, also: tuple[GoStmt, ...] = ()) -> tuple[GoStmt, ...]:
    """The statements `m`'s anchors name and the struct fields it links, as facts for the lock
    (with those in `also`)."""
    found = {
        GoStmt(b.case, b.go_lead, b.go_start, b.go_end)
        for b in m.blocks
        if b.go_kind in ("stmt", "field")
    }
    return tuple(sorted(found | set(also), key=lambda s: (s.start, s.text)))


def drift(lock: Lock, lookup: SourceLookup, mappings: list[Mapping], lock_name: str) -> list:
    """Differences between the lock and the source (errors), and what the lock lacks.

    One pass after the other: the lock's files, its symbols, the anchored statements, the
    mappings the lock lacks or no longer needs, and a note when older entries still agree."""

    def err(code: str, message: str, severity: str = ERROR) -> Problem:
        return Problem(severity, code, lock_name, 0, message)

    out = _drift_files(lock, lookup, err)
    agree, symbol_problems = _drift_symbols(lock, lookup, err)
    out += symbol_problems
    out += _drift_blocks(lock, lookup, mappings, err)
    out += _lock_coverage(lock, mappings, err)
    version = lookup.version
    older = sorted({s.read_from for s in lock.symbols.values() if s.read_from != version})
    if agree and older and not any(p.severity == ERROR for p in out):
        out.append(
            err(
                "read-from",
                f"{agree} lock entries read from {', '.join(older)} agree with "
                f"{version}; 'python -m tools.xref lock' would record read_from {version}",
                NOTE,
            )
        )
    return out


_Err = Callable[..., Problem]


def _drift_files(lock: Lock, lookup: SourceLookup, err: _Err) -> list[Problem]:
    """Each file of the lock against the source: there, same text, same comment hashes."""
    out: list[Problem] = []
    version = lookup.version
    for path, f in sorted(lock.files.items()):
        if not lookup.has_file(path):
            out.append(
                err(
                    "drift-file", f"{path} (read from {f.read_from}) is missing from {lookup.where}"
                )
            )
            continue
        now = lookup.file_fact(path)
        if f.comments is None:
            out.append(
                err(
                    "lock-stale",
                    f"{path}: the lock has no current hashes of its comments: run "
                    "'python -m tools.xref lock'",
                )
            )
        elif now.sha256 == f.sha256 and now.comments != f.comments:
            out.append(
                err(
                    "drift-comments",
                    f"{path}: same text, other hashes of its comments than the lock's (the way "
                    "comments are hashed changed): run 'python -m tools.xref lock'",
                )
            )
        if now.sha256 != f.sha256:
            if f.read_from == version:
                out.append(
                    err(
                        "drift-file",
                        f"{path} differs from the lock (both {version}): sha256 "
                        f"{now.sha256[:12]}… ≠ {f.sha256[:12]}…",
                    )
                )
            else:
                out.append(
                    err(
                        "file-differs",
                        f"{path} at {version} differs from the text the lock read "
                        f"from {f.read_from}; its symbols are checked one by one",
                        NOTE,
                    )
                )
    return out


def _drift_symbols(lock: Lock, lookup: SourceLookup, err: _Err) -> tuple[int, list[Problem]]:
    """Each symbol of the lock against the source: same lines, text and cases. Returns how
    many agree, and the differences."""
    out: list[Problem] = []
    version = lookup.version
    agree = 0
    for (path, name), s in sorted(lock.symbols.items()):
        where = f"{name} in {path}"
        if not lookup.has_file(path):
            out.append(err("drift-symbol", f"{where}: file missing from {lookup.where}"))
            continue
        now = lookup.symbol(path, name)
        if now is None:
            hint = _missing_symbol_hint(name, lookup.names(path))
            out.append(
                err(
                    "drift-symbol",
                    f"{where} (lock: lines {s.start}-{s.end}, read from "
                    f"{s.read_from}) is not in {version}: renamed or removed{hint}",
                )
            )
            continue
        before = len(out)
        if (now.start, now.end) != (s.start, s.end):
            out.append(
                err(
                    "drift-lines",
                    f"{where}: lines {now.start}-{now.end} in {version}, lock says "
                    f"{s.start}-{s.end} (read from {s.read_from})",
                )
            )
        elif now.sha256 != s.sha256:
            out.append(
                err(
                    "drift-text",
                    f"{where}: same lines, different text in {version} than in "
                    f"{s.read_from} (sha256 {now.sha256[:12]}… ≠ {s.sha256[:12]}…)",
                )
            )
        if tuple(now.cases) != tuple(s.cases):
            out.append(
                err(
                    "drift-cases",
                    f"{where}: select/switch cases differ between {version} and "
                    f"the lock ({len(now.cases)} vs {len(s.cases)} cases)",
                )
            )
        agree += len(out) == before
    return agree, out


def _drift_blocks(
    lock: Lock, lookup: SourceLookup, mappings: list[Mapping], err: _Err
) -> list[Problem]:
    """The statements the port anchors and the fields it links, where the lock says."""
    out: list[Problem] = []
    anchored: dict[tuple[str, str], set[GoStmt]] = {}
    for m in mappings:
        if m.resolved:
            anchored.setdefault((m.go_path, m.go_symbol), set()).update(_stmt_blocks(m))
    for key, blocks in sorted(anchored.items()):
        s = lock.symbols.get(key)
        if s is not None and blocks != set(s.blocks):
            moved = sorted(f"'{b.text}' L{b.start}" for b in blocks - set(s.blocks))
            what = "fields the port links" if s.kind == KIND_TYPE else "statements the port anchors"
            out.append(
                err(
                    "drift-blocks",
                    f"{key[1]} in {key[0]}: the {what} are not where the lock "
                    f"says in {lookup.version} ({', '.join(moved) or 'fewer anchors'}): run "
                    "'python -m tools.xref lock'",
                )
            )
    return out


def _lock_coverage(lock: Lock, mappings: list[Mapping], err: _Err) -> list[Problem]:
    """Mapped symbols the lock lacks (errors), and lock entries nothing maps (warnings)."""
    mapped = {(m.go_path, m.go_symbol) for m in mappings if m.resolved}
    missing = [
        err(
            "lock-stale",
            f"{name} in {path} is mapped by the port but not in the lock: run "
            "'python -m tools.xref lock'",
        )
        for path, name in sorted(mapped - set(lock.symbols))
    ]
    unused = [
        err(
            "lock-unused",
            f"{name} in {path} is in the lock but no longer mapped: run "
            "'python -m tools.xref lock'",
            WARNING,
        )
        for path, name in sorted(set(lock.symbols) - {(m.go_path, m.go_symbol) for m in mappings})
    ]
    return missing + unused
