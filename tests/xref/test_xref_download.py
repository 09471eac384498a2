"""The supply chain of ``python -m tools.xref fetch``: what a download must be to be used.

Every server here is on 127.0.0.1; each test is bounded in time (small caps, short deadlines).
"""

from __future__ import annotations

import gzip
import http.server
import io
import json
import shutil
import tarfile
import threading
import time
import zlib
from pathlib import Path

import pytest

from tools.xref.cli import main
from tools.xref.download import (
    Limits,
    Refused,
    download_archive,
    download_raw,
    safe_extract,
    url_problem,
)
from tools.xref.lock import load_lock
from tools.xref.paths import ARCHIVE_URL, COMMIT, RAW_BASE
from tools.xref.source import CacheSource, fetch_into

from .conftest import FIXTURES, GO_PATHS, K8S, KUBELET_GO

PREFIX = f"kubernetes-{COMMIT}/"


def archive(members: dict[str, bytes], commit: str | None = COMMIT, prefix: str = PREFIX) -> bytes:
    """A .tar.gz shaped like GitHub's (git archive): pax header with the commit, one top dir."""
    buf = io.BytesIO()
    headers = {"comment": commit} if commit else {}
    with tarfile.open(
        fileobj=buf, mode="w:gz", format=tarfile.PAX_FORMAT, pax_headers=headers
    ) as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(prefix + name)
            if "\0" in name:
                info.pax_headers = {"path": prefix + name}
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def fixture_files() -> dict[str, bytes]:
    return {p: (K8S / p).read_bytes() for p in sorted(GO_PATHS)}


