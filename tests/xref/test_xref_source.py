"""Getting the Go source: K8S_SRC (dir or git tag), the cache, downloads (local server only)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tools.xref import build_index
from tools.xref.lock import load_lock, write_lock
from tools.xref.resolve import make_lock
from tools.xref.source import (
    UNKNOWN,
    CacheSource,
    DirSource,
    GitSource,
    SourceError,
    acquire,
    fetch_into,
    identify,
    open_explicit,
)

from .conftest import FIXTURES, GO_PATHS, K8S, KUBELET_GO, PORT


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def _serve_tag(www: Path, tag: str = "v1.21.3") -> None:
    shutil.copytree(K8S, www / tag)


# --- K8S_SRC -------------------------------------------------------------------------------


def test_plain_directory_with_its_version(monkeypatch):
    monkeypatch.setenv("K8S_SRC", str(K8S))
    monkeypatch.setenv("K8S_SRC_VERSION", "v1.21.4")
    got = acquire(GO_PATHS, cache_dir=None)
    assert isinstance(got.source, DirSource) and got.source.version == "v1.21.4"
    assert "not checked (no lock to compare with)" in got.source.identity
    assert set(got.source.read_many(GO_PATHS | {"pkg/nope.go"})) == GO_PATHS


def test_a_directory_nothing_identifies_is_not_called_the_tag():
    source = open_explicit(K8S, need=GO_PATHS)
    assert source.version == UNKNOWN != "v1.21.3"
    index = build_index(FIXTURES, package=PORT, src=K8S, lock_path=None)
    assert index.source.version == UNKNOWN
    assert not any(m.verified for m in index.mappings)


def _lock_from(tmp_path, k8s: Path, version: str) -> Path:
    """A lock written from `k8s`, recorded as read from `version`."""
    path = tmp_path / f"{version}.lock.json"
    index = build_index(FIXTURES, package=PORT, src=k8s, source_version=version, lock_path=None)
    write_lock(path, make_lock(index.py, index.lookup, index.mappings))
    return path


def test_a_directory_is_named_by_the_release_its_blob_ids_match(tmp_path, k8s_copy):
    lock = load_lock(_lock_from(tmp_path, K8S, "v1.21.4"))
    files = DirSource(K8S, UNKNOWN).read_many(GO_PATHS)
    # An exact copy of what the lock read from v1.21.4 is v1.21.4, whatever it claims.
    for claimed in (None, "v1.21.3", "v1.21.4"):
        found = identify(files, lock, claimed)
        assert found.version == "v1.21.4", claimed
        assert "git blob ids of all 3 mapped files match the lock's v1.21.4" in found.how
        assert bool(found.warning) == (claimed == "v1.21.3")
    # One file differs: not v1.21.4; a claim of another release is kept, unchecked.
    go = k8s_copy / KUBELET_GO
    go.write_text(go.read_text() + "\n// changed\n")
    changed = DirSource(k8s_copy, UNKNOWN).read_many(GO_PATHS)
    assert identify(changed, lock, None).version == UNKNOWN
    assert "1 of 3 mapped files differ from the lock" in identify(changed, lock, None).how
    assert identify(changed, lock, "v1.21.5").version == "v1.21.5"
    # Claimed, and contradicted by the lock: taken at its word (so that `check` reports each
    # drift), with a warning.
    wrong = identify(changed, lock, "v1.21.4")
    assert wrong.version == "v1.21.4" and "K8S_SRC_VERSION=v1.21.4, but 1 of 3" in wrong.warning


def test_the_page_and_the_build_say_what_a_directory_holds(tmp_path, monkeypatch):
    lock_path = _lock_from(tmp_path, K8S, "v1.21.4")
    monkeypatch.setenv("K8S_SRC", str(K8S))
    monkeypatch.setenv("K8S_SRC_VERSION", "v1.21.3")  # a wrong claim
    index = build_index(FIXTURES, package=PORT, lock_path=lock_path)
    assert index.source.version == "v1.21.4"
    assert any("warning: K8S_SRC_VERSION=v1.21.3" in n for n in index.notes)
    assert not any(m.verified for m in index.mappings)  # lines are v1.21.4's, not the tag's
    assert {m.read_from for m in index.mappings if m.resolved} == {"v1.21.4"}


def test_missing_k8s_src_is_a_clear_error(tmp_path):
    with pytest.raises(SourceError, match="is not a directory"):
        open_explicit(tmp_path / "nowhere")
    index = build_index(FIXTURES, package=PORT, src=tmp_path / "nowhere", lock_path=None)
    assert "source" in {p.code for p in index.errors} and index.mode == "link-only"


@pytest.fixture
def git_checkout(tmp_path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "kubernetes"
    shutil.copytree(K8S, repo)

    def git(*args):
        subprocess.run(
            ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "fixture")
    git("tag", "v1.21.3")
    # the work tree moves on after the tag: the tag must be what is read
    go = repo / KUBELET_GO
    go.write_text(go.read_text().replace("note(s string)", "noteChanged(s string)"))
    git("commit", "-q", "-am", "later")
    return repo


def test_git_checkout_is_read_at_the_tag(git_checkout):
    source = open_explicit(git_checkout)
    assert isinstance(source, GitSource) and source.version == "v1.21.3"
    files = source.read_many(GO_PATHS | {"pkg/missing.go"})
    assert set(files) == GO_PATHS
    assert files[KUBELET_GO] == (K8S / KUBELET_GO).read_bytes()
    index = build_index(FIXTURES, package=PORT, src=git_checkout, lock_path=None)
    assert index.ok and index.source.kind == "git"


def test_git_checkout_without_the_tag(git_checkout):
    with pytest.raises(SourceError, match=r"without tag v9\.9\.9"):
        open_explicit(git_checkout, "v9.9.9")


# --- no source -----------------------------------------------------------------------------


def test_no_source_and_no_network_is_link_only_with_a_clear_message(tmp_path, dead_url):
    got = acquire(GO_PATHS, cache_dir=tmp_path / "c", base_url=dead_url)
    assert got.source is None
    assert "the download failed" in got.notes[-1] and "Link-only mode" in got.notes[-1]
    assert "K8S_SRC" in got.notes[-1]
    assert got.fetch.network_error and len(got.fetch.fetched) == 0


def test_require_source_turns_link_only_into_an_error(tmp_path, dead_url):
    index = build_index(
        FIXTURES, package=PORT, lock_path=None, base_url=dead_url, require_source=True
    )
    assert index.mode == "link-only"
    (p,) = [p for p in index.errors if p.code == "no-source"]
    assert "Link-only mode" in p.message


# --- the download cache ----------------------------------------------------------------------


def test_fetch_fills_a_verified_cache(tmp_path, http_dir):
    www, base = http_dir
    _serve_tag(www)
    cache = CacheSource(tmp_path / "c")
    res, unwritable = fetch_into(
        cache, GO_PATHS | {"pkg/kubelet/nope.go"}, base_url=f"{base}/v1.21.3"
    )
    assert set(res.fetched) == GO_PATHS and res.not_found == ["pkg/kubelet/nope.go"]
    assert not unwritable
    # known absent at the tag: not "missing" (an offline build still reads the cache)
    assert cache.missing(GO_PATHS | {"pkg/kubelet/nope.go"}) == set()
    manifest = json.loads(cache.manifest_path.read_text())
    assert manifest["files"][KUBELET_GO]["sha256"] == _sha(K8S / KUBELET_GO)
    assert cache.read_many(GO_PATHS)[KUBELET_GO] == (K8S / KUBELET_GO).read_bytes()
    # a cached file changed behind our back is not used
    (cache.dir / KUBELET_GO).write_text("package tampered\n")
    assert KUBELET_GO not in cache.read_many(GO_PATHS) and KUBELET_GO in cache.bad


def test_download_is_checked_against_the_lock(tmp_path, http_dir):
    www, base = http_dir
    _serve_tag(www)
    go = www / "v1.21.3" / KUBELET_GO
    go.write_text(go.read_text() + "\n// served text differs\n")
    expected = {KUBELET_GO: _sha(K8S / KUBELET_GO)}  # facts the lock read off the tag
    cache = CacheSource(tmp_path / "c", expected=expected)
    res, _ = fetch_into(cache, GO_PATHS, base_url=f"{base}/v1.21.3")
    assert KUBELET_GO in res.refused and "differs from the lock" in res.refused[KUBELET_GO]
    assert not (cache.dir / KUBELET_GO).exists()
    assert set(res.fetched) == GO_PATHS - {KUBELET_GO}


def test_a_cached_file_the_lock_disowns_is_fetched_again(tmp_path, http_dir):
    """A file cached before the lock recorded the tag's hashes is checked against them."""
    www, base = http_dir
    _serve_tag(www)
    go = www / "v1.21.3" / KUBELET_GO
    good = go.read_bytes()
    go.write_text(go.read_text() + "\n// first served text\n")
    fetch_into(CacheSource(tmp_path / "c"), GO_PATHS, base_url=f"{base}/v1.21.3")
    go.write_bytes(good)
    cache = CacheSource(tmp_path / "c", expected={KUBELET_GO: _sha(K8S / KUBELET_GO)})
    assert cache.missing(GO_PATHS) == {KUBELET_GO}
    assert "not the text the lock read from v1.21.3" in cache.bad[KUBELET_GO]
    fetch_into(cache, cache.missing(GO_PATHS), base_url=f"{base}/v1.21.3")
    assert cache.missing(GO_PATHS) == set()


