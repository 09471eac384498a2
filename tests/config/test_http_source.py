"""The HTTP source polls a URL (kubelet's --manifest-url), tested against a local server."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

from minikubelet.config.config import PodConfig, PodConfigNotificationMode
from minikubelet.config.http import new_source_url
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.sim import go, klog
from minikubelet.sim.go import Second
from minikubelet.types import HTTPSource, PodOperation
from tests.config.helpers import Server, manifest

Incremental = PodConfigNotificationMode.PodConfigNotificationIncremental

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
