"""syncPod makes each pod's cgroup before the runtime; housekeeping removes it after the pod.

Go (v1.21.4 lines): pkg/kubelet/kubelet.go L1364-1386 (initializeRuntimeDependentModules
starts the container manager), L1611-1658 (syncPod: pcm.Exists, UpdateQOSCgroups,
EnsureExists); pkg/kubelet/kubelet_pods.go L848-865 (killPod updates the QoS cgroups),
L964-996 (PodResourcesAreReclaimed waits for the pod cgroup), L1067-1149 (HandlePodCleanups
lists the pod cgroups first and removes the orphans last), L1989-2027
(cleanupOrphanedPodCgroups).
"""

from __future__ import annotations

import re

from minikubelet.config.manifest import pod_from_dict
from tests.e2e.harness import run_kubelet
from tests.test_cli import EXAMPLES, run_cli


def pod(name: str, resources: dict, restart: str = "Always", scenario: str = "forever"):
    return pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": name,
                "namespace": "default",
                "uid": f"uid-{name}",
                "annotations": {"minikubelet.dev/scenario": f"c: {{runFor: {scenario}}}"},
            },
            "spec": {
                "restartPolicy": restart,
                "containers": [{"name": "c", "image": "busybox:1.34", "resources": resources}],
            },
        }
    )


GUARANTEED = {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "1", "memory": "1Gi"}}
BURSTABLE = {"requests": {"cpu": "500m"}}


def test_each_running_pod_has_its_cgroup_under_its_class():
    run = run_kubelet(pods=[pod("g", GUARANTEED), pod("b", BURSTABLE), pod("be", {})], until=5)
    assert {n: run.phase(n) for n in ("g", "b", "be")} == dict.fromkeys(("g", "b", "be"), "Running")
    assert run.cgroups["/kubepods/poduid-g"]["cpu.cfs_quota_us"] == 100000
    assert run.cgroups["/kubepods/poduid-g"]["memory.limit_in_bytes"] == 1 << 30
    assert run.cgroups["/kubepods/burstable/poduid-b"]["cpu.shares"] == 512
    assert run.cgroups["/kubepods/besteffort/poduid-be"]["cpu.shares"] == 2
    # The Burstable cgroup was reweighed before b's cgroup was made: it counts b's request.
    assert run.cgroups["/kubepods/burstable"]["cpu.shares"] == 512


def test_a_removed_pods_cgroup_goes_at_the_next_housekeeping_after_its_kill():
    run = run_kubelet(pods=[pod("b", BURSTABLE)], changes=[(3.0, [])], until=8, verbosity=3)
    assert "/kubepods/burstable/poduid-b" not in run.cgroups
    assert "/kubepods/burstable" in run.cgroups
    # Emptied of b, the Burstable cgroup weighs the least again (killPod updates it).
    assert run.cgroups["/kubepods/burstable"]["cpu.shares"] == 2
    lines = run.log.splitlines()
    killed = next(i for i, s in enumerate(lines) if '"Killing unwanted pod" podName="b"' in s)
    orphan = next(
        i
        for i, s in enumerate(lines)
        if '"Orphaned pod found, removing pod cgroups" podUID="uid-b"' in s
    )
    assert killed < orphan


def test_a_terminated_pod_gets_no_cgroup_after_its_end():
    # Never restarted, the pod ends; its cgroup is removed and syncPod does not make it again.
    run = run_kubelet(pods=[pod("once", BURSTABLE, "Never", "2s")], until=12, verbosity=3)
    assert run.phase("once") == "Succeeded"
    assert "/kubepods/burstable/poduid-once" not in run.cgroups
    assert run.log.count('"Orphaned pod found, removing pod cgroups" podUID="uid-once"') == 1


def test_an_api_delete_completes_only_after_the_pod_cgroup_is_gone():
    # web is deleted at 10 s; its last container has stopped at 20 s.
    code, out = run_cli(
        "--api-script", EXAMPLES + "/api/deletion.yaml", "--until", "35s", "-v", "3"
    )
    assert code == 0
    lines = out.splitlines()

    def at(pattern: str) -> int:
        return next(i for i, s in enumerate(lines) if re.search(pattern, s))

    waits = at(
        r'"Pod is terminated, but pod cgroup sandbox has not been cleaned up" pod="shop/web"'
    )
    removed = at(r'"Orphaned pod found, removing pod cgroups"')
    assert "shop/web" in lines[at(r'"SyncLoop DELETE"')]
    gone = at(r'"Pod fully terminated and removed from etcd" pod="shop/web"')
    assert waits < removed < gone


def test_the_remembered_active_pods_are_the_ones_a_fresh_filter_gives():
    """Ours (filter_out_terminated_pods' memo, asked before each pod cgroup): the same list as
    filtering every pod again, after pods ran, ended and were removed."""
    seen = {}

    def setup(kl):
        seen["kl"] = kl

    pods = [pod("a", BURSTABLE, "Never", "2s"), pod("b", BURSTABLE), pod("c", {}, "Never", "4s")]
    run_kubelet(pods=pods, changes=[(6.0, pods[1:])], until=9, setup=setup)
    kl = seen["kl"]
    all_pods = kl.pod_manager.get_pods()
    remembered = kl.get_active_pods()
    assert remembered == [p for p in all_pods if not kl.pod_is_terminated(p)]
    assert [p.metadata.name for p in remembered] == ["b"]
