"""Make an exercise's files from the port itself: nothing of the port is copied into the repository.

An exercise names port functions (``port:``) and regions of them (``regions:``), each by a block
anchor, a ``# Go: …`` comment on its own line. From those, and from the port's current source:

* :func:`learner_text` — the learner's file as shipped: the functions with the exercise's regions
  replaced by a ``TODO`` and a stub;
* :func:`reference_text` — the same file with the port's code in those regions: the answer, which
  passes the checks and which the runner shows beside the learner's file once theirs passes;
* :func:`mutant_text` — the reference with one wrong answer's edits (CI proves each fails);
* :func:`answer_hint` — the last hint: the port's code of each region, TODO by TODO.

In every one of them, the regions that other exercises take out of the same functions are taken
out too, so that no exercise ships another's answer. Regions are found with :mod:`ast` and the
comments of the source text, never by importing the port.
"""

from __future__ import annotations

import ast
import importlib.util
import itertools
import re
import sys
import textwrap
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from walkthrough.catalog import CatalogError, Edit, Exercise, Mutant, Region
from walkthrough.text import wrap

_ANCHOR = re.compile(r"^(?P<indent>\s*)#\s*Go:\s*(?P<text>.*?)\s*$")
_CASE = re.compile(r"^(?:case\s.*|default\s*):$")


class DeriveError(CatalogError):
    """A port function or region that an exercise names and the port does not have."""


@dataclass(frozen=True)
class PortModule:
    """A port module's source, parsed once."""

    name: str
    path: Path
    lines: tuple[str, ...]
    tree: ast.Module


@cache
def _module_at(name: str, path: Path, mtime: float) -> PortModule:
    text = path.read_text(encoding="utf-8")
    return PortModule(name, path, tuple(text.splitlines()), ast.parse(text, str(path)))


def port_module(name: str) -> PortModule:
    """The source of the port module ``name`` (found without importing it)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError) as err:
        raise DeriveError(f"port module {name}: {err}") from err
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        raise DeriveError(f"port module {name}: no Python source found")
    path = Path(spec.origin)
    return _module_at(name, path, path.stat().st_mtime)


@dataclass(frozen=True)
class PortFunction:
    """One function of the port: where it is, its node, and the class path around it."""

    target: str  # module:Qualified.name
    module: PortModule
    node: ast.FunctionDef | ast.AsyncFunctionDef
    classes: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def start(self) -> int:
        """First line (1-based) of the function, decorators included."""
        return min([self.node.lineno] + [d.lineno for d in self.node.decorator_list])

    @property
    def end(self) -> int:
        assert self.node.end_lineno is not None
        return self.node.end_lineno


def port_function(target: str) -> PortFunction:
    """The port function ``module:Qualified.name`` (a function or a method of a class)."""
    module_name, _, qualname = target.partition(":")
    module = port_module(module_name)
    body: list[ast.stmt] = module.tree.body
    classes: list[str] = []
    parts = qualname.split(".")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        found: ast.AST | None = None
        for node in body:
            wanted = (ast.FunctionDef, ast.AsyncFunctionDef) if last else (ast.ClassDef,)
            if isinstance(node, wanted) and node.name == part:
                found = node
        if found is None:
            raise DeriveError(f"{target}: {module.path} has no {'.'.join(parts[: i + 1])}")
        if last:
            assert isinstance(found, ast.FunctionDef | ast.AsyncFunctionDef)
            return PortFunction(target, module, found, tuple(classes))
        assert isinstance(found, ast.ClassDef)
        classes.append(part)
        body = found.body
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Span:
    """Lines (1-based, inclusive) of a region in its module, and the indentation of its code."""

    start: int
    end: int
    indent: str


def _parents(root: ast.AST) -> dict[int, tuple[ast.AST, str]]:
    """id(node) → (parent, field) for every statement list member and match case under root."""
    out: dict[int, tuple[ast.AST, str]] = {}
    for node in ast.walk(root):
        for fld in ("body", "orelse", "finalbody", "cases", "handlers"):
            children = getattr(node, fld, None)
            for child in children if isinstance(children, list) else []:
                if isinstance(child, ast.AST):
                    out[id(child)] = (node, fld)
    return out


def _first_line(node: ast.AST) -> int:
    if isinstance(node, ast.match_case):
        return node.pattern.lineno
    return node.lineno  # type: ignore[attr-defined]


def _end_line(node: ast.AST) -> int:
    return node.end_lineno  # type: ignore[attr-defined]


def _column(node: ast.stmt | ast.match_case) -> int:
    """Where the statement starts on its line; a ``case`` starts where its keyword does."""
    if isinstance(node, ast.match_case):
        return node.pattern.col_offset - len("case ")
    return node.col_offset


def _header_end(node: ast.AST) -> int:
    """The last line of a compound statement's header (the line with its ``:``)."""
    if isinstance(node, ast.match_case):
        return _end_line(node.guard if node.guard is not None else node.pattern)
    for fld in ("test", "iter", "subject"):
        sub = getattr(node, fld, None)
        if sub is not None:
            return _end_line(sub)
    items = getattr(node, "items", None)
    if items:
        return _end_line(items[-1])
    return _first_line(node)


