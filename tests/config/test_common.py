"""What every file or URL pod goes through (config/common.py), read after read.

kubelet decodes a manifest again on every read; the port remembers the last text of each source
and copies the pods it made from it. These tests hold it to what a fresh decode gives.
"""

from __future__ import annotations

import io
from collections import OrderedDict

import pytest

from minikubelet import go
from minikubelet.config import common
from minikubelet.config.common import try_decode_pods
from minikubelet.config.config import PodConfig, PodConfigNotificationMode
from minikubelet.config.file import new_source_file
from minikubelet.go import Second
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.types import FileSource
from tests.config.helpers import manifest

TEXT = manifest("web").encode()


def read(text: bytes = TEXT, source: str = "/etc/kubernetes/manifests/web.yaml", node="node-1"):
    pods, errors = try_decode_pods(text, source, True, node, allow_pod_list=False)
    assert not errors, errors
    (pod,) = pods
    return pod


def test_each_read_of_an_unchanged_manifest_gets_its_own_pod():
    first = read()
    first.metadata.labels["changed"] = "by the kubelet"
    first.spec.containers[0].image = "changed:1"
    first.metadata.annotations.clear()
    second = read()
    assert second is not first
    assert second.metadata.labels == {}
    assert second.spec.containers[0].image == "nginx:1.21"
    assert second.metadata.annotations == {"kubernetes.io/config.hash": second.metadata.uid}
    second.spec.containers.clear()
    assert read().spec.containers[0].name == "main"


def test_an_edited_manifest_is_decoded_again():
    before = read()
    after = read(manifest("web", image="nginx:1.22").encode())
    assert after.spec.containers[0].image == "nginx:1.22"
    assert after.metadata.uid != before.metadata.uid  # the UID is the manifest's hash
    assert read().metadata.uid == before.metadata.uid


@pytest.mark.parametrize(
    ("source", "node"),
    [
        ("/etc/kubernetes/manifests/other.yaml", "node-1"),
        ("/etc/kubernetes/manifests/web.yaml", "node-2"),
    ],
)
def test_the_same_text_from_another_file_or_node_is_another_pod(source, node):
    here = read()
    there = read(source=source, node=node)
    assert there.metadata.uid != here.metadata.uid
    assert there.spec.node_name == node
    assert there.metadata.name == f"web-{node}"


def test_a_bad_manifest_is_reported_on_every_read():
    bad = manifest("web").replace("    image: nginx:1.21\n", "").encode()
    for _ in range(2):
        pods, errors = try_decode_pods(bad, "/m/bad.yaml", True, "node-1", allow_pod_list=False)
        assert pods == []
        assert [e.field for e in errors] == ["spec.containers[0].image"]


def test_at_v5_every_read_logs_its_defaults():
    log = io.StringIO()
    klog.configure(verbosity=5, out=log)
    try:
        read()
        read()
    finally:
        klog.configure(verbosity=0, out=None)
    assert log.getvalue().count('"Generated UID"') == 2
    assert log.getvalue().count('"Set namespace for pod"') == 2


def test_the_memo_keeps_no_more_text_than_its_budget(monkeypatch):
    # Issue #28 item 5: uniquely named big manifests must not pile up in the memo.
    monkeypatch.setattr(common, "_last_decoded", OrderedDict())
    monkeypatch.setattr(common, "_remembered_text", 0)
    monkeypatch.setattr(common, "_MAX_REMEMBERED_TEXT", 64 << 10)
    big = manifest("web", extra="  annotations:\n    pad: '" + "x" * (16 << 10) + "'\n").encode()
    for n in range(20):
        read(big, source=f"/etc/kubernetes/manifests/web-{n}.yaml")
        held = sum(len(text) for text, _ in common._last_decoded.values())
        assert held == common._remembered_text <= 64 << 10
    # The sources read most recently are the ones kept; a forgotten one decodes afresh.
    kept = [key[0] for key in common._last_decoded]
    assert kept[-1] == "/etc/kubernetes/manifests/web-19.yaml" and len(kept) == 3
    assert read(big, source="/etc/kubernetes/manifests/web-0.yaml").metadata.name == "web-node-1"


def test_a_deleted_manifest_leaves_the_memo(tmp_path):
    directory = tmp_path / "manifests"
    directory.mkdir()
    path = directory / "web.yaml"
    path.write_text(manifest("web"), encoding="utf-8")

    async def main() -> None:
        config = PodConfig(PodConfigNotificationMode.INCREMENTAL, Recorder())
        new_source_file(str(directory), "node-1", 20 * Second, config.channel(FileSource))
        await go.sleep(1 * Second)
        assert str(path) in {key[0] for key in common._last_decoded}
        path.unlink()
        await go.sleep(30 * Second)
        assert str(path) not in {key[0] for key in common._last_decoded}

    go.run(main, seed=1, until=40 * Second)