class Routes(http.server.BaseHTTPRequestHandler):
    """Serves ``server.routes[path]``: bytes, or (status, headers, body), or a callable."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        route = self.server.routes.get(self.path)
        if route is None:
            self.send_error(404)
            return
        if callable(route):
            route(self)
            return
        status, headers, body = route if isinstance(route, tuple) else (200, {}, route)
        self.send_response(status)
        for k, v in {"Content-Length": str(len(body)), **headers}.items():
            if v is not None:
                self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Routes)
    httpd.daemon_threads = True
    httpd.routes = {}
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    httpd.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


def serve_tree(server, files: dict[str, bytes], under: str = "/raw") -> str:
    for rel, data in files.items():
        server.routes[f"{under}/{rel}"] = data
    return server.base + under


# --- where from ------------------------------------------------------------------------------


def test_downloads_ask_for_the_release_commit_over_https():
    assert COMMIT == "ca643a4d1f7bfe34773c74f79527be4afd95bf39"
    assert f"https://raw.githubusercontent.com/kubernetes/kubernetes/{COMMIT}" == RAW_BASE
    assert ARCHIVE_URL.startswith("https://") and COMMIT in ARCHIVE_URL


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://raw.githubusercontent.com/x", True),
        ("http://127.0.0.1:8000/x", True),
        ("http://localhost/x", True),
        ("http://[::1]:9/x", True),
        ("http://raw.githubusercontent.com/x", False),
        ("http://10.0.0.1/x", False),
        ("ftp://example.org/x", False),
        ("file:///etc/passwd", False),
        ("raw/x", False),
    ],
)
def test_only_https_or_plain_http_to_this_machine(url, ok):
    assert (url_problem(url) == "") is ok


def test_a_plain_http_base_url_to_another_host_is_refused_before_any_request():
    res = download_raw(GO_PATHS, "http://192.0.2.1/raw", timeout=1)
    assert "plain http is only allowed to this machine" in res.network_error
    assert not res.files


def test_a_redirect_that_leaves_https_is_not_followed(server):
    base = serve_tree(server, fixture_files())
    server.routes[f"/raw/{KUBELET_GO}"] = (302, {"Location": "http://192.0.2.1/evil.go"}, b"")
    res = download_raw(GO_PATHS, base, timeout=2)
    assert "redirect to http://192.0.2.1/evil.go refused" in res.refused[KUBELET_GO]
    assert set(res.files) == GO_PATHS - {KUBELET_GO}


def test_a_path_that_is_not_a_plain_repository_path_is_never_asked_for(server):
    base = serve_tree(server, fixture_files())
    res = download_raw({"../etc/passwd", "pkg/a\0b.go", KUBELET_GO}, base)
    assert set(res.refused) == {"../etc/passwd", "pkg/a\0b.go"}
    assert set(res.files) == {KUBELET_GO}


# --- size and time ---------------------------------------------------------------------------


def test_a_file_over_the_cap_is_refused_with_or_without_a_length(server):
    big = b"package big\n" + b"// x\n" * 400
    files = {**fixture_files(), KUBELET_GO: big}
    base = serve_tree(server, files)
    server.routes["/raw/pkg/kubelet/pod_workers.go"] = (200, {"Content-Length": None}, big)
    res = download_raw(GO_PATHS, base, limits=Limits(file=1000))
    assert "over the 1000-byte cap" in res.refused[KUBELET_GO]
    assert "over the 1000-byte cap" in res.refused["pkg/kubelet/pod_workers.go"]
    assert set(res.files) == {"pkg/kubelet/types/pod_update.go"}


def test_a_trickling_server_cannot_hold_a_fetch(server):
    def trickle(handler):
        handler.send_response(200)
        handler.send_header("Content-Length", "1000")
        handler.end_headers()
        for _ in range(1000):
            handler.wfile.write(b"x")
            handler.wfile.flush()
            time.sleep(0.1)

    server.routes[f"/raw/{KUBELET_GO}"] = trickle
    t0 = time.monotonic()
    res = download_raw({KUBELET_GO}, server.base + "/raw", timeout=5, limits=Limits(deadline=0.5))
    assert time.monotonic() - t0 < 4
    assert "took longer than its 0.5 s deadline" in res.refused[KUBELET_GO]


def test_the_deadline_covers_response_headers(server):
    def slow_headers(handler):
        handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
        for i in range(100):
            handler.wfile.write(b"X-Slow-%d: y\r\n" % i)
            handler.wfile.flush()
            time.sleep(0.1)

    server.routes[f"/raw/{KUBELET_GO}"] = slow_headers
    t0 = time.monotonic()
    res = download_raw({KUBELET_GO}, server.base + "/raw", timeout=5, limits=Limits(deadline=0.5))
    assert time.monotonic() - t0 < 2
    assert "took longer than its 0.5 s deadline" in res.refused[KUBELET_GO]
    archived = download_archive(
        {KUBELET_GO}, server.base + f"/raw/{KUBELET_GO}", timeout=5, limits=Limits(deadline=0.5)
    )
    assert "took longer than its 0.5 s deadline" in archived.refused["(archive)"]


def test_one_deadline_for_the_whole_fetch_not_one_per_file(server):
    files = {f"pkg/f{i}.go": b"package f\n" for i in range(20)}

    def slow(data):
        def route(handler):
            time.sleep(0.2)
            handler.send_response(200)
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)

        return route

    for rel, data in files.items():
        server.routes[f"/raw/{rel}"] = slow(data)
    t0 = time.monotonic()
    res = download_raw(set(files), server.base + "/raw", timeout=5, limits=Limits(deadline=1.0))
    assert time.monotonic() - t0 < 2
    assert 1 <= len(res.files) < 20
    (why,) = res.refused.values()
    assert "took longer than its 1 s deadline" in why


# --- archives --------------------------------------------------------------------------------


def _extract(data: bytes, limits: Limits | None = None):
    limits = limits or Limits()
    return safe_extract(io.BytesIO(data), set(GO_PATHS), commit=COMMIT, limits=limits)


def test_a_good_archive_gives_the_wanted_files_only():
    files, rejected = _extract(archive({**fixture_files(), "README.md": b"not wanted\n"}))
    assert files == fixture_files() and rejected == []


@pytest.mark.parametrize(
    ("commit", "why"),
    [("0" * 40, f"holds commit {'0' * 40}, not {COMMIT}"), (None, "holds no commit id")],
)
def test_an_archive_of_another_commit_is_refused(commit, why):
    with pytest.raises(Refused, match=why):
        _extract(archive(fixture_files(), commit=commit))


def test_a_member_met_twice_refuses_the_archive():
    buf = io.BytesIO()
    with tarfile.open(
        fileobj=buf, mode="w:gz", format=tarfile.PAX_FORMAT, pax_headers={"comment": COMMIT}
    ) as tf:
        for data in ((K8S / KUBELET_GO).read_bytes(), b"package evil\n"):
            info = tarfile.TarInfo(PREFIX + KUBELET_GO)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    with pytest.raises(Refused, match="appears twice"):
        _extract(buf.getvalue())


def _raw_archive(names: list[str], fmt=tarfile.PAX_FORMAT) -> bytes:
    """Members with exactly these names (each ``package x``), under git's pax header."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=fmt, pax_headers={"comment": COMMIT}) as tf:
        for name in names:
            info = tarfile.TarInfo(name)
            info.size = 10
            tf.addfile(info, io.BytesIO(b"package x\n"))
    return buf.getvalue()