def anchors_in(fn: PortFunction) -> list[tuple[int, str]]:
    """The ``# Go: …`` comment lines of a function: (line, normalised text)."""
    out = []
    for number in range(fn.start, fn.end + 1):
        m = _ANCHOR.match(fn.module.lines[number - 1])
        if m:
            out.append((number, " ".join(m.group("text").split())))
    return out


def region_span(fn: PortFunction, region: Region) -> Span:
    """Where ``region`` is in ``fn``: the lines to take out, and their indentation."""
    where = f"{fn.target}: region {region.name} (# Go: {region.anchor})"
    lines = [n for n, t in anchors_in(fn) if t == region.anchor]
    if len(lines) < region.occurrence:
        raise DeriveError(f"{where}: the port has {len(lines)} such anchor(s) in this function")
    comment = lines[region.occurrence - 1]
    code_line = comment + 1
    src = fn.module.lines
    while code_line <= fn.end and (
        not src[code_line - 1].strip() or src[code_line - 1].lstrip().startswith("#")
    ):
        code_line += 1
    parents = _parents(fn.node)
    below = [
        node
        for node in ast.walk(fn.node)
        if isinstance(node, ast.stmt | ast.match_case)
        and node is not fn.node
        and _first_line(node) == code_line
        and id(node) in parents
    ]
    if not below:
        raise DeriveError(f"{where}: no statement follows the anchor on line {comment}")
    stmt = below[0]
    body = region.body if region.body is not None else bool(_CASE.match(region.anchor))
    if body:
        inner = getattr(stmt, "body", None)
        if not inner:
            raise DeriveError(f"{where}: the statement below the anchor has no body to take out")
        first = inner[0]
        return Span(_header_end(stmt) + 1, _end_line(inner[-1]), " " * first.col_offset)
    parent, fld = parents[id(stmt)]
    siblings = getattr(parent, fld)
    i = next(k for k, s in enumerate(siblings) if s is stmt)
    chosen = siblings[i : i + region.statements]
    if len(chosen) < region.statements:
        raise DeriveError(f"{where}: only {len(chosen)} statement(s) follow the anchor")
    # The anchor goes too: its Go text would give the answer away (the reference has it back).
    return Span(comment, _end_line(chosen[-1]), " " * _column(stmt))


# --- what goes in place of a region -----------------------------------------------------------


def _todo_lines(number: int, todo: str, indent: str, lang: str) -> list[str]:
    head = f"TODO {number}: " if lang == "en" else f"TODO {number}："
    wrapped = wrap(head + " ".join(todo.split()), width=100 - len(indent) - 2, indent="")
    return [f"{indent}# {wrapped[0]}"] + [f"{indent}#   {line}" for line in wrapped[1:]]


def _other_lines(key: str, indent: str, lang: str) -> list[str]:
    note = (
        f"(Exercise {key} asks for this part: it is left out here.)"
        if lang == "en"
        else f"（这部分是练习 {key} 要写的，这里省略。）"
    )
    return [f"{indent}# {note}"]


def _code_lines(code: str, indent: str) -> list[str]:
    return [
        f"{indent}{line}" if line.strip() else "" for line in textwrap.dedent(code).splitlines()
    ]


@dataclass(frozen=True)
class Placed:
    """A region resolved in a port function, and whose it is."""

    exercise: Exercise
    region: Region
    fn: PortFunction
    span: Span


