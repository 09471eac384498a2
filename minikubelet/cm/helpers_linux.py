"""CPU shares and CFS quota from millicores, huge page limits, and a pod's cgroup settings.

Go: pkg/kubelet/cm/helpers_linux.go

[`resource_config_for_pod`][] is what a pod's cgroup gets: ``cpu.shares`` from the CPU the
pod requests, ``cpu.cfs_quota_us`` from the CPU it may use, ``memory.limit_in_bytes`` from its
memory limit, each only where the pod's QoS class says the pod has one.
"""

from __future__ import annotations

from minikubelet.cm.types import ResourceConfig
from minikubelet.k8s_io.api.core.v1 import (
    Pod,
    PodQOSBurstable,
    PodQOSGuaranteed,
    ResourceCPU,
    ResourceList,
    ResourceMemory,
)
from minikubelet.k8s_io.api.core.v1.resource import resource_list_cpu, resource_list_memory
from minikubelet.k8s_io.kubernetes.pkg.api.v1.resource.helpers import pod_requests_and_limits
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.helpers import (
    huge_page_size_from_resource_name,
    is_huge_page_resource_name,
)
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.qos.qos import get_pod_qos

__all__ = [
    "MinShares",
    "QuotaPeriod",
    "get_pod_cgroup_name_suffix",
    "huge_page_limits",
    "milli_cpu_to_quota",
    "milli_cpu_to_shares",
    "resource_config_for_pod",
]

#: The kernel's bounds of cpu.shares.
MinShares = 2
MaxShares = 262144

SharesPerCPU = 1024
MilliCPUToCPU = 1000

#: The CFS period, in microseconds (100 ms), and the smallest quota (1 ms).
QuotaPeriod = 100000
MinQuotaPeriod = 1000

#: Go: podCgroupNamePrefix (pod_container_manager_linux.go): a pod's cgroup is ``pod<uid>``.
podCgroupNamePrefix = "pod"


def milli_cpu_to_quota(milli_cpu: int, period: int) -> int:
    """The CFS quota for a CPU limit: ``milli_cpu`` thousandths of ``period``, at least 1 ms;
    0 (no quota) for no limit.

    Go: pkg/kubelet/cm/helpers_linux.go MilliCPUToQuota

    The CPUCFSQuotaPeriod feature gate is off in v1.21, so the period is always 100 ms.
    """
    if milli_cpu == 0:
        return 0

    # Go: if !utilfeature.DefaultFeatureGate.Enabled(kubefeatures.CPUCFSQuotaPeriod) {
    period = QuotaPeriod

    quota = (milli_cpu * period) // MilliCPUToCPU

    if quota < MinQuotaPeriod:
        quota = MinQuotaPeriod
    return quota


def milli_cpu_to_shares(milli_cpu: int) -> int:
    """``cpu.shares`` for a CPU request: 1024 per CPU, kept between 2 and 262144; 2 for none.

    Go: pkg/kubelet/cm/helpers_linux.go MilliCPUToShares
    """
    if milli_cpu == 0:
        # No request gets the least weight there is, not the kernel's default of 1024.
        return MinShares
    # Multiplying first keeps small requests from rounding to 0.
    shares = (milli_cpu * SharesPerCPU) // MilliCPUToCPU
    if shares < MinShares:
        return MinShares
    if shares > MaxShares:
        return MaxShares
    return shares


def huge_page_limits(resource_list: ResourceList) -> dict[int, int]:
    """Page size in bytes → bytes, from the ``hugepages-<size>`` entries of a resource list.

    Go: pkg/kubelet/cm/helpers_linux.go HugePageLimits
    """
    limits: dict[int, int] = {}
    for k, v in resource_list.items():
        if is_huge_page_resource_name(k):
            page_size = huge_page_size_from_resource_name(k)
            size = page_size.value()
            limits[size] = limits.get(size, 0) + v.value()
    return limits


def resource_config_for_pod(pod: Pod, enforce_cpu_limits: bool, cpu_period: int) -> ResourceConfig:
    """The settings of the pod's cgroup.

    Go: pkg/kubelet/cm/helpers_linux.go ResourceConfigForPod

    Guaranteed: shares, quota, period and memory limit. Burstable: shares, and quota and
    memory limit only when *every* container sets that limit (one container without a limit
    can use the whole node, so the pod cannot be capped). BestEffort: 2 shares and nothing
    else. With ``--cpu-cfs-quota=false`` the quota is -1: no cap.
    """
    # Go: reqs, limits := resource.PodRequestsAndLimits(pod)
    reqs, limits = pod_requests_and_limits(pod)

    # Go: cpuRequests := int64(0)
    cpu_requests = 0
    cpu_limits = 0
    memory_limits = 0
    if (request := reqs.get(ResourceCPU)) is not None:
        cpu_requests = request.milli_value()
    if (limit := limits.get(ResourceCPU)) is not None:
        cpu_limits = limit.milli_value()
    if (limit := limits.get(ResourceMemory)) is not None:
        memory_limits = limit.value()

    # Go: cpuShares := MilliCPUToShares(cpuRequests)
    cpu_shares = milli_cpu_to_shares(cpu_requests)
    cpu_quota = milli_cpu_to_quota(cpu_limits, cpu_period)

    # Go: memoryLimitsDeclared := true
    memory_limits_declared = True
    cpu_limits_declared = True
    huge_page_limit: dict[int, int] = {}
    # Go: for _, container := range pod.Spec.Containers {
    for container in pod.spec.containers:
        # Go: if container.Resources.Limits.Cpu().IsZero() {
        if resource_list_cpu(container.resources.limits).is_zero():
            cpu_limits_declared = False
        if resource_list_memory(container.resources.limits).is_zero():
            memory_limits_declared = False
        container_huge_page_limits = huge_page_limits(container.resources.requests)
        for k, v in container_huge_page_limits.items():
            huge_page_limit[k] = huge_page_limit.get(k, 0) + v

    # Go: if !enforceCPULimits {
    if not enforce_cpu_limits:
        cpu_quota = -1

    # Go: qosClass := v1qos.GetPodQOS(pod)
    qos_class = get_pod_qos(pod)

    # Go: result := &ResourceConfig{}
    result = ResourceConfig()
    # Go: if qosClass == v1.PodQOSGuaranteed {
    if qos_class == PodQOSGuaranteed:
        result.cpu_shares = cpu_shares
        result.cpu_quota = cpu_quota
        result.cpu_period = cpu_period
        result.memory = memory_limits
    elif qos_class == PodQOSBurstable:
        result.cpu_shares = cpu_shares
        if cpu_limits_declared:
            result.cpu_quota = cpu_quota
            result.cpu_period = cpu_period
        if memory_limits_declared:
            result.memory = memory_limits
    else:
        result.cpu_shares = MinShares
    # Go: result.HugePageLimit = hugePageLimits
    result.huge_page_limit = huge_page_limit
    return result


def get_pod_cgroup_name_suffix(pod_uid: str) -> str:
    """The last part of a pod's cgroup name: ``pod<uid>``.

    Go: pkg/kubelet/cm/helpers_linux.go GetPodCgroupNameSuffix
    """
    return podCgroupNamePrefix + pod_uid
