"""A container's Linux settings in its CRI config, and the OOM score policy.

Go (v1.21.4 lines): pkg/kubelet/kuberuntime/kuberuntime_container_linux.go L41-118
(generateLinuxContainerConfig, GetHugepageLimitsFromResources); pkg/kubelet/qos/policy.go
L40-75 (GetContainerOOMScoreAdjust); pkg/kubelet/kuberuntime/security_context.go L27-80.
The whole config is also diffed against real kubelet's (tests/oracle, the qos-* scenarios).
"""

from __future__ import annotations

import pytest

from minikubelet.config.manifest import pod_from_dict
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.qos.policy import get_container_oom_score_adjust
from minikubelet.sim.container_runtime import new_fake_runtime

GI = 1 << 30


def pod(resources: dict, annotations: dict | None = None, priority: int | None = None):
    return pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": "p",
                "namespace": "default",
                "uid": "u",
                "annotations": annotations or {},
            },
            "spec": {
                **({"priority": priority} if priority is not None else {}),
                "containers": [{"name": "c", "image": "busybox:1.34", "resources": resources}],
            },
        }
    )


@pytest.mark.parametrize(
    ("resources", "score"),
    [
        (
            {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "1", "memory": "1Gi"}},
            -997,
        ),
        ({}, 1000),
        ({"requests": {"memory": "2Gi"}}, 750),  # 1000 - 1000*2/8
        ({"requests": {"cpu": "1"}}, 999),  # no memory request: 1000, kept below BestEffort's
        ({"requests": {"memory": "8Gi"}}, 3),  # the whole node: kept above Guaranteed's
        ({"requests": {"memory": "100Mi"}}, 988),  # truncated, as Go's integer division
    ],
)
def test_oom_score_by_qos_class_and_memory_request(resources, score):
    p = pod(resources)
    assert get_container_oom_score_adjust(p, p.spec.containers[0], 8 * GI) == score


def test_a_critical_pod_is_the_last_to_be_killed():
    p = pod({}, priority=2000001000)  # system-node-critical's priority
    assert get_container_oom_score_adjust(p, p.spec.containers[0], 8 * GI) == -997


def linux(p, cfs_quota: bool = True) -> runtimeapi.LinuxContainerConfig:
    m = new_fake_runtime().manager
    m.cpu_cfs_quota = cfs_quota
    return m.generate_linux_container_config(p.spec.containers[0], p, 0, "", None)


def test_resources_follow_the_requests_and_limits():
    r = linux(
        pod(
            {
                "requests": {"cpu": "250m"},
                "limits": {"cpu": "1500m", "memory": "128Mi", "hugepages-2Mi": "4Mi"},
            }
        )
    ).resources
    assert (r.cpu_shares, r.cpu_quota, r.cpu_period, r.memory_limit_in_bytes) == (
        256,
        150000,
        100000,
        128 << 20,
    )
    assert [(h.page_size, h.limit) for h in r.hugepage_limits] == [("2MB", 4 << 20), ("1GB", 0)]


def test_a_limit_without_a_request_gives_the_shares_and_no_quota_without_cfs():
    p = pod({"limits": {"cpu": "500m"}})
    p.spec.containers[0].resources.requests.clear()  # as a pod made before requests defaulted
    r = linux(p, cfs_quota=False).resources
    assert (r.cpu_shares, r.cpu_quota, r.cpu_period) == (512, 0, 0)


def test_the_security_context_has_the_defaults_and_the_annotations():
    sc = linux(
        pod(
            {},
            {
                "container.seccomp.security.alpha.kubernetes.io/c": "localhost/audit.json",
                "container.apparmor.security.beta.kubernetes.io/c": "runtime/default",
            },
        )
    ).security_context
    assert sc.seccomp_profile_path == "localhost//var/lib/kubelet/seccomp/audit.json"
    assert sc.seccomp.profile_type == runtimeapi.SecurityProfile_Unconfined
    assert sc.apparmor_profile == "runtime/default"
    assert sc.namespace_options.pid == runtimeapi.NamespaceMode_CONTAINER
    assert "/proc/kcore" in sc.masked_paths and "/proc/sys" in sc.readonly_paths
    assert sc.run_as_user.value == 0


def test_an_ephemeral_container_targets_another_containers_pid_namespace():
    from minikubelet.container.runtime import ContainerID

    p = pod({})
    m = new_fake_runtime().manager
    target = ContainerID("fake", "c1")
    sc = m.generate_linux_container_config(
        p.spec.containers[0], p, None, "nobody", target
    ).security_context
    assert (sc.namespace_options.pid, sc.namespace_options.target_id) == (
        runtimeapi.NamespaceMode_TARGET,
        "c1",
    )
    assert (sc.run_as_user, sc.run_as_username) == (None, "nobody")
