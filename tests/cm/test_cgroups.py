"""The container manager's cgroups: names per driver, a pod's settings, the QoS tree.

Go (v1.21.4 lines): pkg/kubelet/cm/helpers_linux.go L55-108 (MilliCPUToQuota,
MilliCPUToShares), L118-191 (ResourceConfigForPod); pkg/kubelet/cm/cgroup_manager_linux.go
L61-131 (NewCgroupName, ToSystemd, ToCgroupfs, the parsers); pkg/kubelet/cm/
pod_container_manager_linux.go L77-128 (EnsureExists, GetPodContainerName), L185-203
(Destroy), L236-296 (GetAllPodsFromCgroups); pkg/kubelet/cm/qos_container_manager_linux.go
L80-147 (Start), L168-193 (setCPUCgroupConfig), L269-331 (UpdateCgroups).
"""

from __future__ import annotations

import pytest

from minikubelet import go
from minikubelet.cm.cgroup_manager_linux import (
    RootCgroupName,
    new_cgroup_name,
    parse_cgroupfs_to_cgroup_name,
    parse_systemd_to_cgroup_name,
)
from minikubelet.cm.container_manager import NodeConfig
from minikubelet.cm.container_manager_linux import new_container_manager
from minikubelet.cm.helpers_linux import (
    milli_cpu_to_quota,
    milli_cpu_to_shares,
    resource_config_for_pod,
)
from minikubelet.cm.types import CgroupName
from minikubelet.config.manifest import pod_from_dict
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.sim.cgroup_fs import SimCgroupFS
from minikubelet.sim.node import new_node


def pod(name: str, *containers: dict, init: tuple[dict, ...] = ()):
    def container(i: int, resources: dict) -> dict:
        return {"name": f"c{i}", "image": "busybox:1.34", "resources": resources}

    return pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": name, "namespace": "default", "uid": f"uid-{name}"},
            "spec": {
                "containers": [container(i, r) for i, r in enumerate(containers)],
                "initContainers": [container(10 + i, r) for i, r in enumerate(init)],
            },
        }
    )


GUARANTEED = {
    "requests": {"cpu": "500m", "memory": "256Mi"},
    "limits": {"cpu": "500m", "memory": "256Mi"},
}
BURSTABLE = {"requests": {"cpu": "250m", "memory": "64Mi"}, "limits": {"memory": "128Mi"}}


@pytest.mark.parametrize(
    ("milli", "shares"), [(0, 2), (1, 2), (2, 2), (250, 256), (1000, 1024), (300_000, 262144)]
)
def test_cpu_shares_are_1024_per_cpu_within_the_kernels_bounds(milli, shares):
    assert milli_cpu_to_shares(milli) == shares


@pytest.mark.parametrize(("milli", "quota"), [(0, 0), (5, 1000), (250, 25000), (1500, 150000)])
def test_cfs_quota_is_the_limits_share_of_100ms_and_at_least_1ms(milli, quota):
    assert milli_cpu_to_quota(milli, 50000) == quota  # the period gate is off: always 100 ms


def test_a_guaranteed_pod_gets_shares_quota_period_and_memory():
    rc = resource_config_for_pod(pod("g", GUARANTEED), True, 100000)
    assert (rc.cpu_shares, rc.cpu_quota, rc.cpu_period, rc.memory) == (
        512,
        50000,
        100000,
        256 << 20,
    )


def test_a_burstable_pod_is_capped_only_where_every_container_sets_the_limit():
    rc = resource_config_for_pod(pod("b", BURSTABLE), True, 100000)
    assert (rc.cpu_shares, rc.cpu_quota, rc.cpu_period, rc.memory) == (256, None, None, 128 << 20)
    # A second container without a memory limit: the pod's memory cannot be capped.
    cpu_limited = {"requests": {"cpu": "100m"}, "limits": {"cpu": "200m"}}
    rc = resource_config_for_pod(pod("b2", BURSTABLE, cpu_limited), True, 100000)
    assert (rc.cpu_shares, rc.cpu_quota, rc.memory) == (358, None, None)
    rc = resource_config_for_pod(pod("b3", cpu_limited, cpu_limited), True, 100000)
    assert (rc.cpu_shares, rc.cpu_quota, rc.cpu_period, rc.memory) == (204, 40000, 100000, None)


