"""Finding and parsing the ``{{ name(args) }}`` directive lines of a Markdown page."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)\{\{\s*(?P<call>[A-Za-z_]\w*\s*\(.*\))\s*\}\}\s*$")
FENCE = re.compile(r"^\s*(?P<fence>`{3,}|~{3,})")


class DirectiveError(ValueError):
    """A directive that cannot be parsed or carried out; the message names the page and line."""


@dataclass
class Directive:
    """One directive line: its name, literal arguments, line number and indentation."""

    name: str
    args: list = field(default_factory=list)
    kwargs: dict = field(default_factory=dict)
    line: int = 0
    indent: str = ""
    text: str = ""


def parse(text: str, line: int = 0) -> Directive:
    """Parse ``{{ name("a", b=1) }}`` (the whole line) into a `Directive`."""
    match = DIRECTIVE.match(text)
    if not match:
        raise DirectiveError(f"line {line}: not a directive: {text.strip()!r}")
    try:
        call = ast.parse(match.group("call").strip(), mode="eval").body
    except SyntaxError as exc:
        raise DirectiveError(f"line {line}: cannot parse {text.strip()!r}: {exc.msg}") from None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise DirectiveError(f"line {line}: expected name(arguments) in {text.strip()!r}")
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
    except ValueError:
        raise DirectiveError(
            f"line {line}: arguments must be literals (strings, numbers, True/False, lists) "
            f"in {text.strip()!r}"
        ) from None
    if len(kwargs) != len(call.keywords):
        raise DirectiveError(f"line {line}: **kwargs are not allowed in {text.strip()!r}")
    return Directive(call.func.id, args, kwargs, line, match.group("indent"), text)


def find(markdown: str) -> Iterator[Directive]:
    """Every directive line outside fenced code blocks, in order."""
    fence: str | None = None
    for number, text in enumerate(markdown.splitlines(), start=1):
        opened = FENCE.match(text)
        if fence is not None:
            if opened and opened.group("fence").startswith(fence):
                rest = text.strip()[len(opened.group("fence")) :]
                if not rest.strip():
                    fence = None
            continue
        if opened:
            fence = opened.group("fence")[0] * 3
            continue
        if DIRECTIVE.match(text):
            yield parse(text, number)


def expand(markdown: str, handlers: Mapping[str, Callable[[Directive], str]]) -> str:
    """Replace each directive line by what its handler returns (indented like the directive).

    Unknown directive names are errors: a typo must not leave ``{{ … }}`` on the page.
    """
    lines = markdown.splitlines(keepends=True)
    for d in find(markdown):  # in page order: handlers may number what they make
        handler = handlers.get(d.name)
        if handler is None:
            known = ", ".join(sorted(handlers))
            raise DirectiveError(f"line {d.line}: unknown directive {d.name!r} (known: {known})")
        try:
            out = handler(d)
        except DirectiveError as exc:
            raise DirectiveError(f"line {d.line}: {d.name}: {exc}") from None
        block = "".join((d.indent + row if row.strip() else row) + "\n" for row in out.splitlines())
        lines[d.line - 1] = block  # one line replaced by a block: later numbers stay valid
    return "".join(lines)
