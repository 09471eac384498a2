"""The HTTP source polls a URL (kubelet's --manifest-url), tested against a local server."""

from __future__ import annotations

import io
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from minikubelet import go
from minikubelet.config.config import PodConfig, PodConfigNotificationMode
from minikubelet.config.http import new_source_url
from minikubelet.go import Second
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.types import HTTPSource, PodOperation
from tests.config.helpers import Server, manifest

Incremental = PodConfigNotificationMode.INCREMENTAL

POD_LIST = """\
apiVersion: v1
kind: PodList
items:
- metadata: {name: one}
  spec: {containers: [{name: main, image: busybox:1.33}]}
- metadata: {name: two}
  spec: {containers: [{name: main, image: busybox:1.33}]}
"""


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server()
    s.thread.start()
    yield s
    s.httpd.shutdown()
    s.httpd.server_close()


def poll(server: Server, script, until: float):
    """Run the HTTP source (period 20 s) while ``script`` changes the page; updates and log."""
    seen: list[tuple[float, PodOperation, list[str]]] = []
    log = io.StringIO()

    async def main() -> None:
        config = PodConfig(Incremental, Recorder())
        new_source_url(server.url, {}, "node-1", 20 * Second, config.channel(HTTPSource))
        go.go(script)
        start = go.now()
        async for u in config.updates():
            seen.append((go.now() - start, u.op, [p.metadata.name for p in u.pods]))

    klog.configure(verbosity=4, out=log)
    try:
        go.run(main, seed=5, until=until)
    finally:
        klog.configure(verbosity=0, out=None)
    return seen, log.getvalue()


def test_pods_from_a_url_follow_its_changes(server: Server):
    server.body = manifest("web").encode()

    async def change() -> None:
        await go.sleep(10 * Second)
        server.body = POD_LIST.encode()

    seen, _ = poll(server, change, until=45 * Second)
    # Polled at 0 s, 20 s and 40 s: the page changed between the first two polls only.
    assert seen == [
        (0.0, PodOperation.ADD, ["web-node-1"]),
        (20.0, PodOperation.REMOVE, ["web-node-1"]),
        (20.0, PodOperation.ADD, ["one-node-1", "two-node-1"]),
    ]
    assert server.requests == 3


@pytest.mark.parametrize("chunked", [False, True])
def test_a_body_cut_short_keeps_the_pods_as_go_does(server: Server, chunked: bool):
    # Go (config/http.go extractFromURL): utilio.ReadAtMost returns io.ErrUnexpectedEOF when the
    # body ends before its Content-Length (or its last chunk), and the error is returned before
    # any update is sent. Cut after the first item, the list is still a valid PodList of one pod:
    # taken as whole, it would remove pod "two".
    server.body = POD_LIST.encode()
    cut = POD_LIST.index("- metadata: {name: two}")

    async def break_the_page() -> None:
        await go.sleep(10 * Second)
        server.body = POD_LIST[:cut].encode()
        server.short_by = len(POD_LIST) - cut
        server.chunked = chunked

    seen, log = poll(server, break_the_page, until=45 * Second)
    assert seen == [(0.0, PodOperation.ADD, ["one-node-1", "two-node-1"])]
    assert log.count('"Failed to read pods from URL" err="unexpected EOF"') == 2


def test_errors_are_logged_and_quieten_after_three(server: Server):
    server.status = 404
    seen, log = poll(server, lambda: None, until=130 * Second)
    assert seen == []
    assert log.count('"Failed to read pods from URL"') == 3 + 3  # 3 at V(0), then V(4)
    assert "Dropping verbosity of this message to V(4)" in log
    assert f'err="{server.url}: 404 Not Found"' in log


def test_an_empty_page_marks_the_source_seen_with_no_pods(server: Server):
    seen, log = poll(server, lambda: None, until=1 * Second)
    assert seen == [(0.0, PodOperation.ADD, [])]
    assert f"zero-length data received from {server.url}" in log