def _placed(exercise: Exercise) -> list[Placed]:
    """The exercise's regions, each found in one of its port functions."""
    functions = [port_function(t) for t in exercise.port]
    out = []
    for region in exercise.regions:
        candidates = [
            f
            for f in functions
            if (region.within in (None, f.target))
            and any(t == region.anchor for _, t in anchors_in(f))
        ]
        if not candidates:
            raise DeriveError(
                f"{exercise.spec_file}: region {region.name}: no function of port: has the "
                f"anchor '# Go: {region.anchor}'"
            )
        if len(candidates) > 1:
            raise DeriveError(
                f"{exercise.spec_file}: region {region.name}: several port functions have the "
                f"anchor '# Go: {region.anchor}': say which with in:"
            )
        fn = candidates[0]
        out.append(Placed(exercise, region, fn, region_span(fn, region)))
    return out


def placed_regions(exercises: list[Exercise]) -> list[Placed]:
    """Every region of every exercise, found in the port; overlapping regions are an error."""
    placed = [p for e in exercises for p in _placed(e)]
    by_file: dict[Path, list[Placed]] = {}
    for p in placed:
        by_file.setdefault(p.fn.module.path, []).append(p)
    for group in by_file.values():
        group.sort(key=lambda p: p.span.start)
        for a, b in itertools.pairwise(group):
            if b.span.start <= a.span.end:
                raise DeriveError(
                    f"{a.exercise.key} region {a.region.name} and {b.exercise.key} region "
                    f"{b.region.name} overlap ({a.fn.module.path}:{b.span.start})"
                )
    return placed


# --- imports ------------------------------------------------------------------------------------


def _bindings(module: PortModule) -> dict[str, tuple[str, str, bool]]:
    """Top-level name → (module to import it from, its name there, type-checking only)."""
    package = module.name if module.path.name == "__init__.py" else module.name.rpartition(".")[0]
    out: dict[str, tuple[str, str, bool]] = {}

    def visit(body: list[ast.stmt], typing_only: bool) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        out[alias.asname] = (alias.name, "", typing_only)
                    else:
                        root = alias.name.split(".")[0]
                        out[root] = (root, "", typing_only)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                for alias in node.names:
                    if base != "__future__":
                        out[alias.asname or alias.name] = (base, alias.name, typing_only)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                out[node.name] = (module.name, node.name, typing_only)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        out[target.id] = (module.name, target.id, typing_only)
            elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.body, True)

    visit(module.tree.body, False)
    return out


def _import_lines(
    functions: list[PortFunction], extra: list[tuple[str, str, str]] | None = None
) -> list[str]:
    """The imports the functions' names need, as the port module imports them.

    ``extra`` adds (module, name, alias) imports: the port's classes the learner's ones extend.
    """
    wanted: dict[tuple[str, bool], list[tuple[str, str]]] = {}
    for module, name, alias in extra or []:
        wanted.setdefault((module, False), []).append((name, alias))
    # A function the file itself defines is not imported: the import would be shadowed.
    defined = {fn.node.name for fn in functions if not fn.classes}
    for fn in functions:
        bindings = _bindings(fn.module)
        used = {n.id for n in ast.walk(fn.node) if isinstance(n, ast.Name)}
        for name in sorted(used - defined):
            if name not in bindings or (fn.classes and name == fn.classes[0]):
                continue
            source, original, typing_only = bindings[name]
            entry = (original, name)
            names = wanted.setdefault((source, typing_only), [])
            if entry not in names:
                names.append(entry)
    lines: list[str] = []
    typing_lines: list[str] = []

    def order(item: tuple[tuple[str, bool], list[tuple[str, str]]]) -> tuple[bool, str]:
        source = item[0][0]  # the standard library first, then the port, as isort does
        return (source.split(".")[0] not in sys.stdlib_module_names, source)

    for (source, typing_only), names in sorted(wanted.items(), key=order):
        into = typing_lines if typing_only else lines
        plain = [n for n in names if not n[0]]
        for _, name in plain:
            into.append(f"import {source}" if name == source else f"import {source} as {name}")
        items = [o if o == n else f"{o} as {n}" for o, n in names if o]
        if not items:
            continue
        one = f"from {source} import {', '.join(items)}"
        if len(one) <= 100:
            into.append(one)
        else:
            into.append(f"from {source} import (")
            into.extend(f"    {item}," for item in items)
            into.append(")")
    stdlib = [
        i
        for i, line in enumerate(lines)
        if line.startswith(("import ", "from "))
        and line.split()[1].split(".")[0] in sys.stdlib_module_names
    ]
    if stdlib and stdlib[-1] + 1 < len(lines):
        lines.insert(stdlib[-1] + 1, "")
    if typing_lines:
        lines.append("from typing import TYPE_CHECKING")
        lines.append("")
        lines.append("if TYPE_CHECKING:")
        lines.extend(f"    {line}" for line in typing_lines)
    return lines


