"""The lock: facts only, link-only permalinks, drift against a source."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tools.xref import LOCK_PATH, build_index
from tools.xref.lock import load_lock, write_lock
from tools.xref.py_index import symbol_kind
from tools.xref.resolve import make_lock

from .conftest import FIXTURES, GO_PATHS, K8S, KUBELET_GO, PORT


def _write_lock(path, src=K8S, root=FIXTURES, version="v1.21.3"):
    index = build_index(root, package=PORT, src=src, source_version=version, lock_path=None)
    assert index.ok, [str(p) for p in index.problems]
    lock = make_lock(index.py, index.lookup, index.mappings)
    write_lock(path, lock)
    return lock


def _build(lock_path, src=None, root=FIXTURES, **kw):
    return build_index(root, package=PORT, src=src, lock_path=lock_path, offline=True, **kw)


def test_lock_holds_facts_only(tmp_path):
    path = tmp_path / "fx.lock.json"
    lock = _write_lock(path)
    text = path.read_text()
    data = json.loads(text)
    assert data["tag"] == "v1.21.3" and data["repo"] == "kubernetes/kubernetes"
    assert {f["path"] for f in data["files"]} == GO_PATHS
    s = next(s for s in data["symbols"] if s["symbol"] == "(*Kubelet).syncLoopIteration")
    assert (s["path"], s["kind"], s["start"], s["end"], s["read_from"]) == (
        KUBELET_GO,
        "method",
        41,
        70,
        "v1.21.3",
    )
    assert re.fullmatch(r"[0-9a-f]{64}", s["sha256"])
    assert s["cases"][0] == {
        "case": "case u, open := <-configCh:",
        "kind": "select",
        "start": 44,
        "end": 58,
    }
    # no Go code: no source line appears in the lock, but for a case header or the start of a
    # statement, which the port's own '# Go:' comments write out anyway, and a struct field's name
    anchored = {b["anchor"] for s in data["symbols"] for b in s.get("blocks", [])}
    port = "".join(p.read_text() for p in (FIXTURES / PORT).rglob("*.py"))
    types = [s for s in data["symbols"] if s["kind"] == "type"]
    fields = {b["anchor"] for s in types for b in s.get("blocks", [])}
    assert fields == {"KillPod", "SandboxID", "Attempt", "HostIP", "Mutex", "lastSync"}
    assert anchored - fields and all(f"# Go: {a}" in port for a in anchored - fields)
    for rel in GO_PATHS:
        for line in (K8S / rel).read_text().splitlines():
            line = line.strip()
            if line in anchored:
                continue
            if len(line) >= 12 and not line.startswith("case ") and not line.endswith(":"):
                assert line not in text, line
    assert len(lock.symbols) == 14


def test_link_only_build_gives_the_same_permalinks_as_the_source(tmp_path):
    path = tmp_path / "fx.lock.json"
    _write_lock(path)
    with_source = build_index(FIXTURES, package=PORT, src=K8S, lock_path=path)
    link_only = _build(path)
    assert with_source.ok and link_only.ok, [str(p) for p in link_only.problems]
    assert link_only.mode == "link-only" and with_source.mode == "source"
    assert link_only.notes and "Link-only mode" in link_only.notes[-1]

    def facts(index):
        return [
            (m.py_file, m.go_symbol, m.permalink, [(b.case, b.permalink) for b in m.blocks])
            for m in index.mappings
        ]

    assert facts(link_only) == facts(with_source)
    assert [f.to_json() for f in link_only.fidelity] == [f.to_json() for f in with_source.fidelity]
    assert all(m.go_text is None for m in link_only.mappings)


def test_link_only_mapping_missing_from_the_lock_fails(tmp_path, port_root):
    path = tmp_path / "fx.lock.json"
    _write_lock(path)
    f = port_root / "port" / "kubelet.py"
    f.write_text(
        f.read_text()
        + '\n\ndef extra():\n    """Go: pkg/kubelet/pod_workers.go (*podWorkers).managePodLoop"""\n'
    )
    index = _build(path, root=port_root)
    (p,) = index.errors
    assert p.code == "unresolved-symbol" and "link-only" in p.message
    assert (p.file, p.line) == ("port/kubelet.py", 88)


def test_check_reports_drift_when_a_go_symbol_is_renamed(tmp_path, k8s_copy):
    path = tmp_path / "fx.lock.json"
    _write_lock(path)
    go = k8s_copy / KUBELET_GO
    go.write_text(go.read_text().replace(") note(s string)", ") noteIt(s string)"))
    index = build_index(
        FIXTURES, package=PORT, src=k8s_copy, source_version="v1.21.3", lock_path=path
    )
    codes = {p.code for p in index.errors}
    assert {"drift-symbol", "unresolved-symbol", "drift-file"} <= codes
    (d,) = [p for p in index.errors if p.code == "drift-symbol"]
    assert "(*Kubelet).note in pkg/kubelet/kubelet.go" in d.message
    assert "did you mean (*Kubelet).noteIt" in d.message


def test_check_reports_moved_lines_and_changed_text(tmp_path, k8s_copy):
    path = tmp_path / "fx.lock.json"
    _write_lock(path)
    go = k8s_copy / "pkg/kubelet/types/pod_update.go"
    go.write_text(go.read_text().replace("package types\n", "package types\n\n// moved\n"))
    go = k8s_copy / "pkg/kubelet/pod_workers.go"
    go.write_text(go.read_text().replace("make(chan string, 1)", "make(chan string, 2)"))
    index = build_index(
        FIXTURES, package=PORT, src=k8s_copy, source_version="v1.21.3", lock_path=path
    )
    msgs = {}
    for p in index.errors:
        msgs.setdefault(p.code, []).append(p.message)
    assert any("lines 25-34 in v1.21.3, lock says 23-32" in m for m in msgs["drift-lines"])
    assert any("(SyncPodType).String" in m for m in msgs["drift-lines"])
    assert any("type SyncPodType" in m for m in msgs["drift-lines"])
    (text,) = msgs["drift-text"]
    assert "(*podWorkers).UpdatePod" in text and "same lines, different text" in text


def test_entries_read_from_another_release_are_marked_and_rechecked(tmp_path, http_dir):
    path = tmp_path / "fx.lock.json"
    lock = _write_lock(path, version="v1.21.4")
    assert {s.read_from for s in lock.symbols.values()} == {"v1.21.4"}
    link_only = _build(path)
    assert link_only.ok and not any(m.verified for m in link_only.mappings)
    # the same text in a directory is called v1.21.4, as the lock read it
    local = build_index(FIXTURES, package=PORT, src=K8S, lock_path=path)
    assert local.source.version == "v1.21.4" and not any(m.verified for m in local.mappings)
    # the deploy build fetches the tag's commit itself: same text, so no drift, and a note
    # about read_from
    www, base = http_dir
    shutil.copytree(K8S, www / "v1.21.3")
    checked = build_index(
        FIXTURES, package=PORT, lock_path=path, cache_dir=tmp_path / "c", base_url=f"{base}/v1.21.3"
    )
    assert checked.ok and checked.source.kind == "cache"
    assert any(p.code == "read-from" and p.severity == "note" for p in checked.problems)
    assert all(m.verified for m in checked.mappings)


def test_a_stale_lock_fails_the_check(tmp_path, port_root):
    path = tmp_path / "fx.lock.json"
    _write_lock(path)
    f = port_root / "port" / "kubelet.py"
    f.write_text(
        f.read_text() + '\n\ndef extra():\n    """Go: pkg/kubelet/kubelet.go type podSet"""\n'
    )
    index = build_index(port_root, package=PORT, src=K8S, lock_path=path)
    (p,) = index.errors
    assert p.code == "lock-stale" and "type podSet" in p.message


def test_a_malformed_lock_is_an_error(tmp_path):
    path = tmp_path / "bad.lock.json"
    path.write_text('{"format": 1, "tag": "v1.21.3"}')
    index = _build(path)
    assert "lock-unreadable" in {p.code for p in index.errors}


@pytest.mark.skipif(not LOCK_PATH.exists(), reason="no lock committed yet")
def test_the_repository_lock_is_well_formed_and_facts_only():
    lock = load_lock(LOCK_PATH)
    assert lock.tag == "v1.21.3"
    for f in lock.files.values():
        assert f.path.endswith(".go") and re.fullmatch(r"[0-9a-f]{64}", f.sha256)
        assert f.read_from.startswith("v1.21.")
    for s in lock.symbols.values():
        assert symbol_kind(s.symbol) is not None, s.symbol
        assert 0 < s.start <= s.end and s.read_from.startswith("v1.21.")
        assert re.fullmatch(r"[0-9a-f]{64}", s.sha256)
        for c in s.cases:
            assert s.start <= c.start <= c.end <= s.end
            assert c.header.endswith(":") and len(c.header) < 300 and "\n" not in c.header
