"""tree-sitter-python index of the annotations: forms, anchors, the lines they cover."""

from __future__ import annotations

from tools.xref.py_index import index_file, index_package, symbol_kind

from .conftest import BROKEN, FIXTURES, PORT


def _def(index, qualname):
    (d,) = [d for d in index.defs if d.qualname == qualname]
    return d


def test_symbol_forms():
    assert symbol_kind("NewKubelet") == "func"
    assert symbol_kind("(*Kubelet).syncLoopIteration") == "method"
    assert symbol_kind("(Pod).Describe") == "method"
    assert symbol_kind("type SyncHandler") == "type"
    assert symbol_kind("SyncHandler.HandlePodAdditions") == "iface_method"
    for bad in ("this is not", "(*Kubelet)syncLoop", "type", "*Kubelet.f", "a.b.c", ""):
        assert symbol_kind(bad) is None, bad


def test_module_files_and_mappings():
    index = index_package(FIXTURES / PORT, FIXTURES)
    assert not index.problems
    kubelet = next(m for m in index.modules if m.file == "port/kubelet.py")
    assert kubelet.go_files == [(3, "pkg/kubelet/kubelet.go")]
    d = _def(index, "Kubelet.sync_loop_iteration")
    assert (d.kind, d.start, d.end) == ("function", 22, 48)
    (m,) = d.mappings
    assert (m.line, m.go_path, m.symbol, m.go_kind) == (
        23,
        "pkg/kubelet/kubelet.go",
        "(*Kubelet).syncLoopIteration",
        "method",
    )
    assert _def(index, "SyncHandler").mappings[0].symbol == "type SyncHandler"
    assert _def(index, "SyncHandler.handle_pod_additions").mappings[0].go_kind == "iface_method"
    assert index.go_paths() == {
        "pkg/kubelet/kubelet.go",
        "pkg/kubelet/pod_workers.go",
        "pkg/kubelet/types/pod_update.go",
    }


def test_prose_go_lines_are_not_annotations():
    index = index_package(FIXTURES / PORT, FIXTURES)
    # "Go: `select` is emulated below" and "# Go: kl.note(e) -- prose" are prose
    assert [m.symbol for m in _def(index, "Kubelet.sync_loop_iteration").mappings] == [
        "(*Kubelet).syncLoopIteration"
    ]
    assert len(_def(index, "Kubelet.sync_loop_iteration").anchors) == 8


def test_anchor_lines_cover_the_branch_below():
    index = index_package(FIXTURES / PORT, FIXTURES)
    anchors = {(a.case, a.line): a for a in _def(index, "Kubelet.sync_loop_iteration").anchors}
    a = anchors[("case u, open := <-configCh:", 27)]
    assert (a.kind, a.start, a.end) == ("anchor", 27, 38)  # the `if` branch, not the elifs
    a = anchors[("case kubetypes.UPDATE, kubetypes.DELETE:", 32)]
    assert (a.start, a.end) == (32, 34)
    a = anchors[("case kubetypes.SET:", 35)]
    assert (a.kind, a.reason, a.start, a.end) == ("omitted", "the fixture has no SET", 35, 35)
    a = anchors[("case <-housekeepingCh:", 45)]
    assert (a.start, a.end) == (45, 47)  # the else branch
    # match/case clauses, and a nested def without docstring belongs to the enclosing mapping
    note = {a.line: a for a in _def(index, "Kubelet.note").anchors}
    assert (note[53].start, note[53].end) == (53, 55)
    assert note[64].case == "case <-time.After(time.Second):"


def test_broken_annotations_are_reported_with_file_and_line():
    index = index_package(FIXTURES / BROKEN, FIXTURES)
    got = {(p.file, p.line, p.code) for p in index.problems}
    assert got == {
        ("broken/mappings.py", 19, "malformed-anchor"),  # omission without a reason
        ("broken/mappings.py", 20, "malformed-anchor"),  # empty reason
        ("broken/mappings.py", 21, "malformed-anchor"),  # anchor not on its own line
        ("broken/mappings.py", 29, "malformed-annotation"),  # not a symbol
        ("broken/mappings.py", 37, "orphan-anchor"),  # outside any mapped function
    }
    assert all(p.severity == "error" for p in index.problems)


def test_module_docstring_with_a_symbol_is_malformed(tmp_path):
    f = tmp_path / "m.py"
    f.write_text('"""Go: pkg/kubelet/kubelet.go NewKubelet"""\n')
    module, problems = index_file(f, "m.py")
    assert module.go_files == []
    assert [(p.line, p.code) for p in problems] == [(1, "malformed-annotation")]


def test_python_syntax_errors_are_reported(tmp_path):
    f = tmp_path / "bad.py"
    f.write_text('def f(:\n    """Go: pkg/kubelet/kubelet.go NewKubelet"""\n')
    _, problems = index_file(f, "bad.py")
    assert "python-syntax" in {p.code for p in problems}