def test_an_invalid_pod_names_the_url_and_field(server: Server):
    server.body = manifest("web").replace("name: main", "name: Main_Container").encode()
    seen, log = poll(server, lambda: None, until=1 * Second)
    assert seen == []
    assert f"{server.url}: document 1: spec.containers[0].name: " in log


class Trickle:
    """A server that sends one byte at a time, slowly: of the headers, or of the body."""

    def __init__(self, headers_first: bool) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/pods"
        self.headers_first = headers_first
        self.stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._trickle, args=(conn,), daemon=True).start()

    def _trickle(self, conn: socket.socket) -> None:
        head = b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"
        with conn:
            try:
                conn.recv(65536)
                if self.headers_first:
                    conn.sendall(head)
                    data = b"a" * 100000
                else:
                    data = head
                for i in range(len(data)):
                    if self.stop.wait(0.2):
                        return
                    conn.sendall(data[i : i + 1])
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        self.listener.close()


@pytest.mark.parametrize(
    ("headers_first", "message"),
    [
        (True, "context deadline exceeded (Client.Timeout or context cancellation while reading"),
        (False, "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"),
    ],
)
def test_a_trickling_server_times_out_as_a_whole_request(monkeypatch, headers_first, message):
    # Go: pkg/kubelet/config/http.go NewSourceURL builds http.Client{Timeout: 10 * time.Second},
    # which bounds the whole request; each byte here comes well within a per-read timeout.
    monkeypatch.setattr("minikubelet.config.http.clientTimeout", 1.0)
    server = Trickle(headers_first)
    try:
        started = time.monotonic()
        seen, log = poll(server, lambda: None, until=1 * Second)  # type: ignore[arg-type]
        took = time.monotonic() - started
    finally:
        server.close()
    assert seen == []
    assert '"Failed to read pods from URL"' in log
    assert message in log
    assert took < 5, f"the request was not cut at its 1 s bound: {took:.1f} s"


def start_cli(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "minikubelet.sim.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_run_ends_at_until_while_a_server_trickles():
    server = Trickle(headers_first=True)
    try:
        proc = start_cli("run", "--manifest-url", server.url, "--until", "3s")
        out, err = proc.communicate(timeout=60)
    finally:
        server.close()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "Client.Timeout or context cancellation while reading body" in out + err


def test_ctrl_c_stops_run_while_a_request_is_stuck():
    server = Trickle(headers_first=True)
    try:
        proc = start_cli("run", "--manifest-url", server.url, "--until", "1h", "-v", "1")
        assert proc.stdout is not None
        proc.stdout.readline()  # "Watching URL": the run has started and the request is out
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        started = time.monotonic()
        _out, err = proc.communicate(timeout=30)
        took = time.monotonic() - started
    finally:
        server.close()
    assert proc.returncode == 130
    assert "Traceback" not in err
    assert took < 5, f"Ctrl+C took {took:.1f} s to stop the run"


class Closed:
    """A URL nothing listens on."""

    def __init__(self, scheme: str = "http") -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"{scheme}://127.0.0.1:{port}/pods" if scheme == "http" else f"{scheme}:///pods"


def test_connection_refused_names_the_url():
    closed = Closed()
    seen, log = poll(closed, lambda: None, until=1 * Second)  # type: ignore[arg-type]
    assert seen == []
    assert f'err="Get \\"{closed.url}\\": connection refused"' in log


def test_a_url_of_another_scheme_is_refused_as_go_refuses_it(tmp_path):
    page = tmp_path / "pod.yaml"
    page.write_text(manifest("web"))
    url = page.as_uri()
    seen, log = poll(type("FileURL", (), {"url": url})(), lambda: None, until=1 * Second)  # type: ignore[arg-type]
    assert seen == []
    assert f'err="Get \\"{url}\\": unsupported protocol scheme \\"file\\""' in log


def test_deep_nesting_from_a_url_names_the_url(server: Server):
    server.body = (manifest("web") + "    command: " + "[" * 3000 + "]" * 3000 + "\n").encode()
    seen, log = poll(server, lambda: None, until=1 * Second)
    assert seen == []
    assert f"{server.url}: not valid YAML: exceeded maximum nesting depth" in log
