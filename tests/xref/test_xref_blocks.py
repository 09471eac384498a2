"""``# Go: <statement>`` anchors: a Python block names the Go statement it ports, for views."""

from __future__ import annotations

import json

from tools.xref import build_index
from tools.xref.go_index import statements
from tools.xref.lock import load_lock, write_lock
from tools.xref.resolve import make_lock

from .conftest import FIXTURES, K8S, PORT

WORKERS_GO = "pkg/kubelet/pod_workers.go"
WORKERS_PY = "port/pod_workers.py"


def _index(root=FIXTURES, src=K8S, **kw):
    kw.setdefault("lock_path", None)
    return build_index(root, package=PORT, src=src, source_version="v1.21.3", **kw)


def _stmt_blocks(index, symbol="(*podWorkers).UpdatePod"):
    (m,) = [m for m in index.mappings if m.go_symbol == symbol]
    return [
        (b.case, b.go_lead, b.go_start, b.go_end, b.py_start, b.py_end, b.go_kind)
        for b in sorted(m.blocks, key=lambda b: b.go_start)
    ]


def test_statements_of_a_go_function_with_their_lines_and_comments():
    text = "\n".join((K8S / WORKERS_GO).read_text().splitlines()[16:28])
    found = statements(text, 17)
    assert [(s.text, s.start, s.end) for s in found][:4] == [
        ("ch, ok := p.updates[name]", 18, 18),
        ("if !ok {", 19, 23),
        ("ch = make(chan string, 1)", 20, 20),
        ("p.updates[name] = ch", 21, 21),
    ]
    assert found[-1][:4] == ("select {", 24, 24, 27)
    assert found[0].group == found[1].group == found[-1].group != found[2].group  # if's body
    with_comment = "func f() {\n\tx := 1\n\t// why\n\t// more\n\ty := x\n}"
    assert statements(with_comment, 10)[1][:4] == ("y := x", 12, 14, 14)


def test_block_anchors_resolve_to_go_statements_and_python_spans():
    index = _index()
    assert index.ok, [str(p) for p in index.problems]
    assert _stmt_blocks(index) == [
        # the Go block runs over the statements up to the next anchored one, as the Python does
        ("ch, ok := p.updates[name]", 18, 18, 23, 9, 10, "stmt"),
        # the plain comment above the anchor belongs to it; the span runs to the next anchor
        ("select {", 24, 24, 27, 11, 15, "stmt"),
        ("case ch <- name:", 25, 25, 25, 13, 15, "select"),
        ("default:", 26, 26, 26, 16, 16, "select"),
    ]
    (m,) = [m for m in index.mappings if m.go_symbol == "(*podWorkers).UpdatePod"]
    (sel,) = [b for b in m.blocks if b.case == "select {"]
    assert sel.permalink.endswith(f"/v1.21.3/{WORKERS_GO}#L24-L27")


def test_a_block_anchor_may_name_the_start_of_a_long_line(port_root):
    f = port_root / WORKERS_PY
    f.write_text(f.read_text().replace("# Go: select {", "# Go: sel"))
    assert ("sel", 24, 24, 27, 11, 15, "stmt") in _stmt_blocks(_index(root=port_root))


def test_a_python_block_runs_over_several_statements_until_the_next_anchor(port_root):
    f = port_root / WORKERS_PY
    f.write_text(
        f.read_text().replace(
            "        ch = self.updates.setdefault(name, [])\n",
            "        ch = self.updates.setdefault(name, [])\n        n = len(ch)\n\n        _ = n\n",
        )
    )
    assert _stmt_blocks(_index(root=port_root))[0][4:6] == (9, 13)


def test_a_remark_is_not_an_anchor_but_an_omission_must_name_a_statement(port_root):
    f = port_root / WORKERS_PY
    text = f.read_text()
    f.write_text(text.replace("# Go: ch, ok := p.updates[name]", "# Go: ch, ok = p.updates[name]"))
    index = _index(root=port_root)
    assert index.ok and "ch, ok = p.updates[name]" not in [b[0] for b in _stmt_blocks(index)]
    f.write_text(text.replace("# Go: ch, ok := p.updates[name]", "# Go omitted: ch, ok = x -- y"))
    (p,) = _index(root=port_root).errors
    assert (p.code, p.file, p.line) == ("unresolved-anchor", WORKERS_PY, 9)
    assert "'# Go omitted: ch, ok = x' names no statement of (*podWorkers).UpdatePod" in p.message
    assert "did you mean 'ch, ok := p.updates[name]'" in p.message


def test_a_second_anchor_for_the_same_statement_is_said(port_root):
    f = port_root / WORKERS_PY
    f.write_text(
        f.read_text().replace(
            "        # Go: select {\n",
            "        # Go: select {\n        # Go: select {\n",
        )
    )
    index = _index(root=port_root)
    assert index.ok
    (p,) = [p for p in index.problems if p.code == "extra-anchor"]
    assert p.severity == "warning" and "each already has an anchor" in p.message


