"""The content-hash cache and tree indexing (cold, warm, changed files, the process pool)."""

from __future__ import annotations

import marshal
import os
import shutil
import subprocess
import sys
import time

import pytest

from tools.xref import build_index, go_tree
from tools.xref.cache import Snapshot
from tools.xref.go_tree import index_blobs, index_tree, raw_parse_tree, scan

from .conftest import FIXTURES, K8S, KUBELET_GO, ROOT_DIR


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


# --- a corrupted cache is discarded and rebuilt, never a traceback ---------------------------


def _flip_bits(path):
    data = bytearray(path.read_bytes())
    for i in range(len(data) // 3, len(data), max(1, len(data) // 7)):
        data[i] ^= 0x10
    path.write_bytes(bytes(data))


def _bad_marshal(path):
    path.write_bytes(path.read_bytes()[:60] + b"\xff\xfe not marshal")


def _wrong_shape(path):
    from tools.xref.cache import encode

    path.write_bytes(encode({"a.go": (1, 2)}, "the wrong key"))


def _raw_wrong_shape(path):
    path.write_bytes(marshal.dumps(["not", "a", "snapshot"]))


def _truncated(path):
    path.write_bytes(path.read_bytes()[:100])


def _directory(path):
    path.unlink()
    (path / "inside").mkdir(parents=True)


def _go_dir_is_a_file(path):
    shutil.rmtree(path.parent)
    path.parent.write_text("not a directory")


CORRUPTIONS = [
    _flip_bits,
    _bad_marshal,
    _wrong_shape,
    _raw_wrong_shape,
    _truncated,
    _directory,
    _go_dir_is_a_file,
]


@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda f: f.__name__.strip("_"))
def test_a_corrupted_snapshot_is_discarded_and_rebuilt(tmp_path, corrupt):
    cache = tmp_path / "cache"
    first = build_index(FIXTURES, package="port", src=K8S, lock_path=None, cache_dir=cache)
    (snap,) = (cache / "go").glob("*.snap")
    corrupt(snap)
    again = build_index(FIXTURES, package="port", src=K8S, lock_path=None, cache_dir=cache)
    assert again.ok and [m.go_start for m in again.mappings] == [m.go_start for m in first.mappings]
    if corrupt is not _go_dir_is_a_file:  # nothing to read there: nothing to discard
        assert any("did not verify" in n and "discarded, rebuilt" in n for n in again.notes)
    assert snap.is_file()
    third = build_index(FIXTURES, package="port", src=K8S, lock_path=None, cache_dir=cache)
    assert not any("did not verify" in n for n in third.notes), "it was not rebuilt"


def test_a_tree_snapshot_that_does_not_verify_is_rebuilt(tmp_path):
    root, cache = _tree(tmp_path), tmp_path / "cache"
    index_tree(root, cache_dir=cache)
    (snap,) = (cache / "go").glob("*.snap")
    _flip_bits(snap)
    again = index_tree(root, cache_dir=cache)
    assert again.stats["parsed"] == 6 and "checksum mismatch" in again.notes[0]
    assert index_tree(root, cache_dir=cache).stats["parsed"] == 0


def test_an_unwritable_cache_is_said_not_raised(tmp_path):
    cache = tmp_path / "cache"
    cache.write_text("a file where the cache directory should be")
    index = build_index(FIXTURES, package="port", src=K8S, lock_path=None, cache_dir=cache)
    assert index.ok
    assert any("cache: cannot write" in n for n in index.notes)


def _download_cache(tmp_path, http_dir):
    www, base = http_dir
    shutil.copytree(K8S, www / "v1.21.3")
    cache = tmp_path / "c"
    first = build_index(
        FIXTURES, package="port", lock_path=None, cache_dir=cache, base_url=f"{base}/v1.21.3"
    )
    assert first.mode == "source"
    return cache, f"{base}/v1.21.3"


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda m, d: m.write_text("{ not json"),
        lambda m, d: m.write_text('["a list"]'),
        lambda m, d: m.write_text('{"tag": "v1.21.3", "files": {"../x": 1, "a.go": "b"}}'),
        lambda m, d: m.write_bytes(b"\xff\xfe\x00"),
        lambda m, d: (m.unlink(), m.mkdir()),
        lambda m, d: ((d / KUBELET_GO).unlink(), (d / KUBELET_GO).mkdir()),
        lambda m, d: (shutil.rmtree(d / "pkg"), (d / "pkg").write_text("x")),
    ],
    ids=["not-json", "a-list", "bad-entries", "not-utf8", "manifest-dir", "file-dir", "dir-file"],
)
def test_a_corrupted_download_cache_is_fetched_again(tmp_path, http_dir, corrupt):
    cache, base = _download_cache(tmp_path, http_dir)
    corrupt(cache / "src" / "v1.21.3.manifest.json", cache / "src" / "v1.21.3")
    again = build_index(FIXTURES, package="port", lock_path=None, cache_dir=cache, base_url=base)
    assert again.ok and again.mode == "source", again.notes
    third = build_index(FIXTURES, package="port", lock_path=None, cache_dir=cache, offline=True)
    assert third.ok and third.mode == "source", third.notes


def test_the_command_line_never_shows_a_traceback_for_a_corrupted_cache(tmp_path):
    cache = tmp_path / "cache"
    env = {**os.environ, "XREF_CACHE_DIR": str(cache), "K8S_SRC": str(K8S)}
    env["K8S_SRC_VERSION"] = "v1.21.3"
    args = [sys.executable, "-m", "tools.xref", "check", "--root", str(FIXTURES)]
    args += ["--package", "port", "--lock", str(tmp_path / "none.json")]
    run = lambda: subprocess.run(  # noqa: E731
        args, cwd=ROOT_DIR, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    run()
    for corrupt in CORRUPTIONS[:-2]:
        (snap,) = (cache / "go").glob("*.snap")
        corrupt(snap)
        done = run()
        assert "Traceback" not in done.stderr + done.stdout, corrupt.__name__
        assert "did not verify" in done.stderr, corrupt.__name__


def test_planted_symlinks_are_never_written_through(tmp_path):  # #28 item 2
    import os

    from tools.xref.cache import Snapshot

    victim = tmp_path / "victim"
    victim.write_bytes(b"keep")
    cache = tmp_path / "cache"
    snap = Snapshot.load(cache, "k")
    snap.put("a.go", (1, 1, 1, "0" * 64, b"r"))
    snap.path.parent.mkdir(parents=True)
    tmp = snap.path.with_name(f"{snap.path.name}.{os.getpid()}.tmp")
    tmp.symlink_to(victim)  # at the temporary name: removed, a new file made
    snap.save("k")
    assert victim.read_bytes() == b"keep" and not snap.notes
    assert not snap.path.is_symlink() and Snapshot.load(cache, "k").entries
    snap.path.unlink()
    snap.path.symlink_to(victim)  # at the destination: refused, in one line
    snap.put("b.go", (1, 1, 1, "0" * 64, b"r"))
    snap.save("k")
    assert victim.read_bytes() == b"keep"
    (note,) = snap.notes
    assert "is a symbolic link: refusing to write through it" in note and "\n" not in note
