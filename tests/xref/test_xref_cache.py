"""The content-hash cache and tree indexing (cold, warm, changed files, the process pool)."""

from __future__ import annotations

import os
import shutil
import time

from tools.xref import go_tree
from tools.xref.cache import Snapshot
from tools.xref.go_tree import index_blobs, index_tree, raw_parse_tree, scan

from .conftest import FIXTURES, K8S, KUBELET_GO


def _tree(tmp_path):
    root = tmp_path / "tree"
    shutil.copytree(K8S, root / "k8s")
    shutil.copytree(FIXTURES / "gotree", root / "gotree")
    (root / ".git").mkdir()
    (root / ".git" / "hidden.go").write_text("package hidden\n")
    (root / "dir.go").mkdir()  # a directory named like a Go file is walked, not read
    (root / "dir.go" / "inner.go").write_text("package inner\nfunc Inner() {}\n")
    past = time.time() - 3600  # not "racy": older than the snapshot by far
    for p in root.rglob("*.go"):
        os.utime(p, (past, past))
    return root


def _records(tree):
    return {rel: f.record for rel, f in tree.files.items()}


def test_scan_finds_go_files_skips_hidden_dirs(tmp_path):
    root = _tree(tmp_path)
    rels = [r[0] for r in scan(root)]
    assert "dir.go/inner.go" in rels and "k8s/" + KUBELET_GO in rels
    assert not any(r.startswith(".git") for r in rels) and len(rels) == 6


def test_cold_then_warm_then_changes(tmp_path):
    root, cache = _tree(tmp_path), tmp_path / "cache"
    cold = index_tree(root, cache_dir=cache)
    assert cold.stats["parsed"] == 6 and len(cold) == 6
    assert cold.files["gotree/broken.go"].errors  # malformed Go: indexed, errors kept
    warm = index_tree(root, cache_dir=cache)
    assert (warm.stats["stat_hits"], warm.stats["parsed"]) == (6, 0)
    assert _records(warm) == _records(cold)

    # touched, same content: the content hash vouches for the cached record
    os.utime(root / "gotree/small.go")
    touched = index_tree(root, cache_dir=cache)
    assert (touched.stats["hash_hits"], touched.stats["parsed"]) == (1, 0)

    # changed content: parsed again; a removed file leaves the index
    small = root / "gotree/small.go"
    small.write_text(small.read_text() + "\nfunc C() {}\n")
    (root / "dir.go/inner.go").unlink()
    changed = index_tree(root, cache_dir=cache)
    assert changed.stats["parsed"] == 1 and len(changed) == 5
    assert changed.files["gotree/small.go"].get("C") is not None

    rehashed = index_tree(root, cache_dir=cache, rehash=True)
    assert rehashed.stats["hash_hits"] == 5 and rehashed.stats["parsed"] == 0


def test_just_written_files_are_rehashed_not_trusted_by_stat(tmp_path):
    root, cache = tmp_path / "fresh", tmp_path / "cache"
    root.mkdir()
    for f in (FIXTURES / "gotree").iterdir():
        (root / f.name).write_bytes(f.read_bytes())  # mtimes: now
    index_tree(root, cache_dir=cache)
    again = index_tree(root, cache_dir=cache)
    assert again.stats["stat_hits"] == 0 and again.stats["hash_hits"] == 2


def test_process_pool_gives_the_same_records(tmp_path, monkeypatch):
    root = _tree(tmp_path)
    serial = index_tree(root, cache_dir=None, jobs=1)
    monkeypatch.setattr(go_tree, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(go_tree, "BATCH_BYTES", 1)
    pooled = index_tree(root, cache_dir=None, jobs=2)
    assert _records(pooled) == _records(serial)
    assert raw_parse_tree(root, jobs=2)[0] == 6


def test_a_corrupt_snapshot_is_ignored(tmp_path):
    root, cache = _tree(tmp_path), tmp_path / "cache"
    index_tree(root, cache_dir=cache)
    (snap,) = (cache / "go").glob("*.snap")
    snap.write_bytes(b"\x00garbage")
    again = index_tree(root, cache_dir=cache)
    assert again.stats["parsed"] == 6


def test_blobs_are_cached_by_content_hash(tmp_path):
    data = {KUBELET_GO: (K8S / KUBELET_GO).read_bytes()}
    first = index_blobs(data, key="git:/x@v1.21.3", cache_dir=tmp_path)
    snap = Snapshot.load(tmp_path, "git:/x@v1.21.3")
    assert set(snap.entries) == {KUBELET_GO}
    second = index_blobs(data, key="git:/x@v1.21.3", cache_dir=tmp_path)
    assert second[KUBELET_GO].record == first[KUBELET_GO].record
    assert second[KUBELET_GO].sha256 == first[KUBELET_GO].sha256
