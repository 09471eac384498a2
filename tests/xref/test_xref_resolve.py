"""Resolving annotations against a source: mappings, blocks, fidelity, failures."""

from __future__ import annotations

from tools.xref import build_index, permalink

from .conftest import BROKEN, FIXTURES, K8S, KUBELET_GO, PORT


def _build(package=PORT, root=FIXTURES, src=K8S, **kw):
    kw.setdefault("lock_path", None)
    kw.setdefault("source_version", "v1.21.3")
    return build_index(root, package=package, src=src, **kw)


def _by(index, symbol):
    (m,) = [m for m in index.mappings if m.go_symbol == symbol]
    return m


def test_every_fixture_mapping_resolves_with_lines_and_permalinks():
    index = _build()
    assert index.mode == "source" and index.ok, [str(p) for p in index.problems]
    assert all(m.resolved for m in index.mappings)
    m = _by(index, "(*Kubelet).syncLoopIteration")
    assert (m.py_file, m.py_qualname, m.py_start, m.py_end, m.py_line) == (
        "port/kubelet.py",
        "Kubelet.sync_loop_iteration",
        22,
        48,
        23,
    )
    assert (m.go_path, m.go_kind, m.go_start, m.go_end) == (KUBELET_GO, "method", 41, 70)
    assert m.permalink == (
        "https://github.com/kubernetes/kubernetes/blob/v1.21.3/pkg/kubelet/kubelet.go#L41-L70"
    )
    assert m.file_permalink == permalink(KUBELET_GO)
    assert m.verified and m.read_from == "v1.21.3"
    assert m.go_text.startswith("func (kl *Kubelet) syncLoopIteration(")
    assert m.go_text.rstrip().endswith("}")
    assert index.go_source(KUBELET_GO).startswith("// Test fixture")


def test_lines_read_from_another_release_link_to_that_release():
    """Line numbers read from v1.21.4 may not be v1.21.3's: the links name v1.21.4."""
    m = _by(_build(source_version="v1.21.4"), "(*Kubelet).syncLoopIteration")
    assert not m.verified and m.read_from == "v1.21.4"
    assert m.permalink.startswith("https://github.com/kubernetes/kubernetes/blob/v1.21.4/")
    assert m.blocks and all("/blob/v1.21.4/" in b.permalink for b in m.blocks)
    assert m.file_permalink == permalink(KUBELET_GO)  # a whole file: the tag itself


def test_blocks_link_go_cases_to_python_lines():
    m = _by(_build(), "(*Kubelet).syncLoopIteration")
    blocks = {b.case: b for b in m.blocks}
    b = blocks["case u, open := <-configCh:"]
    assert (b.status, b.go_start, b.go_end, b.py_start, b.py_end) == ("ported", 44, 58, 27, 38)
    assert b.permalink.endswith("kubelet.go#L44-L58")
    assert blocks["case kubetypes.SET:"].status == "omitted"
    assert blocks["case kubetypes.SET:"].reason == "the fixture has no SET"


def test_repeated_case_text_matches_in_order_of_occurrence():
    m = _by(_build(), "(*Kubelet).note")
    same = [(b.py_line, b.go_start) for b in m.blocks if b.case == 'case s == "":']
    assert same == [(53, 74), (59, 80)]


def test_fidelity_report_every_case_ported_or_omitted():
    index = _build()
    fid = {f.go_symbol: f for f in index.fidelity}
    f = fid["(*Kubelet).syncLoopIteration"]
    assert (f.count("ported"), f.count("omitted"), f.count("missing")) == (7, 1, 0)
    assert [c.status for c in fid["(Pod).Describe"].cases] == ["ported", "omitted"]
    assert fid["(*Kubelet).note"].count("ported") == 4
    assert fid["NewKubelet"].cases == []


def test_a_missing_case_fails_and_is_listed(port_root):
    f = port_root / "port" / "types.py"
    f.write_text(f.read_text().replace("        # Go: case 1:\n", ""))
    index = _build(root=port_root)
    (p,) = index.errors
    assert (p.code, p.file, p.line) == ("missing-case", "port/types.py", 15)
    assert "'case 1:'" in p.message and "pod_update.go:27" in p.message
    (fid,) = [x for x in index.fidelity if x.go_symbol == "(SyncPodType).String"]
    assert [c.status for c in fid.cases] == ["ported", "missing", "ported"]
    assert _build(root=port_root, strict_fidelity=False).ok  # check --no-fidelity


def test_broken_mappings_fail_with_python_file_line_and_what_was_looked_for():
    index = _build(package=BROKEN)
    assert not index.ok
    errors = {(p.line, p.code): p.message for p in index.errors if p.code != "missing-case"}
    assert "pkg/kubelet/missing.go" in errors[(3, "unresolved-file")]
    assert "pkg/kubelet/gone.go" in errors[(25, "unresolved-file")]
    msg = errors[(9, "unresolved-symbol")]
    assert "(*Kubelet).syncLoop in pkg/kubelet/kubelet.go" in msg
    assert "did you mean (*Kubelet).syncLoopIteration" in msg
    msg = errors[(12, "unresolved-symbol")]  # pointer-ness must match the Go
    assert "(*Pod).Describe" in msg and "the Go receiver is a value: (Pod).Describe" in msg
    assert "occurs 1 time(s)" in errors[(17, "extra-anchor")]
    msg = errors[(18, "unresolved-anchor")]
    assert "'case <-nowhere:'" in msg and "case <-syncCh: (L61)" in msg
    assert "not_a_function" in errors[(34, "anchor-without-function")]
    assert all(p.file == "broken/mappings.py" for p in index.errors)
    missing = [p for p in index.errors if p.code == "missing-case"]
    assert len(missing) == 7 and {p.line for p in missing} == {15}


def test_missing_go_file_in_the_source(k8s_copy):
    (k8s_copy / "pkg/kubelet/pod_workers.go").unlink()
    index = _build(src=k8s_copy)
    codes = {(p.file, p.line, p.code) for p in index.errors}
    assert ("port/pod_workers.py", 1, "unresolved-file") in codes  # module docstring
    assert ("port/pod_workers.py", 5, "unresolved-file") in codes  # type podWorkers
    assert ("port/pod_workers.py", 8, "unresolved-file") in codes


def test_malformed_go_in_a_mapped_file_is_reported_not_crashed(k8s_copy):
    go = k8s_copy / KUBELET_GO
    go.write_text(go.read_text() + "\nfunc broken( {\n")
    index = _build(src=k8s_copy)
    (w,) = [p for p in index.problems if p.code == "go-syntax"]
    assert w.severity == "warning" and w.file == KUBELET_GO and w.line == 101
    assert index.ok  # the symbols before it still resolve


def test_no_mappings_at_all(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "__init__.py").write_text('"""Nothing mapped."""\n')
    index = build_index(tmp_path, package="empty", lock_path=None, offline=True)
    assert index.ok and index.mappings == [] and index.mode == "link-only"