# --- the file -----------------------------------------------------------------------------------


def _header(exercise: Exercise, functions: list[PortFunction], lang: str) -> list[str]:
    open_, close = ("(", ")") if lang == "en" else ("（", "）")
    where = ("、" if lang == "zh" else ", ").join(
        f"{'.'.join((*f.classes, f.name))}{' ' if lang == 'en' else ''}{open_}"
        f"{_repo_path(f.module.path)}{close}"
        for f in functions
    )
    if lang == "en":
        intro = (
            f"Below is the port's {where}, with parts taken out. Fill in each TODO. "
            "`python -m walkthrough watch` checks this file every time you save it; once it "
            "passes, you see the port's own code beside yours."
        )
    else:
        intro = (
            f"下面是移植版的 {where}，其中一些部分被拿掉了。把每个 TODO 补上。"
            "运行 `python -m walkthrough watch`，每次保存都会检查这个文件；通过之后，"
            "你会看到移植版自己的代码和你的代码对照。"
        )
    body = [f'"""{exercise.key}: {exercise.title[lang]}', ""]
    for paragraph in exercise.task[lang].split("\n\n"):
        body += [*wrap(" ".join(paragraph.split()), width=100, indent=""), ""]
    body += wrap(intro, width=100, indent="")
    return [*body, '"""']


def _repo_path(path: Path) -> str:
    parts = path.resolve().parts
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] == "minikubelet":
            return "/".join(parts[i:])
    return path.name


def _render(
    exercise: Exercise,
    exercises: list[Exercise],
    lang: str,
    *,
    solved: bool,
    mutant: Mutant | None = None,
) -> str:
    functions = [port_function(t) for t in exercise.port]
    mine = {p.region.name: p for p in _placed(exercise)}
    # Only an exercise that names one of these functions can have a region in them: the others'
    # port modules are not parsed (ours: deriving one file reads only its own modules).
    others = [
        p
        for e in exercises
        if e.key != exercise.key and not set(e.port).isdisjoint(exercise.port)
        for p in _placed(e)
        if any(p.fn.target == f.target for f in functions)
    ]
    edits: dict[str, list[Edit]] = {e.region: [] for e in (mutant.edits if mutant else ())}
    for edit in mutant.edits if mutant else ():
        edits[edit.region].append(edit)

    out: list[str] = [*_header(exercise, functions, lang), "", "from __future__ import annotations"]
    class_names = sorted({f.classes for f in functions if f.classes})
    if any(len(c) > 1 for c in class_names):
        raise DeriveError(
            f"{exercise.spec_file}: port: methods of nested classes are not supported"
        )
    bases = [
        (next(f.module.name for f in functions if f.classes == c), c[0], f"Port{c[-1]}")
        for c in class_names
    ]
    out += ["", *_import_lines(functions, bases)]
    numbers = {r.name: i for i, r in enumerate(exercise.regions, 1)}

    def function_text(fn: PortFunction) -> list[str]:
        spans: list[tuple[Span, list[str]]] = []
        for p in mine.values():
            if p.fn.target != fn.target:
                continue
            original = list(fn.module.lines[p.span.start - 1 : p.span.end])
            if not solved:
                lines = _todo_lines(
                    numbers[p.region.name], p.region.todo[lang], p.span.indent, lang
                )
                lines += _code_lines(p.region.stub, p.span.indent)
            else:
                lines = _apply_edits(original, edits.get(p.region.name, []), p.span, exercise)
            spans.append((p.span, lines))
        for p in others:
            if p.fn.target == fn.target:
                lines = _other_lines(p.exercise.key, p.span.indent, lang)
                spans.append((p.span, lines + _code_lines(p.region.stub, p.span.indent)))
        spans.sort(key=lambda s: s[0].start)
        text: list[str] = []
        line = fn.start
        for span, lines in spans:
            text += fn.module.lines[line - 1 : span.start - 1]
            text += lines
            line = span.end + 1
        text += fn.module.lines[line - 1 : fn.end]
        return text

    for classes in [(), *class_names]:
        group = [f for f in functions if f.classes == classes]
        if not group:
            continue
        if classes:
            alias = f"Port{classes[-1]}"
            out += ["", "", f"class {classes[-1]}({alias}):"]
            what = ", ".join(f.name for f in group)
            out.append(
                f'    """The port\'s {classes[-1]}, with your {what}: the checks run this code."""'
                if lang == "en"
                else f'    """移植版的 {classes[-1]}，其中的 {what} 换成了你的：检查运行的就是这份代码。"""'
            )
        for fn in group:
            out += [""] if classes else ["", ""]
            out += function_text(fn)
    return "\n".join(out) + "\n"


