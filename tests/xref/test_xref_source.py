"""Getting the Go source: K8S_SRC (dir or git tag), the cache, downloads (local server only)."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from tools.xref import build_index
from tools.xref.lock import load_lock, write_lock
from tools.xref.resolve import make_lock
from tools.xref.source import (
    CacheSource,
    DirSource,
    GitSource,
    SourceError,
    acquire,
    download_archive,
    download_raw,
    open_explicit,
    safe_extract,
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
    assert set(got.source.read_many(GO_PATHS | {"pkg/nope.go"})) == GO_PATHS


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
    assert "downloading failed" in got.notes[-1] and "Link-only mode" in got.notes[-1]
    assert "K8S_SRC" in got.notes[-1]
    assert got.fetch.network_error and len(got.fetch.fetched) == 0


def test_require_source_turns_link_only_into_an_error(tmp_path, dead_url):
    index = build_index(
        FIXTURES, package=PORT, lock_path=None, base_url=dead_url, require_source=True
    )
    assert index.mode == "link-only"
    (p,) = [p for p in index.errors if p.code == "no-source"]
    assert "Link-only mode" in p.message


# --- downloads -----------------------------------------------------------------------------


def test_raw_download_fills_a_verified_cache(tmp_path, http_dir):
    www, base = http_dir
    _serve_tag(www)
    cache = CacheSource(tmp_path / "c")
    res = download_raw(GO_PATHS | {"pkg/kubelet/nope.go"}, cache, base_url=f"{base}/v1.21.3")
    assert set(res.fetched) == GO_PATHS and res.not_found == ["pkg/kubelet/nope.go"]
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
    cache = CacheSource(tmp_path / "c")
    res = download_raw(GO_PATHS, cache, base_url=f"{base}/v1.21.3", expected=expected)
    assert KUBELET_GO in res.refused and "differs from the lock" in res.refused[KUBELET_GO]
    assert not (cache.dir / KUBELET_GO).exists()
    assert set(res.fetched) == GO_PATHS - {KUBELET_GO}


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
    lock_path = tmp_path / "fx.lock.json"
    index = build_index(FIXTURES, package=PORT, src=K8S, lock_path=None)
    write_lock(lock_path, make_lock(index.py, index.lookup, index.mappings))
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
    codes = {(p.file, p.code) for p in got.errors}
    assert (KUBELET_GO, "download-refused") in codes
    assert ("port/kubelet.py", "unresolved-file") in codes  # never read from a refused file


# --- archives ------------------------------------------------------------------------------


def _tar(members: list[tuple[str, bytes | None, str]]) -> bytes:
    """A .tar.gz; each member is (name, data, type) with type file|symlink|dir."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data, kind in members:
            info = tarfile.TarInfo(name)
            if kind == "symlink":
                info.type, info.linkname = tarfile.SYMTYPE, data.decode()
                tf.addfile(info)
            elif kind == "dir":
                info.type = tarfile.DIRTYPE
                tf.addfile(info)
            else:
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _evil_archive() -> bytes:
    good = [(f"kubernetes-1.21.3/{p}", (K8S / p).read_bytes(), "file") for p in sorted(GO_PATHS)]
    return _tar(
        [
            ("kubernetes-1.21.3", None, "dir"),
            *good,
            ("kubernetes-1.21.3/../../escaped.go", b"package evil\n", "file"),
            ("../outside.go", b"package evil\n", "file"),
            ("/abs/evil.go", b"package evil\n", "file"),
            ("kubernetes-1.21.3/pkg/kubelet/link.go", b"/etc/passwd", "symlink"),
            ("kubernetes-1.21.3/README.md", b"not wanted\n", "file"),
        ]
    )


def test_safe_extract_rejects_traversal_links_and_absolute_paths(tmp_path):
    dest = tmp_path / "deep" / "dest"
    dest.mkdir(parents=True)
    wanted = GO_PATHS | {"pkg/kubelet/link.go", "../escaped.go"}
    files, rejected = safe_extract(io.BytesIO(_evil_archive()), dest, wanted)
    assert set(files) == GO_PATHS
    assert files[KUBELET_GO] == (K8S / KUBELET_GO).read_bytes()
    why = dict(rejected)
    assert why["kubernetes-1.21.3/../../escaped.go"] == "'..' in path"
    assert why["../outside.go"] == "'..' in path"
    assert why["/abs/evil.go"] == "absolute or non-posix path"
    assert why["kubernetes-1.21.3/pkg/kubelet/link.go"] == "link"
    assert not any(p.name in ("escaped.go", "outside.go") for p in tmp_path.rglob("*"))


def test_archive_download_keeps_only_the_mapped_files(tmp_path, http_dir):
    www, base = http_dir
    (www / "v1.21.3.tar.gz").write_bytes(_evil_archive())
    cache = CacheSource(tmp_path / "c")
    res = download_archive(GO_PATHS, cache, url=f"{base}/v1.21.3.tar.gz")
    assert set(res.fetched) == GO_PATHS and len(res.rejected) == 4
    written = {p.relative_to(cache.dir).as_posix() for p in cache.dir.rglob("*") if p.is_file()}
    assert written == GO_PATHS
    assert not any(p.name in ("escaped.go", "outside.go") for p in tmp_path.rglob("*"))
    index = build_index(
        FIXTURES, package=PORT, lock_path=None, cache_dir=tmp_path / "c", offline=True
    )
    assert index.ok and index.mode == "source"


def test_broken_archive_is_a_download_failure(tmp_path, http_dir):
    www, base = http_dir
    (www / "v1.21.3.tar.gz").write_bytes(b"not a tarball")
    res = download_archive(GO_PATHS, CacheSource(tmp_path / "c"), url=f"{base}/v1.21.3.tar.gz")
    assert "broken archive" in res.network_error and not res.fetched