@pytest.mark.parametrize(
    "second",
    [f"./{PREFIX}{KUBELET_GO}", f"{PREFIX}pkg//kubelet/kubelet.go",
     f"{PREFIX}pkg/./kubelet/kubelet.go", f"other/{KUBELET_GO}"],
)  # fmt: skip
def test_a_member_met_twice_under_another_spelling_refuses_the_archive(second):
    with pytest.raises(Refused, match=f"appears twice \\(as '{KUBELET_GO}'\\)"):
        _extract(_raw_archive([PREFIX + KUBELET_GO, second]))


def test_a_nul_in_a_short_member_name_refuses_the_archive():
    with pytest.raises(Refused, match="NUL in the name of member"):
        _extract(_raw_archive_plain(f"{PREFIX}{KUBELET_GO}"))


def _raw_archive_plain(name: str) -> bytes:
    """One ustar member named ``name`` + NUL + ``.orig`` in its header (tarfile reads only
    ``name``), gzipped, after a pax global header with the commit."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT,
                      pax_headers={"comment": COMMIT}) as tf:  # fmt: skip
        info = tarfile.TarInfo(name)
        info.size = 10
        tf.addfile(info, io.BytesIO(b"package x\n"))
    raw = bytearray(buf.getvalue())
    header = raw.index(name.encode())
    raw[header + len(name) + 1 : header + len(name) + 6] = b".orig"
    chksum = sum(raw[header : header + 148]) + 8 * 32 + sum(raw[header + 156 : header + 512])
    raw[header + 148 : header + 156] = b"%06o\0 " % chksum
    return gzip.compress(bytes(raw))


def test_a_nul_in_a_member_name_refuses_the_archive():
    # A tool that stops a name at its NUL reads this member as a second kubelet.go: the archive
    # is not what git made, so none of it is used (as for a member met twice).
    evil = f"{KUBELET_GO}\0.orig"
    with pytest.raises(Refused, match="NUL in the name of member"):
        _extract(archive({**fixture_files(), evil: b"package evil\n"}))


def _gzip_members(data: bytes) -> tuple[bytes, bytes, bytes]:
    """(header, deflate data, trailer) of a one-member gzip file."""
    raw = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    body = raw.compress(data) + raw.flush()
    header = gzip.compress(b"")[:10]
    trailer = zlib.crc32(data).to_bytes(4, "little") + (len(data) & 0xFFFFFFFF).to_bytes(
        4, "little"
    )
    return header, body, trailer


def test_a_bad_gzip_crc_refuses_the_archive():
    tar = gzip.decompress(archive(fixture_files()))
    header, body, trailer = _gzip_members(tar)
    assert _extract(header + body + trailer)[0] == fixture_files()  # the hand-made one is good
    bad = bytes([trailer[0] ^ 1]) + trailer[1:]
    with pytest.raises(Refused, match="does not verify"):
        _extract(header + body + bad)


def test_a_truncated_or_padded_archive_is_refused():
    data = archive(fixture_files())
    with pytest.raises(Refused, match="ends early"):
        _extract(data[:-6])
    with pytest.raises(Refused, match="data after the end"):
        _extract(data + b"trailing")


def test_a_gzip_bomb_stops_at_the_unpacked_cap():
    bomb = archive({**fixture_files(), "zeros.bin": bytes(8 << 20)})
    assert len(bomb) < 64 << 10
    with pytest.raises(Refused, match="unpacks to more than"):
        _extract(bomb, Limits(unpacked=4 << 20))


def test_archive_downloads_are_capped_and_refusals_write_nothing(server, tmp_path):
    server.routes["/a.tar.gz"] = archive({**fixture_files(), "pad.bin": bytes(1 << 20)})
    cache = CacheSource(tmp_path / "c")
    res = download_archive(GO_PATHS, server.base + "/a.tar.gz", commit=COMMIT)
    assert set(res.files) == GO_PATHS and not res.refused
    small = download_archive(
        GO_PATHS, server.base + "/a.tar.gz", commit=COMMIT, limits=Limits(archive=2000)
    )
    assert "over the 2000-byte cap" in small.refused["(archive)"] and not small.files
    assert cache.store(small, lambda rel: "x") == [] and not cache.dir.exists()


def test_fetch_via_archive_checks_the_commit_of_a_mirror(server, tmp_path, monkeypatch):
    server.routes["/other.tar.gz"] = archive(fixture_files(), commit="1" * 40)
    monkeypatch.setenv("XREF_ARCHIVE_URL", server.base + "/other.tar.gz")
    cache = CacheSource(tmp_path / "c")
    res, _ = fetch_into(cache, GO_PATHS, via="archive")
    assert f"not {COMMIT}" in res.refused["(archive)"]
    assert cache.missing(GO_PATHS) == GO_PATHS


# --- fetch, then lock: later fetches are checked ---------------------------------------------


def _cli(capsys, *args) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def test_a_verified_fetch_is_recorded_in_the_lock_and_checks_later_fetches(
    capsys, server, tmp_path, monkeypatch
):
    """The deploy workflow's steps, against a local server: with the lock read from v1.21.4 (as
    committed), fetch (verified by its git blob ids), record the lock (read_from v1.21.3), then
    a later fetch of different bytes is refused."""
    base = serve_tree(server, fixture_files())
    monkeypatch.setenv("XREF_RAW_BASE", base)
    lock = tmp_path / "kubelet.lock.json"
    common = ["--root", str(FIXTURES), "--package", "port", "--lock", str(lock)]
    main(["lock", *common, "--src", str(K8S), "--source-version", "v1.21.4"])
    cache = ["--cache-dir", str(tmp_path / "c")]
    code, out = _cli(capsys, "fetch", *common, *cache)
    assert code == 0, out
    assert "3/3 Go files of v1.21.3 verified by the lock's git blob ids (v1.21.4)" in out
    assert f"at commit {COMMIT[:12]}" in out and "unverified" not in out
    code, out = _cli(capsys, "lock", *common, *cache, "--offline")
    assert code == 0 and "read from v1.21.3" in out, out
    recorded = load_lock(lock)
    assert {f.read_from for f in recorded.files.values()} == {"v1.21.3"}
    assert recorded.expected_hashes("v1.21.3")[KUBELET_GO] == (
        __import__("hashlib").sha256((K8S / KUBELET_GO).read_bytes()).hexdigest()
    )
    # The server now serves other bytes: a fresh fetch refuses them, exit 1.
    server.routes[f"/raw/{KUBELET_GO}"] = (K8S / KUBELET_GO).read_bytes() + b"// evil\n"
    code, out = _cli(capsys, "fetch", *common, "--cache-dir", str(tmp_path / "c2"))
    assert code == 1
    assert f"{KUBELET_GO}: refused: sha256" in out and "differs from the lock's" in out
    assert not (tmp_path / "c2" / "src" / "v1.21.3" / KUBELET_GO).exists()
    # The first cache still holds the verified copy; --force keeps it when refused.
    code, out = _cli(capsys, "fetch", *common, *cache, "--force")
    assert code == 0 and f"{KUBELET_GO}: refused" in out
    assert (tmp_path / "c" / "src" / "v1.21.3" / KUBELET_GO).read_bytes() == (
        K8S / KUBELET_GO
    ).read_bytes()


def _v1214_lock(tmp_path) -> list[str]:
    """The arguments of a fetch with a lock read from v1.21.4, as the committed one is."""
    lock = tmp_path / "kubelet.lock.json"
    common = ["--root", str(FIXTURES), "--package", "port", "--lock", str(lock)]
    assert main(["lock", *common, "--src", str(K8S), "--source-version", "v1.21.4"]) == 0
    return [*common, "--cache-dir", str(tmp_path / "c")]


def test_impostor_files_are_refused_by_the_git_blob_ids_of_v1_21_4(
    capsys, server, tmp_path, monkeypatch
):
    """The lock's ids are v1.21.4's, so the v1.21.3 sha256 check has nothing to check: each
    fetched file is held to the git blob id the lock records, of whichever release."""
    args = _v1214_lock(tmp_path)
    capsys.readouterr()
    impostors = {p: data + b"// not kubelet\n" for p, data in fixture_files().items()}
    monkeypatch.setenv("XREF_RAW_BASE", serve_tree(server, impostors))
    code, out = _cli(capsys, "fetch", *args)
    assert code == 1 and "0/3 Go files of v1.21.3 verified" in out, out
    assert "3/3" not in out and out.count(": refused: git blob id ") == 3
    assert "the v1.21.4 text the lock was read from" in out
    assert not (tmp_path / "c" / "src" / "v1.21.3" / KUBELET_GO).exists()


def test_a_tampered_archive_naming_the_right_commit_is_refused(
    capsys, server, tmp_path, monkeypatch
):
    args = _v1214_lock(tmp_path)
    capsys.readouterr()
    files = {**fixture_files(), KUBELET_GO: fixture_files()[KUBELET_GO] + b"// evil\n"}
    server.routes["/a.tar.gz"] = archive(files)  # git's pax header names COMMIT
    monkeypatch.setenv("XREF_ARCHIVE_URL", server.base + "/a.tar.gz")
    code, out = _cli(capsys, "fetch", *args, "--via", "archive")
    assert code == 1 and "0/3 Go files of v1.21.3 verified" in out, out
    assert "(archive): refused: " in out and "1 members are not the text the lock records" in out
    assert not (tmp_path / "c" / "src" / "v1.21.3").exists()  # not even the two good ones


def test_offline_ok_says_one_line_and_succeeds(capsys, dead_url, tmp_path):
    args = ["--root", str(FIXTURES), "--package", "port", "--lock", str(tmp_path / "none.json")]
    args += ["--cache-dir", str(tmp_path / "c"), "--base-url", dead_url]
    code, out = _cli(capsys, "fetch", *args, "--offline-ok")
    assert code == 0
    assert out.count("\n") == 1 and out.startswith("xref fetch: offline (")
    assert "links to GitHub" in out and "K8S_SRC" in out
    code, out = _cli(capsys, "fetch", *args)
    assert code == 1 and "download failed" in out


def test_fetch_with_k8s_src_names_what_the_directory_holds(capsys, tmp_path):
    args = ["--root", str(FIXTURES), "--package", "port", "--lock", str(tmp_path / "none.json")]
    code, out = _cli(capsys, "fetch", *args, "--src", str(K8S), "--source-version", "v1.21.4")
    assert code == 0
    assert out.startswith("xref fetch: K8S_SRC is set, nothing to fetch: dir ")
    assert "(v1.21.4: as K8S_SRC_VERSION says; not checked" in out
    shutil.copytree(K8S, tmp_path / "k8s")
    (tmp_path / "k8s" / KUBELET_GO).unlink()
    code, out = _cli(capsys, "fetch", *args, "--src", str(tmp_path / "k8s"))
    assert code == 1 and f"{KUBELET_GO}: not in K8S_SRC" in out


def test_fetch_json_says_what_was_checked_against_the_lock(capsys, server, tmp_path):
    base = serve_tree(server, fixture_files())
    lock = tmp_path / "l.json"
    common = ["--root", str(FIXTURES), "--package", "port", "--lock", str(lock)]
    main(["lock", *common, "--src", str(K8S), "--source-version", "v1.21.3"])
    capsys.readouterr()
    code, out = _cli(
        capsys, "fetch", *common, "--cache-dir", str(tmp_path / "c"), "--base-url", base, "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["commit"] == COMMIT
    assert sorted(data["checked_against_lock"]) == sorted(GO_PATHS)
    assert Path(data["cache"]).name == "v1.21.3"
