"""Struct fields: a class that ports a Go struct links each attribute to the Go field of its
name."""

from __future__ import annotations

from tools.xref import build_index
from tools.xref.go_index import fields
from tools.xref.lock import write_lock
from tools.xref.py_index import index_file
from tools.xref.resolve import make_lock

from .conftest import FIXTURES, K8S, PORT

WORKERS_GO = "pkg/kubelet/pod_workers.go"
WORKERS_PY = "port/pod_workers.py"


def _index(root=FIXTURES, src=K8S, **kw):
    kw.setdefault("lock_path", None)
    return build_index(root, package=PORT, src=src, source_version="v1.21.3", **kw)


def _fields(index, symbol):
    """(Go field, Go lead, Go start, Go end, Python line, Python start, Python end) of a type."""
    (m,) = [m for m in index.mappings if m.go_symbol == symbol]
    return [
        (b.case, b.go_lead, b.go_start, b.go_end, b.py_line, b.py_start, b.py_end)
        for b in sorted(m.blocks, key=lambda b: b.go_start)
        if b.go_kind == "field" and b.status == "ported"
    ]


def test_the_fields_of_a_go_struct_with_their_lines_and_comments():
    lines = (K8S / WORKERS_GO).read_text().splitlines()
    found = fields("\n".join(lines[30:42]), 31)
    assert [f[:4] for f in found] == [
        ("KillPod", 32, 33, 33),  # with the comment above it
        ("SandboxID", 34, 36, 36),
        ("Attempt", 37, 37, 37),
        ("PodIP", 39, 39, 39),  # one line, two names
        ("HostIP", 39, 39, 39),
        ("podIP", 40, 40, 40),
        ("Ephemeral", 41, 41, 41),
    ]
    # an embedded field is named after its type; a spec of a `type ( … )` group has no keyword
    assert [f.text for f in fields("\n".join(lines[44:49]), 45)] == ["Mutex", "lastSync"]
    nested = fields("grouped struct {\n\tA int\n\tB struct {\n\t\tC int\n\t}\n}", 7)
    assert [f[:4] for f in nested] == [("A", 8, 8, 8), ("B", 9, 9, 11)]
    assert fields("type SyncPodType int", 20) == []


def test_a_class_lists_its_annotated_fields_and_what_its_init_sets_on_self():
    module, problems = index_file(FIXTURES / WORKERS_PY, WORKERS_PY)
    assert not problems
    defs = {d.qualname: d for d in module.defs}
    assert [(f.name, f.line, f.start, f.end) for f in defs["PodSyncPlan"].fields] == [
        ("kill_pod", 23, 22, 23),  # with its `#:` documentation
        ("sandbox_id", 24, 24, 24),
        ("attempt", 25, 25, 25),
        ("host_ip", 26, 26, 26),
        ("pod_ip", 27, 27, 27),
        ("retries", 28, 28, 28),
    ]
    # only statements of __init__'s own body, the first of each name
    assert [(f.name, f.line, f.start) for f in defs["WorkerCache"].fields] == [
        ("_mutex", 36, 35),
        ("last_sync", 39, 39),
    ]
    assert defs["PodWorkers"].fields == []


def test_each_attribute_links_to_the_go_field_of_its_name():
    index = _index()
    assert index.ok, [str(p) for p in index.problems]
    # PodIP and podIP are one name once case is ignored: neither links; Ephemeral and retries
    # have no twin
    assert _fields(index, "type podSyncPlan") == [
        ("KillPod", 32, 33, 33, 23, 22, 23),
        ("SandboxID", 34, 36, 36, 24, 24, 24),
        ("Attempt", 37, 37, 37, 25, 25, 25),
        ("HostIP", 39, 39, 39, 26, 26, 26),
    ]
    # a leading underscore is the port's, not part of the name
    assert _fields(index, "type workerCache") == [
        ("Mutex", 46, 47, 47, 36, 35, 36),
        ("lastSync", 48, 48, 48, 39, 39, 39),
    ]
    (m,) = [m for m in index.mappings if m.go_symbol == "type podSyncPlan"]
    (kill,) = [b for b in m.blocks if b.case == "KillPod"]
    assert kill.permalink.endswith(f"/v1.21.3/{WORKERS_GO}#L33")
    # fields are not cases: fidelity is about functions
    assert all(f.go_symbol != "type podSyncPlan" for f in index.fidelity)


def test_the_lock_records_linked_fields_so_link_only_builds_link_them(tmp_path):
    index = _index()
    path = tmp_path / "fx.lock.json"
    write_lock(path, make_lock(index.py, index.lookup, index.mappings))
    link_only = build_index(FIXTURES, package=PORT, lock_path=path, cache_dir=False, offline=True)
    assert link_only.mode == "link-only" and link_only.ok
    for symbol in ("type podSyncPlan", "type workerCache"):
        assert _fields(link_only, symbol) == _fields(index, symbol)


def test_a_renamed_attribute_is_unlinked_and_the_lock_says_so(tmp_path, port_root):
    index = _index()
    path = tmp_path / "fx.lock.json"
    write_lock(path, make_lock(index.py, index.lookup, index.mappings))
    f = port_root / WORKERS_PY
    f.write_text(f.read_text().replace("    attempt: int = 0\n", "    tries: int = 0\n"))
    renamed = _index(root=port_root, lock_path=path)
    assert "Attempt" not in [b[0] for b in _fields(renamed, "type podSyncPlan")]
    (p,) = [p for p in renamed.errors if p.code == "drift-blocks"]
    assert p.message.startswith("type podSyncPlan in pkg/kubelet/pod_workers.go: the fields")


def test_check_counts_the_linked_fields_apart_from_the_anchors(capsys):
    from tools.xref.cli import main

    args = ["--root", str(FIXTURES), "--package", PORT, "--src", str(K8S), "--lock", "none.json"]
    main(["check", *args])
    out = capsys.readouterr().out
    assert "; 21 block anchors; 6 struct fields linked;" in out