def test_a_besteffort_pod_gets_two_shares_and_no_limit():
    rc = resource_config_for_pod(pod("be", {}), True, 100000)
    assert (rc.cpu_shares, rc.cpu_quota, rc.memory) == (2, None, None)


def test_without_cfs_quota_the_cpu_limit_is_not_enforced():
    rc = resource_config_for_pod(pod("g", GUARANTEED), False, 100000)
    assert rc.cpu_quota == -1


def test_an_init_container_raises_the_pods_request():
    big_init = {"requests": {"cpu": "2"}}
    rc = resource_config_for_pod(pod("i", BURSTABLE, init=(big_init,)), True, 100000)
    assert rc.cpu_shares == 2048


def test_hugepage_requests_add_up_per_page_size():
    hp = {
        "requests": {"hugepages-2Mi": "4Mi", "memory": "8Mi"},
        "limits": {"hugepages-2Mi": "4Mi", "memory": "8Mi"},
    }
    rc = resource_config_for_pod(pod("h", hp, hp), True, 100000)
    assert rc.huge_page_limit == {2 << 20: 8 << 20}


def test_names_per_driver_and_back():
    name = new_cgroup_name(RootCgroupName, "kubepods", "burstable", "pod12-34")
    assert name.to_cgroupfs() == "/kubepods/burstable/pod12-34"
    assert name.to_systemd() == (
        "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod12_34.slice"
    )
    assert parse_cgroupfs_to_cgroup_name("/kubepods/burstable/pod12-34") == name
    assert parse_systemd_to_cgroup_name(name.to_systemd()) == name
    assert parse_cgroupfs_to_cgroup_name("/") == RootCgroupName
    assert RootCgroupName.to_systemd() == "/"
    assert str(name) == "[kubepods burstable pod12-34]"  # as klog prints Go's []string


def test_an_underscore_in_a_name_panics():
    with pytest.raises(go.Panic, match="invalid character"):
        new_cgroup_name(RootCgroupName, "kube_pods")


def started(driver: str = "cgroupfs", cgroups_per_qos: bool = True, active=()):
    """A container manager started on a fresh tree, inside a run (it starts a goroutine)."""
    fs = SimCgroupFS()
    capacity = {"cpu": Quantity.parse("4"), "memory": Quantity.parse("8Gi")}
    out = {}

    async def main():
        cm = new_container_manager(
            fs,
            capacity,
            NodeConfig(cgroup_driver=driver, cgroups_per_qos=cgroups_per_qos),
            Recorder(),
        )
        cm.start(new_node("node-1"), lambda: list(active))
        out["cm"] = cm

    go.run(main, until=0.5)
    return fs, out["cm"]


def test_start_makes_kubepods_and_the_two_qos_cgroups():
    fs, cm = started()
    assert sorted(fs.cgroups) == ["/", "/kubepods", "/kubepods/besteffort", "/kubepods/burstable"]
    # kubepods: the node's allocatable CPU (as shares) and memory.
    assert fs.cgroups["/kubepods"]["cpu.shares"] == 4096
    assert fs.cgroups["/kubepods"]["memory.limit_in_bytes"] == 8 << 30
    # BestEffort always weighs 2 shares; huge pages are not capped at the QoS level.
    assert fs.cgroups["/kubepods/besteffort"]["cpu.shares"] == 2
    assert fs.cgroups["/kubepods/burstable"]["hugetlb.2MB.limit_in_bytes"] == 1 << 62
    assert cm.get_pod_cgroup_root() == "/kubepods"


def test_start_with_the_systemd_driver_makes_slices():
    fs, cm = started("systemd")
    assert "/kubepods.slice/kubepods-burstable.slice" in fs.cgroups
    assert "/kubepods.slice/kubepods-besteffort.slice" in fs.cgroups
    assert cm.get_pod_cgroup_root() == "/kubepods.slice"