def test_build_downloads_then_reuses_the_cache(tmp_path, http_dir):
    www, base = http_dir
    _serve_tag(www)
    cache = tmp_path / "c"
    first = build_index(
        FIXTURES, package=PORT, lock_path=None, cache_dir=cache, base_url=f"{base}/v1.21.3"
    )
    assert first.ok and first.mode == "source" and first.source.kind == "cache"
    assert any("downloaded 3 files" in n for n in first.notes)
    shutil.rmtree(www / "v1.21.3")  # the server forgets: the cache is enough now
    again = build_index(FIXTURES, package=PORT, lock_path=None, cache_dir=cache, offline=True)
    assert again.ok and again.mode == "source"


def test_lock_hashes_from_the_tag_guard_the_download(tmp_path, http_dir):
    www, base = http_dir
    _serve_tag(www)
    lock_path = _lock_from(tmp_path, K8S, "v1.21.3")
    assert load_lock(lock_path).expected_hashes("v1.21.3")
    go = www / "v1.21.3" / KUBELET_GO
    go.write_text(go.read_text().replace("bad op", "worse op"))
    got = build_index(
        FIXTURES,
        package=PORT,
        lock_path=lock_path,
        cache_dir=tmp_path / "c",
        base_url=f"{base}/v1.21.3",
    )
    assert any(f"refused {KUBELET_GO}" in n for n in got.notes)
    assert (KUBELET_GO, "download-refused") in {(p.file, p.code) for p in got.errors}
    # never read from a refused file: the build is link-only, from the lock
    assert got.mode == "link-only"
    assert "2 of the 3 files" in got.notes[-1] and "downloads refused: 1" in got.notes[-1]
