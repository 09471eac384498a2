"""Fixtures for the tools.xref tests: our own small Go and Python files, a local HTTP server."""

from __future__ import annotations

import functools
import http.server
import shutil
import socket
import threading
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROOT_DIR = Path(__file__).resolve().parents[2]
K8S = FIXTURES / "k8s"  # a fake kubernetes repository root (our own Go, shaped like kubelet)
PORT = "port"  # a fake annotated port package under FIXTURES
BROKEN = "broken"  # every way an annotation can fail

KUBELET_GO = "pkg/kubelet/kubelet.go"
GO_PATHS = {KUBELET_GO, "pkg/kubelet/pod_workers.go", "pkg/kubelet/types/pod_update.go"}


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch, tmp_path):
    """No test reads the user's K8S_SRC or writes the repository's cache."""
    for var in ("K8S_SRC", "K8S_SRC_VERSION", "XREF_RAW_BASE", "XREF_ARCHIVE_URL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("XREF_CACHE_DIR", str(tmp_path / "xref-cache"))
    monkeypatch.setenv("XREF_TIMEOUT", "5")


@pytest.fixture
def k8s_copy(tmp_path) -> Path:
    """A writable copy of the fake kubernetes tree."""
    dest = tmp_path / "k8s"
    shutil.copytree(K8S, dest)
    return dest


@pytest.fixture
def port_root(tmp_path) -> Path:
    """A writable copy of the fixture root (port/ and broken/ packages)."""
    dest = tmp_path / "root"
    shutil.copytree(FIXTURES, dest, ignore=shutil.ignore_patterns("k8s", "gotree"))
    return dest


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def http_dir(tmp_path):
    """Serve a directory on 127.0.0.1; yields (directory, base URL)."""
    root = tmp_path / "www"
    root.mkdir()
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def dead_url() -> str:
    """A URL on a local port nobody listens on: connections are refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"