def test_without_cgroups_per_qos_there_is_no_tree_and_every_pod_cgroup_exists():
    fs, cm = started(cgroups_per_qos=False)
    assert sorted(fs.cgroups) == ["/"]
    pcm = cm.new_pod_container_manager()
    assert pcm.exists(pod("g", GUARANTEED))
    assert pcm.get_pod_container_name(pod("g", GUARANTEED)) == (CgroupName(()), "")


def test_each_class_has_its_parent_and_the_pod_its_settings():
    fs, cm = started()
    pcm = cm.new_pod_container_manager()
    for p, parent in (
        (pod("g", GUARANTEED), "/kubepods"),
        (pod("b", BURSTABLE), "/kubepods/burstable"),
        (pod("be", {}), "/kubepods/besteffort"),
    ):
        assert not pcm.exists(p)
        pcm.ensure_exists(p)
        assert pcm.exists(p)
        assert pcm.get_pod_container_name(p)[1] == f"{parent}/pod{p.metadata.uid}"
    assert fs.cgroups["/kubepods/poduid-g"]["cpu.cfs_quota_us"] == 50000
    assert fs.cgroups["/kubepods/burstable/poduid-b"]["cpu.shares"] == 256
    assert "cpu.cfs_quota_us" not in fs.cgroups["/kubepods/burstable/poduid-b"]
    assert fs.cgroups["/kubepods/besteffort/poduid-be"]["cpu.shares"] == 2
    # Found again from the tree, by UID, and removed.
    found = pcm.get_all_pods_from_cgroups()
    assert found == {
        "uid-g": CgroupName(("kubepods", "poduid-g")),
        "uid-b": CgroupName(("kubepods", "burstable", "poduid-b")),
        "uid-be": CgroupName(("kubepods", "besteffort", "poduid-be")),
    }
    assert pcm.is_pod_cgroup("/kubepods/burstable/poduid-b") == (True, "uid-b")
    assert pcm.is_pod_cgroup("/kubepods/burstable") == (False, "")
    pcm.destroy(found["uid-b"])
    assert not pcm.exists(pod("b", BURSTABLE))
    assert "/kubepods/burstable" in fs.cgroups


def test_ensure_exists_writes_a_pods_limits_once():
    fs, cm = started()
    pcm = cm.new_pod_container_manager()
    pcm.ensure_exists(pod("b", BURSTABLE))
    fs.cgroups["/kubepods/burstable/poduid-b"]["cpu.shares"] = 999
    pcm.ensure_exists(pod("b", BURSTABLE))
    assert fs.cgroups["/kubepods/burstable/poduid-b"]["cpu.shares"] == 999


def test_the_burstable_cgroup_weighs_what_its_pods_request():
    active = [pod("b", BURSTABLE), pod("b2", {"requests": {"cpu": "750m"}}), pod("g", GUARANTEED)]
    fs, cm = started(active=active)
    cm.update_qos_cgroups()
    assert fs.cgroups["/kubepods/burstable"]["cpu.shares"] == 1024  # 250m + 750m
    assert fs.cgroups["/kubepods/besteffort"]["cpu.shares"] == 2


def test_reduce_cpu_limits_leaves_the_least_weight():
    fs, cm = started()
    pcm = cm.new_pod_container_manager()
    pcm.ensure_exists(pod("g", GUARANTEED))
    pcm.reduce_cpu_limits(CgroupName(("kubepods", "poduid-g")))
    assert fs.cgroups["/kubepods/poduid-g"]["cpu.shares"] == 2


def test_the_burstable_weight_remembered_between_updates_is_the_full_sum():
    """Ours (set_cpu_cgroup_config's memo): whatever the lists, the weight is a fresh sum's."""
    a, b, c = pod("a", BURSTABLE), pod("b", {"requests": {"cpu": "1"}}), pod("g", GUARANTEED)
    active: list = []
    fs, cm = started(active=active)

    def fresh(pods) -> int:
        return milli_cpu_to_shares(
            sum(p.spec.containers[0].resources.cpu_millis() for p in pods if p is not c)
        )

    for pods in ([a], [a, c], [a, c, b], [a, b], [b], [], [b, a, c]):
        active[:] = pods
        cm.update_qos_cgroups()
        assert fs.cgroups["/kubepods/burstable"]["cpu.shares"] == fresh(pods)
