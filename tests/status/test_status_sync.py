"""The status manager's sync with the API server (the fake one of --api-script).

Go (v1.21.4 lines): pkg/kubelet/status/status_manager.go L148-180 (Start), L502-546
(syncBatch), L549-617 (syncPod), L621-638 (needsUpdate, canBeDeleted), L649-679
(needsReconcile), L738-753 (mergePodStatus); pkg/util/pod/pod.go L33-70 (PatchPodStatus).
"""

from __future__ import annotations

import json

from minikubelet import go
from minikubelet.k8s_io.api.core.v1 import (
    Container,
    Pod,
    PodCondition,
    PodPhase,
    PodQOSBestEffort,
    PodSpec,
    PodStatus,
)
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.k8s_io.kubernetes.pkg.util.pod.pod import apply_merge_patch, create_merge_patch
from minikubelet.pod.mirror_client import BasicMirrorClient
from minikubelet.pod.pod_manager import BasicManager
from minikubelet.sim.fake_apiserver import FakeAPIServer
from minikubelet.status.status_manager import merge_pod_status, new_manager
from tests.kubelet.test_sync_loop import run as run_logged


class Reclaimed:
    """A PodDeletionSafetyProvider that says yes once told so."""

    def __init__(self) -> None:
        self.reclaimed = False

    def pod_resources_are_reclaimed(self, pod, status) -> bool:
        return self.reclaimed


def api_pod(server: FakeAPIServer, name: str = "web") -> Pod:
    return server.create_pod(
        Pod(
            metadata=ObjectMeta(name=name, namespace="shop"),
            spec=PodSpec(node_name="node-1", containers=[Container(name="c", image="x:1")]),
        )
    )


def run(main) -> str:
    return run_logged(main, verbosity=3, until=30)


def setup(server: FakeAPIServer, *names: str, safety=None):
    pods = [api_pod(server, n) for n in names]
    pm = BasicManager(BasicMirrorClient())
    for p in pods:
        pm.add_pod(p)
    return pods, pm, new_manager(server, pm, safety or Reclaimed())


def test_a_new_status_is_patched_into_the_api_server_at_once():
    server = FakeAPIServer()
    seen = {}

    async def main():
        (pod,), _, m = setup(server, "web")
        seen.update(pod=pod, m=m)
        m.start()
        await m.set_pod_status(
            pod, PodStatus(phase=PodPhase.RUNNING, pod_ip="10.88.0.2", qos_class=PodQOSBestEffort)
        )
        await go.sleep(1)
        # The same status again: no new version, nothing sent.
        await m.set_pod_status(
            pod, PodStatus(phase=PodPhase.RUNNING, pod_ip="10.88.0.2", qos_class=PodQOSBestEffort)
        )
        await go.sleep(1)

    log = run(main)
    pod, m = seen["pod"], seen["m"]
    stored = server.pods["shop/web"]
    assert stored.status.phase == PodPhase.RUNNING and stored.status.pod_ip == "10.88.0.2"
    assert '"Starting to sync pod status with apiserver"' in log
    patch = json.dumps(
        {
            "metadata": {"uid": pod.metadata.uid},
            "status": {
                "phase": "Running",
                "podIP": "10.88.0.2",
                "startTime": "2021-07-15T00:00:00Z",
            },
        },
        separators=(",", ":"),
    ).encode()
    # klog of v1.21 prints a []byte as its numbers.
    assert f'"Patch status for pod" pod="shop/web" patchBytes=[{" ".join(map(str, patch))}]' in log
    assert log.count('"Status for pod updated successfully" pod="shop/web" statusVersion=1') == 1
    assert "statusVersion=2" not in log
    assert m.api_status_versions == {pod.metadata.uid: 1}


def test_a_pod_gone_from_the_server_is_skipped_and_a_deleted_one_removed_when_reclaimed():
    server = FakeAPIServer()
    safety = Reclaimed()
    seen = {}

    async def main():
        (pod, gone), _, m = setup(server, "web", "gone", safety=safety)
        seen.update(pod=pod, m=m)
        server.delete_pod("shop", "gone")
        m.start()
        await m.set_pod_status(gone, PodStatus(phase=PodPhase.RUNNING))
        await go.sleep(1)
        # A graceful delete: the pod stays in the server until kubelet is done with it.
        pod.metadata.deletion_timestamp = go.now().unix()
        server.update_pod(pod)
        await m.set_pod_status(pod, PodStatus(phase=PodPhase.SUCCEEDED))
        await go.sleep(1)
        assert "shop/web" in server.pods
        safety.reclaimed = True
        await go.sleep(11)  # the next syncBatch sees that it can be deleted now

    log = run(main)
    assert '"Pod does not exist on the server" podUID=' in log
    assert '"Pod fully terminated and removed from etcd" pod="shop/web"' in log
    assert "shop/web" not in server.pods
    assert seen["pod"].metadata.uid not in seen["m"].pod_statuses


def test_sync_batch_reconciles_a_status_the_api_server_disagrees_with():
    server = FakeAPIServer()

    async def main():
        (pod,), pm, m = setup(server, "web")
        m.start()
        await m.set_pod_status(pod, PodStatus(phase=PodPhase.RUNNING))
        await go.sleep(1)
        # Someone else writes another phase; kubelet's pod manager sees it.
        data = server.get_pod("shop", "web")
        data.status.phase = PodPhase.PENDING
        server.pods["shop/web"] = data
        pm.update_pod(data)
        await go.sleep(10)

    log = run(main)
    assert (
        '"Pod status is inconsistent with cached status for pod, a reconciliation should be '
        'triggered" pod="shop/web" statusDiff="{\\"phase\\":\\"Running\\"}"'
    ) in log
    assert server.pods["shop/web"].status.phase == PodPhase.RUNNING


def test_merge_keeps_conditions_kubelet_does_not_own():
    old = PodStatus(conditions=[PodCondition(type="example.com/Gate", status="True")])
    new = PodStatus(conditions=[PodCondition(type="Ready", status="False")])
    assert [c.type for c in merge_pod_status(old, new).conditions] == ["example.com/Gate", "Ready"]


def test_merge_patches_round_trip():
    old = {"a": 1, "b": {"c": 2, "d": 3}, "e": [1, 2]}
    new = {"a": 1, "b": {"c": 4}, "e": [1], "f": "x"}
    patch = create_merge_patch(old, new)
    assert patch == {"b": {"c": 4, "d": None}, "e": [1], "f": "x"}
    assert apply_merge_patch(old, patch) == new
