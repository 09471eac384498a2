"""What every file or URL pod goes through (config/common.py), read after read.

kubelet decodes a manifest again on every read; the port remembers the last text of each source
and copies the pods it made from it. These tests hold it to what a fresh decode gives.
"""

from __future__ import annotations

import io

import pytest

from minikubelet.config.common import try_decode_pods
from minikubelet.sim import klog
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