def test_a_remark_in_a_trailing_comment_is_prose_and_a_case_must_be_whole(port_root):
    f = port_root / WORKERS_PY
    text = f.read_text()
    f.write_text(text.replace("ch = self.updates.setdefault(name, [])", "ch = 1  # Go: p.updates"))
    assert _index(root=port_root).ok
    f.write_text(text.replace("# Go: case ch <- name:", "# Go: case ch <- name"))
    codes = {(p.code, p.line) for p in _index(root=port_root).errors}
    assert ("malformed-anchor", 13) in codes


def test_the_lock_records_anchored_statements_so_link_only_builds_link_them(tmp_path):
    index = _index()
    path = tmp_path / "fx.lock.json"
    write_lock(path, make_lock(index.py, index.lookup, index.mappings))
    data = json.loads(path.read_text())
    (s,) = [s for s in data["symbols"] if s["symbol"] == "(*podWorkers).UpdatePod"]
    assert s["blocks"] == [
        {"anchor": "ch, ok := p.updates[name]", "lead": 18, "start": 18, "end": 23},
        {"anchor": "select {", "lead": 24, "start": 24, "end": 27},
    ]
    link_only = build_index(FIXTURES, package=PORT, lock_path=path, cache_dir=False, offline=True)
    assert link_only.mode == "link-only" and link_only.ok
    assert _stmt_blocks(link_only) == _stmt_blocks(index)
    assert load_lock(path).symbols[(WORKERS_GO, "(*podWorkers).UpdatePod")].blocks[1].end == 27


def test_a_new_anchor_needs_the_lock_rewritten_for_link_only_builds(tmp_path, port_root):
    index = _index()
    path = tmp_path / "fx.lock.json"
    write_lock(path, make_lock(index.py, index.lookup, index.mappings))
    f = port_root / WORKERS_PY
    f.write_text(f.read_text().replace("# Go: ch, ok", "# Go: if !ok {\n        # x"))
    # Without the source, an anchor the lock does not know links nothing (a remark, for all the
    # lock can tell); with the source, the check says the lock must be written again.
    link_only = build_index(port_root, package=PORT, lock_path=path, cache_dir=False, offline=True)
    assert link_only.ok and "if !ok {" not in [b[0] for b in _stmt_blocks(link_only)]
    with_source = _index(root=port_root, lock_path=path)
    (p,) = [p for p in with_source.errors if p.code == "drift-blocks"]
    assert "'if !ok {' L19" in p.message and "python -m tools.xref lock" in p.message


def test_statements_that_moved_are_drift(tmp_path, k8s_copy):
    index = _index()
    path = tmp_path / "fx.lock.json"
    write_lock(path, make_lock(index.py, index.lookup, index.mappings))
    go = k8s_copy / WORKERS_GO
    go.write_text(go.read_text().replace("\tselect {\n", "\t// a new comment\n\tselect {\n"))
    moved = _index(src=k8s_copy, lock_path=path)
    drifted = {p.message.split(" in ")[0]: p for p in moved.errors if p.code == "drift-blocks"}
    assert set(drifted) == {"(*podWorkers).UpdatePod", "type podSyncPlan", "type workerCache"}
    p = drifted["(*podWorkers).UpdatePod"]
    assert "the statements the port anchors" in p.message and "'select {' L25" in p.message
    assert "the fields the port links" in drifted["type podSyncPlan"].message
    assert ("select {", 24, 25, 28, 11, 15, "stmt") in _stmt_blocks(moved)


def test_an_omitted_block_ends_the_run_before_it_and_needs_a_reason(port_root):
    f = port_root / WORKERS_PY
    text = f.read_text()
    f.write_text(
        text.replace(
            "        ch = self.updates.setdefault(name, [])\n",
            "        ch = self.updates.setdefault(name, [])\n"
            "        # Go omitted: if !ok { -- the list is made by setdefault above\n",
        )
    )
    blocks = _stmt_blocks(_index(root=port_root))
    assert blocks[0] == ("ch, ok := p.updates[name]", 18, 18, 18, 9, 10, "stmt")
    assert blocks[1] == ("if !ok {", 19, 19, 23, 11, 11, "stmt")
    (m,) = [m for m in _index(root=port_root).mappings if m.go_symbol == "(*podWorkers).UpdatePod"]
    (omitted,) = [b for b in m.blocks if b.status == "omitted" and b.go_kind == "stmt"]
    assert omitted.reason == "the list is made by setdefault above"
    f.write_text(text.replace("# Go: select {", "# Go omitted: select {"))
    (p,) = _index(root=port_root).errors
    assert p.code == "malformed-anchor" and "needs a reason" in p.message
