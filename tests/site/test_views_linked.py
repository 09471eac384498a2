"""Every side-by-side view on the site is line-linked: its Go lines belong to blocks that light up
their Python twins (select/switch cases, statements the port anchors, an interface's methods, a
struct's fields)."""

from __future__ import annotations

import itertools
import re

import pytest

from tests.conftest import ROOT
from tools.site.sidebyside import build_view, pick_mapping
from tools.xref import build_index

DIRECTIVE = re.compile(r'^\{\{ sidebyside\("([^"]+)", "([^"]+)"(?:, py="([^"]+)")?', re.M)
LINKED = 0.85  # the share of a declaration's inner lines (less blanks between blocks) in a block


def views() -> list[tuple[str, str, str, str | None]]:
    out = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        if not page.name.endswith(".zh.md"):
            for go_path, symbol, py in DIRECTIVE.findall(page.read_text(encoding="utf-8")):
                out.append((page.relative_to(ROOT).as_posix(), go_path, symbol, py or None))
    return out


@pytest.fixture(scope="module")
def index():
    return build_index(ROOT, offline=True, cache_dir=False)


def test_there_are_views():
    assert len(views()) >= 17


@pytest.mark.parametrize(("page", "go_path", "symbol", "py"), views())
def test_every_view_is_line_linked(index, page, go_path, symbol, py):
    mapping = pick_mapping(index, go_path, symbol, py)
    view = build_view(index, mapping, ROOT)
    # A block runs from its anchor's lead comment to the end of the last statement before the
    # next anchor, so what lies between two blocks is the blank line that separates them; with
    # the Go text at hand (source mode) that is checked below. Those lines are not counted.
    linked = {n for b in view.blocks for n in range(b.go_start, b.go_end + 1)}
    spans = sorted((b.go_start, b.go_end) for b in view.blocks)
    between = {
        n for (_, end), (start, _) in itertools.pairwise(spans) for n in range(end + 1, start)
    }
    between -= linked
    text = {row.go.number: "".join(t.text for t in row.go.tokens) for row in view.rows if row.go}
    assert not [n for n in between if text.get(n, "").strip()], f"{symbol}: code between blocks"
    inner = set(range(mapping.go_start + 1, mapping.go_end)) - between
    share = len(inner & linked) / len(inner) if inner else 1.0
    assert share >= LINKED, (
        f"{page}: the view of {symbol} links {share:.0%} of its lines: anchor the Python of its "
        f"statements ('# Go: <statement>' comments, see tools/xref/__init__.py) in "
        f"{mapping.py_file} {mapping.py_qualname}"
    )


def test_anchors_pair_in_source_order(index):
    """The port keeps Go's statement order, so its anchors, read top to bottom, name Go blocks top
    to bottom. An anchor whose text also starts an earlier Go statement (a bare ``return``, a
    second ``if err != nil {``) takes that one instead, and the view pairs the wrong lines.

    A struct's fields are linked by name, not by order (a dataclass lists its fields without a
    default first), so they are left out here."""
    wrong = []
    for m in index.mappings:
        blocks = sorted((b for b in m.blocks if b.go_kind != "field"), key=lambda b: b.py_line)
        for a, b in itertools.pairwise(blocks):
            if b.go_start < a.go_start:
                wrong.append(
                    f"{m.py_file}:{b.py_line} '{b.case}' pairs with Go L{b.go_start}, above "
                    f"L{a.go_start} of the anchor before it ({m.go_symbol})"
                )
    assert not wrong, "\n".join(wrong)