def _apply_edits(original: list[str], edits: list, span: Span, exercise: Exercise) -> list[str]:
    lines = original
    for edit in edits:
        if edit.code is not None:
            lines = _code_lines(edit.code, span.indent)
            continue
        if edit.find.endswith("\n"):  # whole lines, whatever their indentation
            lines = _replace_lines(lines, edit, exercise)
            continue
        text = "\n".join(lines)
        count = text.count(edit.find)
        if count != 1:
            raise DeriveError(
                f"{exercise.spec_file}: a mutant's find {edit.find!r} occurs {count} times in "
                f"region {edit.region} (it must occur once)"
            )
        at = text.index(edit.find)
        line_start = text.rfind("\n", 0, at) + 1
        indent = re.match(r"\s*", text[line_start:]).group(0)  # type: ignore[union-attr]
        replacement = edit.replace.rstrip("\n").replace("\n", "\n" + indent)
        lines = text.replace(edit.find, replacement).splitlines()
    return lines


def _replace_lines(lines: list[str], edit: Any, exercise: Exercise) -> list[str]:
    """Replace the run of whole lines that ``edit.find`` names (indentation aside)."""
    assert edit.find is not None
    wanted = [w.strip() for w in edit.find.rstrip("\n").split("\n")]
    stripped = [line.strip() for line in lines]
    hits = [
        i for i in range(len(lines) - len(wanted) + 1) if stripped[i : i + len(wanted)] == wanted
    ]
    if len(hits) != 1:
        raise DeriveError(
            f"{exercise.spec_file}: a mutant's find {edit.find!r} matches {len(hits)} runs of "
            f"lines in region {edit.region} (it must match one)"
        )
    i = hits[0]
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    new = _code_lines(edit.replace, indent) if edit.replace.strip() else []
    return lines[:i] + new + lines[i + len(wanted) :]


def learner_text(exercise: Exercise, exercises: list[Exercise], lang: str) -> str:
    """The learner's file as shipped: every region of the exercise is a TODO and a stub."""
    return _render(exercise, exercises, lang, solved=False)


def reference_text(exercise: Exercise, exercises: list[Exercise], lang: str) -> str:
    """The answer: the learner's file with the port's own code in the exercise's regions."""
    return _render(exercise, exercises, lang, solved=True)


def mutant_text(exercise: Exercise, exercises: list[Exercise], mutant: Mutant) -> str:
    """The reference with a wrong answer's edits."""
    return _render(exercise, exercises, "en", solved=True, mutant=mutant)


def answer_hint(exercise: Exercise, lang: str) -> str:
    """The last hint: the port's own code for each TODO, as the reference has it, in ``lang``."""
    lines = [
        "The port's own code, TODO by TODO:"
        if lang == "en"
        else "移植版自己的代码，按 TODO 逐个列出："
    ]
    for number, p in enumerate(_placed(exercise), 1):
        code = textwrap.dedent("\n".join(p.fn.module.lines[p.span.start - 1 : p.span.end]))
        lines.append(f"TODO {number}:" if lang == "en" else f"TODO {number}：")
        lines += _code_lines(code, "    ")
    return "\n".join(lines)


def answer_statements(exercise: Exercise) -> list[str]:
    """Each simple statement of the exercise's answer, as code (for the no-spoiler checks)."""
    out = []
    for p in _placed(exercise):
        text = textwrap.dedent("\n".join(p.fn.module.lines[p.span.start - 1 : p.span.end]))
        try:
            tree = ast.parse(text)
        except SyntaxError:  # a region that is a case body or branch parses on its own
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.stmt) and not isinstance(
                node, ast.If | ast.For | ast.While | ast.With | ast.Try | ast.Match | ast.Pass
            ):
                if not isinstance(node, ast.Continue | ast.Break):
                    out.append(ast.unparse(node))
    return out
