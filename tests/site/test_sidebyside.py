"""Side-by-side views, rendered from the xref fixtures (our own Go, shaped like kubelet's)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from tests.xref.conftest import FIXTURES, K8S, KUBELET_GO
from tools.site.directives import DirectiveError
from tools.site.sidebyside import (
    align,
    build_view,
    dedent,
    go_doc_start,
    highlight_lines,
    pick_mapping,
    reference_id,
    render_view,
)
from tools.xref import TAG, build_index


@pytest.fixture(scope="module")
def source_index():
    index = build_index(
        FIXTURES,
        package="port",
        src=K8S,
        source_version=TAG,
        lock_path=None,
        cache_dir=False,
        offline=True,
    )
    assert index.mode == "source", index.notes
    return index


@pytest.fixture(scope="module")
def linkonly_index(monkeypatch_module, source_index, tmp_path_factory):
    from tools.xref.lock import write_lock
    from tools.xref.resolve import make_lock

    lock = make_lock(source_index.py, source_index.lookup, source_index.mappings)
    path = tmp_path_factory.mktemp("lock") / "lock.json"
    write_lock(path, lock)
    index = build_index(FIXTURES, package="port", lock_path=path, cache_dir=False, offline=True)
    assert index.mode == "link-only"
    return index


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    for var in ("K8S_SRC", "K8S_SRC_VERSION"):
        mp.delenv(var, raising=False)
    yield mp
    mp.undo()


class Cells(HTMLParser):
    """The table cells of a rendered view, with their attributes and text."""

    def __init__(self):
        super().__init__()
        self.cells: list[dict] = []
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("td", "li"):
            self.cells.append({"tag": tag, **dict(attrs), "text": ""})
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in ("td", "li"):
            self.depth -= 1

    def handle_data(self, data):
        if self.depth and self.cells:
            self.cells[-1]["text"] += data


def cells(html: str) -> list[dict]:
    parser = Cells()
    parser.feed(html)
    return parser.cells


def test_highlighting_keeps_every_line_and_uses_pygments_classes():
    code = "\n\nfunc f() {\n\t// note\n\treturn `a\nb`\n}\n\n"
    lines = highlight_lines(code, "go")
    assert len(lines) == len(code.splitlines())
    assert lines[0] == [] and lines[1] == []
    assert [t.cls for t in lines[2]][:1] == ["kd"]  # func is a declaration keyword
    assert any(t.cls == "c1" for t in lines[3])
    assert "".join(t.text for t in lines[5]) == "b`"  # a raw string across lines


def test_go_doc_comment_and_dedent():
    lines = ["x", "// a", "// b", "func f() {}"]
    assert go_doc_start(lines, 4) == 2
    assert go_doc_start(lines, 1) == 1
    assert dedent(["    def f():", "", "        pass"]) == ["def f():", "", "    pass"]


def test_source_view_has_real_lines_permalinks_and_aligned_blocks(source_index):
    mapping = pick_mapping(source_index, KUBELET_GO, "(*Kubelet).syncLoopIteration")
    view = build_view(source_index, mapping, FIXTURES, view_id="sbs-3", doc=True)
    assert view.mode == "source"
    go_text = (K8S / KUBELET_GO).read_text().splitlines()
    py_text = (FIXTURES / mapping.py_file).read_text().splitlines()
    go_rows = [r.go for r in view.rows if r.go]
    py_rows = [r.py for r in view.rows if r.py]
    # Real line numbers, and the text of those lines.
    assert go_rows[0].number == mapping.go_start - 1  # the doc comment, doc=True
    assert go_rows[-1].number == mapping.go_end
    for line in go_rows:
        text = line.indent + "".join(t.text for t in line.tokens)
        assert text == go_text[line.number - 1]
        assert line.href == (
            f"https://github.com/kubernetes/kubernetes/blob/{TAG}/{KUBELET_GO}#L{line.number}"
        )
    # Every Python line but the anchor comments of ported blocks (the view draws the link).
    anchors = {b.py_line for b in mapping.blocks if b.status == "ported"}
    assert anchors and all(py_text[n - 1].strip().startswith("# Go:") for n in anchors)
    expected = [n for n in range(mapping.py_start, mapping.py_end + 1) if n not in anchors]
    assert [r.number for r in py_rows] == expected
    assert "# Go omitted: case kubetypes.SET:" in "".join(
        t.text for r in py_rows for t in r.tokens
    ), "an omission's comment stays"
    assert "".join(t.text for t in py_rows[0].tokens) == py_text[mapping.py_start - 1].strip()
    # Every block starts on the same row on both sides.
    assert view.blocks
    for b in view.blocks:
        (row,) = [r for r in view.rows if r.go and r.go.number == b.go_start]
        assert row.py is not None and row.py.number == b.py_start, b.case
        assert row.go.head and row.py.head
    # Nested cases: the inner one is what pointing at a line of it lights up.
    add = next(b for b in view.blocks if b.case == "case kubetypes.ADD:")
    outer = next(b for b in view.blocks if b.case == "case u, open := <-configCh:")
    (row,) = [r for r in view.rows if r.go and r.go.number == add.go_start]
    assert row.go.block == add.id and set(row.go.blocks) == {add.id, outer.id}


def test_a_struct_view_lights_each_go_field_with_its_attribute(source_index):
    mapping = pick_mapping(source_index, "pkg/kubelet/pod_workers.go", "type podSyncPlan")
    view = build_view(source_index, mapping, FIXTURES)
    py_text = (FIXTURES / mapping.py_file).read_text().splitlines()
    # The attributes stay in the Python pane: their names are the link, no comment to hide.
    assert [r.py.number for r in view.rows if r.py] == list(
        range(mapping.py_start, mapping.py_end + 1)
    )
    by_go = {r.go.number: r for r in view.rows if r.go}
    for go_line, py_line in ((33, 23), (36, 24), (37, 25), (39, 26)):
        go = by_go[go_line].go
        (twin,) = [r.py for r in view.rows if r.py and r.py.number == py_line]
        assert go.block and go.block == twin.block, (go_line, py_text[py_line - 1])
    # a field's comment lights with it, beside the attribute's `#:` line, on the same row
    kill = next(b for b in view.blocks if b.case == "KillPod")
    (row,) = [r for r in view.rows if r.go and r.go.number == 32]
    assert row.go.block == kill.id and row.py is not None and row.py.number == 22
    assert row.py.block == kill.id
    # PodIP/podIP are ambiguous and Ephemeral has no twin: nothing to light
    assert by_go[40].go.block is None and by_go[41].go.block is None


def test_rendered_source_view(source_index):
    mapping = pick_mapping(source_index, KUBELET_GO, "(*Kubelet).syncLoopIteration")
    html = render_view(build_view(source_index, mapping, FIXTURES, view_id="sbs-2", lang="zh"))
    assert not re.search(r"\n\s*\n", html), "a blank line would end the raw HTML block"
    assert 'id="sbs-2"' in html and 'data-mode="source"' in html
    assert "<script" not in html and "style=" not in html
    assert "全屏" in html  # the language of the page
    got = cells(html)
    go_heads = [c for c in got if "mkl-go" in c.get("class", "") and "mkl-head" in c["class"]]
    assert go_heads and all(c.get("data-b") for c in go_heads)
    for c in go_heads:
        twins = [
            t
            for t in got
            if "mkl-py" in t.get("class", "") and c["data-b"] in t.get("data-bs", "").split()
        ]
        assert twins, f"no Python twin for {c['data-b']}"
    assert "&lt;-" in html and "configCh" in html  # Go's arrow, escaped


def test_linkonly_view_shows_a_notice_and_the_cases(linkonly_index):
    mapping = pick_mapping(linkonly_index, KUBELET_GO, "(*Kubelet).syncLoopIteration")
    view = build_view(linkonly_index, mapping, FIXTURES, view_id="sbs-1")
    assert view.mode == "link-only" and not view.rows and view.py_lines
    html = render_view(view)
    assert "mkl-sbs__notice" in html and "K8S_SRC" in html
    assert mapping.permalink in html and mapping.file_permalink in html
    items = [c for c in cells(html) if c["tag"] == "li"]
    assert [c["text"].split(" L")[0].strip() for c in items] == [b.case for b in view.blocks]
    for b in view.blocks:
        assert b.permalink in html


def test_unverified_lines_show_the_file_permalink_first(source_index):
    mapping = pick_mapping(source_index, KUBELET_GO, "(*Kubelet).syncLoopIteration")
    view = build_view(source_index, mapping, FIXTURES)
    view.verified, view.read_from = False, "v1.21.4"
    html = render_view(view)
    first = html.index(mapping.file_permalink + '"')
    assert first < html.index(mapping.permalink + '"')
    assert "read from v1.21.4" in html


def test_pick_mapping_explains_what_is_wrong(source_index):
    with pytest.raises(DirectiveError, match=r"did you mean \(\*Kubelet\)\.syncLoopIteration"):
        pick_mapping(source_index, KUBELET_GO, "(*Kubelet).syncLoopIteraton")
    with pytest.raises(DirectiveError, match=r"no Python ports anything of pkg/kubelet/nope\.go"):
        pick_mapping(source_index, "pkg/kubelet/nope.go", "X")


def test_align_pads_the_shorter_side_before_each_block():
    from tools.site.sidebyside import BlockView, CodeLine

    go = [CodeLine(n, []) for n in range(10, 16)]
    py = [CodeLine(n, []) for n in range(100, 103)]
    blocks = [BlockView("c0", "case a:", "select", "ported", "", 13, 15, 101, 102, "")]
    rows = align(go, py, blocks)
    pairs = [(r.go.number if r.go else None, r.py.number if r.py else None) for r in rows]
    assert pairs == [(10, 100), (11, None), (12, None), (13, 101), (14, 102), (15, None)]


def test_reference_ids_follow_mkdocstrings():
    assert reference_id("minikubelet/kubelet.py", "Kubelet.sync_loop") == (
        "minikubelet.kubelet.Kubelet.sync_loop"
    )
    assert reference_id("minikubelet/config/__init__.py", "X") == "minikubelet.config.X"
    assert reference_id("minikubelet/config/config.py", "PodStorage._merge") is None


def test_the_header_range_includes_the_doc_comment_shown(source_index):
    mapping = pick_mapping(source_index, KUBELET_GO, "(*Kubelet).syncLoopIteration")
    with_doc = render_view(build_view(source_index, mapping, FIXTURES, doc=True))
    without = render_view(build_view(source_index, mapping, FIXTURES))
    first = go_doc_start((K8S / KUBELET_GO).read_text().splitlines(), mapping.go_start)
    assert first < mapping.go_start
    assert f"L{first}–{mapping.go_end}" in with_doc
    assert f"L{mapping.go_start}–{mapping.go_end}" in without
