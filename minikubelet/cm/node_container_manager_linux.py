"""``kubepods``: the cgroup all pods go under, limited to what the node can give them.

Go: pkg/kubelet/cm/node_container_manager_linux.go

These are methods of Go's ``containerManagerImpl`` defined in this file; Python keeps them in
[`NodeContainerManager`][], which
[`ContainerManagerImpl`][minikubelet.cm.container_manager_linux.ContainerManagerImpl] inherits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minikubelet.cm.helpers_linux import huge_page_limits, milli_cpu_to_shares
from minikubelet.cm.types import CgroupConfig, ResourceConfig
from minikubelet.events import (
    FailedNodeAllocatableEnforcement,
    SuccessfulNodeAllocatableEnforcement,
)
from minikubelet.go import Minute, go, sleep
from minikubelet.k8s_io.api.core.v1 import (
    ObjectReference,
    ResourceCPU,
    ResourceList,
    ResourceMemory,
)
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.client_go.tools.record.event import EventTypeNormal, EventTypeWarning
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.types.constants import NodeAllocatableEnforcementKey

if TYPE_CHECKING:
    from minikubelet.cm.container_manager_linux import ContainerManagerImpl

#: The name of the cgroup every pod goes under.
defaultNodeAllocatableCgroupName = "kubepods"


class NodeContainerManager:
    """The methods of Go's containerManagerImpl defined in node_container_manager_linux.go."""

    def create_node_allocatable_cgroups(self: ContainerManagerImpl) -> None:
        """Make ``kubepods`` with the node's allocatable CPU and memory, unless it exists.

        Go: pkg/kubelet/cm/node_container_manager_linux.go (*containerManagerImpl).createNodeAllocatableCgroups
        """
        node_allocatable = self.internal_capacity
        nc = self.node_config.node_allocatable_config
        if (
            self.node_config.cgroups_per_qos
            and NodeAllocatableEnforcementKey in nc.enforce_node_allocatable
        ):
            node_allocatable = self.get_node_allocatable_internal_absolute()

        cgroup_config = CgroupConfig(
            name=self.cgroup_root, resource_parameters=get_cgroup_config(node_allocatable)
        )
        if self.cgroup_manager.exists(cgroup_config.name):
            return
        try:
            self.cgroup_manager.create(cgroup_config)
        except Exception as err:
            klog.error_s(err, "Failed to create cgroup", cgroupName=self.cgroup_root)
            raise

    def enforce_node_allocatable_cgroups(self: ContainerManagerImpl) -> None:
        """Write node allocatable's limits on ``kubepods`` (in a goroutine that retries every
        minute until it succeeds), with an event on the node either way.

        Go: pkg/kubelet/cm/node_container_manager_linux.go (*containerManagerImpl).enforceNodeAllocatableCgroups
        """
        nc = self.node_config.node_allocatable_config

        node_allocatable = self.internal_capacity
        if (
            self.node_config.cgroups_per_qos
            and NodeAllocatableEnforcementKey in nc.enforce_node_allocatable
        ):
            node_allocatable = self.get_node_allocatable_internal_absolute()

        klog.v(4).info_s("Attempting to enforce Node Allocatable", config=nc)

        cgroup_config = CgroupConfig(
            name=self.cgroup_root, resource_parameters=get_cgroup_config(node_allocatable)
        )

        assert self.node_info is not None
        node_ref = ObjectReference(
            kind="Node",
            name=self.node_info.metadata.name,
            uid=self.node_info.metadata.name,
            namespace="",
        )

        # Go: if len(cm.cgroupRoot) > 0 {
        if len(self.cgroup_root) > 0:

            async def enforce() -> None:
                while True:
                    update_err: Exception | None = None
                    try:
                        self.cgroup_manager.update(cgroup_config)
                    except Exception as err:
                        update_err = err
                    if update_err is None:
                        self.recorder.eventf(
                            node_ref,
                            EventTypeNormal,
                            SuccessfulNodeAllocatableEnforcement,
                            "Updated Node Allocatable limit across pods",
                        )
                        return
                    message = f'Failed to update Node Allocatable Limits "{self.cgroup_root}": {update_err}'
                    self.recorder.eventf(
                        node_ref, EventTypeWarning, FailedNodeAllocatableEnforcement, "%s", message
                    )
                    await sleep(Minute)

            go(enforce, name="enforceNodeAllocatable")
        # Go omitted: if nc.EnforceNodeAllocatable.Has(kubetypes.SystemReservedEnforcementKey) { -- --system-reserved is not ported: no system-reserved cgroup
        # Go omitted: if nc.EnforceNodeAllocatable.Has(kubetypes.KubeReservedEnforcementKey) { -- --kube-reserved is not ported: no kube-reserved cgroup

    def get_node_allocatable_absolute(self: ContainerManagerImpl) -> ResourceList:
        """Node allocatable: the capacity less what is reserved (nothing here).

        Go: pkg/kubelet/cm/node_container_manager_linux.go (*containerManagerImpl).getNodeAllocatableAbsolute
        """
        return self.get_node_allocatable_absolute_impl(self.capacity)

    def get_node_allocatable_absolute_impl(
        self: ContainerManagerImpl, capacity: ResourceList
    ) -> ResourceList:
        """Go: pkg/kubelet/cm/node_container_manager_linux.go (*containerManagerImpl).getNodeAllocatableAbsoluteImpl

        Go subtracts ``--system-reserved`` and ``--kube-reserved``; neither is ported, so each
        value is the capacity's, never below zero.
        """
        result: ResourceList = {}
        for k, v in capacity.items():
            value = v
            if value.sign() < 0:
                value = Quantity.from_int(0, v.format)
            result[k] = value
        return result

    def get_node_allocatable_internal_absolute(self: ContainerManagerImpl) -> ResourceList:
        """Go: pkg/kubelet/cm/node_container_manager_linux.go (*containerManagerImpl).getNodeAllocatableInternalAbsolute"""
        return self.get_node_allocatable_absolute_impl(self.internal_capacity)


def get_cgroup_config(rl: ResourceList | None) -> ResourceConfig | None:
    """The cgroup settings of a resource list: its memory, its CPU as shares, its huge pages.

    Go: pkg/kubelet/cm/node_container_manager_linux.go getCgroupConfig
    """
    if rl is None:
        return None
    rc = ResourceConfig()
    if (q := rl.get(ResourceMemory)) is not None:
        rc.memory = q.value()
    if (q := rl.get(ResourceCPU)) is not None:
        rc.cpu_shares = milli_cpu_to_shares(q.milli_value())
    # Go omitted: if q, exists := rl[pidlimit.PIDs]; exists { -- the simulated machine reports no pid_max, so the capacity has no pids
    rc.huge_page_limit = huge_page_limits(rl)

    return rc
