"""A container's Linux settings in its CRI config: CPU, memory, OOM score, huge pages and
security context.

Go: pkg/kubelet/kuberuntime/kuberuntime_container_linux.go

The methods are in [`LinuxContainerMethods`][], which
[`KubeGenericRuntimeManager`][minikubelet.kuberuntime.kuberuntime_manager.KubeGenericRuntimeManager]
inherits. The runtime writes these numbers into the container's own cgroup, under the pod's
(the sandbox's ``cgroup_parent``): ``cpu.shares`` from the request, ``cpu.cfs_quota_us`` from
the limit, ``memory.limit_in_bytes``, and the OOM score of its processes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minikubelet.container.runtime import ContainerID
from minikubelet.github_com.opencontainers.runc.libcontainer.cgroups.fs.fs import HugePageSizes
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.api.core.v1.resource import resource_list_cpu, resource_list_memory
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.helpers import (
    huge_page_size_from_resource_name,
    huge_page_unit_size_from_byte_size,
    is_huge_page_resource_name,
)
from minikubelet.kuberuntime.helpers_linux import (
    milli_cpu_to_quota,
    milli_cpu_to_shares,
    quotaPeriod,
)
from minikubelet.qos.policy import get_container_oom_score_adjust

if TYPE_CHECKING:
    from minikubelet.kuberuntime.kuberuntime_manager import KubeGenericRuntimeManager


class LinuxContainerMethods:
    """The methods of ``kubeGenericRuntimeManager`` defined in kuberuntime_container_linux.go."""

    def apply_platform_specific_container_config(
        self: KubeGenericRuntimeManager,
        config: runtimeapi.ContainerConfig,
        container: v1.Container,
        pod: v1.Pod,
        uid: int | None,
        username: str,
        ns_target: ContainerID | None,
    ) -> None:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_container_linux.go (*kubeGenericRuntimeManager).applyPlatformSpecificContainerConfig"""
        config.linux = self.generate_linux_container_config(
            container, pod, uid, username, ns_target
        )

    def generate_linux_container_config(
        self: KubeGenericRuntimeManager,
        container: v1.Container,
        pod: v1.Pod,
        uid: int | None,
        username: str,
        ns_target: ContainerID | None,
    ) -> runtimeapi.LinuxContainerConfig:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_container_linux.go (*kubeGenericRuntimeManager).generateLinuxContainerConfig

        The CPUCFSQuotaPeriod feature gate is off in v1.21: the period is always 100 ms.
        """
        # Go: lc := &runtimeapi.LinuxContainerConfig{
        lc = runtimeapi.LinuxContainerConfig(
            resources=runtimeapi.LinuxContainerResources(),
            security_context=self.determine_effective_security_context(
                pod, container, uid, username
            ),
        )
        resources = lc.resources
        security_context = lc.security_context
        assert resources is not None and security_context is not None

        # An ephemeral container that targets another container shares its PID namespace.
        assert security_context.namespace_options is not None
        # Go: if nsTarget != nil && lc.SecurityContext.NamespaceOptions.Pid == runtimeapi.NamespaceMode_CONTAINER {
        if (
            ns_target is not None
            and security_context.namespace_options.pid == runtimeapi.NamespaceMode_CONTAINER
        ):
            security_context.namespace_options.pid = runtimeapi.NamespaceMode_TARGET
            security_context.namespace_options.target_id = ns_target.id

        # Go: cpuRequest := container.Resources.Requests.Cpu()
        cpu_request = resource_list_cpu(container.resources.requests)
        cpu_limit = resource_list_cpu(container.resources.limits)
        memory_limit = resource_list_memory(container.resources.limits).value()
        oom_score_adj = get_container_oom_score_adjust(
            pod, container, self.machine_info.memory.value()
        )
        # A limit without a request: the API server would have set the request to the limit;
        # kubelet does it again for pods made before it did.
        # Go: if cpuRequest.IsZero() && !cpuLimit.IsZero() {
        if cpu_request.is_zero() and not cpu_limit.is_zero():
            cpu_shares = milli_cpu_to_shares(cpu_limit.milli_value())
        else:
            cpu_shares = milli_cpu_to_shares(cpu_request.milli_value())
        # Go: lc.Resources.CpuShares = cpuShares
        resources.cpu_shares = cpu_shares
        if memory_limit != 0:
            resources.memory_limit_in_bytes = memory_limit
        resources.oom_score_adj = oom_score_adj

        # Go: if m.cpuCFSQuota {
        if self.cpu_cfs_quota:
            cpu_period = quotaPeriod
            # Go omitted: if utilfeature.DefaultFeatureGate.Enabled(kubefeatures.CPUCFSQuotaPeriod) { -- an alpha gate, off in v1.21
            cpu_quota = milli_cpu_to_quota(cpu_limit.milli_value(), cpu_period)
            resources.cpu_quota = cpu_quota
            resources.cpu_period = cpu_period

        # Go: lc.Resources.HugepageLimits = GetHugepageLimitsFromResources(container.Resources)
        resources.hugepage_limits = get_hugepage_limits_from_resources(container.resources)

        # Go: return lc
        return lc


def get_hugepage_limits_from_resources(
    resources: v1.ResourceRequirements,
) -> list[runtimeapi.HugepageLimit]:
    """One limit per huge page size of the machine: the container's ``hugepages-<size>``
    limit, or 0.

    Go: pkg/kubelet/kuberuntime/kuberuntime_container_linux.go GetHugepageLimitsFromResources
    """
    hugepage_limits = [runtimeapi.HugepageLimit(page_size=size, limit=0) for size in HugePageSizes]

    required_hugepage_limits: dict[str, int] = {}
    # Go: for resourceObj, amountObj := range resources.Limits {
    for resource_obj, amount_obj in resources.limits.items():
        if not is_huge_page_resource_name(resource_obj):
            continue

        try:
            page_size = huge_page_size_from_resource_name(resource_obj)
        except ValueError as err:
            klog.info_s("Failed to get hugepage size from resource", object=resource_obj, err=err)
            continue

        try:
            size_string = huge_page_unit_size_from_byte_size(page_size.value())
        except ValueError as err:
            klog.info_s("Size is invalid", object=resource_obj, err=err)
            continue
        required_hugepage_limits[size_string] = amount_obj.value()

    for hugepage_limit in hugepage_limits:
        if (limit := required_hugepage_limits.get(hugepage_limit.page_size)) is not None:
            hugepage_limit.limit = limit

    return hugepage_limits
