"""The container manager: it owns the node's cgroup tree for pods.

Go: pkg/kubelet/cm/container_manager_linux.go

Made before the Kubelet ([`new_container_manager`][]) and started once the runtime is up
([`ContainerManagerImpl.start`][]), it makes ``kubepods`` and the QoS cgroups; kubelet then
asks it for a [`PodContainerManager`][minikubelet.cm.types.PodContainerManager] whenever it
touches a pod's cgroup. Left out of Go's manager: the CPU, memory, device and topology
managers (their v1.21 defaults do nothing for a pod), system and kubelet cgroups, kernel
tunables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minikubelet.cm.cgroup_manager_linux import (
    new_cgroup_manager,
    new_cgroup_name,
    parse_cgroupfs_to_cgroup_name,
)
from minikubelet.cm.container_manager import NodeConfig
from minikubelet.cm.node_container_manager_linux import (
    NodeContainerManager,
    defaultNodeAllocatableCgroupName,
)
from minikubelet.cm.pod_container_manager_linux import (
    PodContainerManagerImpl,
    PodContainerManagerNoop,
)
from minikubelet.cm.qos_container_manager_linux import new_qos_container_manager
from minikubelet.cm.types import CgroupFS, CgroupManager, QOSContainersInfo
from minikubelet.go import Microsecond
from minikubelet.k8s_io.api.core.v1 import Node, Pod, ResourceList
from minikubelet.k8s_io.klog.v2 import klog

__all__ = ["ContainerManagerImpl", "new_container_manager"]


class ContainerManagerImpl(NodeContainerManager):
    """Go: pkg/kubelet/cm/container_manager_linux.go type containerManagerImpl"""

    def __init__(
        self,
        node_config: NodeConfig,
        subsystems: CgroupFS,
        cgroup_manager: CgroupManager,
        capacity: ResourceList,
        internal_capacity: ResourceList,
        cgroup_root: Any,
        recorder: Any,
        qos_container_manager: Any,
    ) -> None:
        self.node_config = node_config
        #: Where Go keeps the mounted controllers: here the node's simulated cgroup tree.
        self.subsystems = subsystems
        self.cgroup_manager = cgroup_manager
        self.capacity = capacity
        self.internal_capacity = internal_capacity
        #: The cgroup all pods go under (``kubepods`` below --cgroup-root).
        self.cgroup_root = cgroup_root
        self.recorder = recorder
        self.qos_container_manager = qos_container_manager
        self.node_info: Node | None = None

    def new_pod_container_manager(self) -> PodContainerManagerImpl | PodContainerManagerNoop:
        """The manager of pod cgroups, or one that does nothing with ``--cgroups-per-qos=false``.

        Go: pkg/kubelet/cm/container_manager_linux.go (*containerManagerImpl).NewPodContainerManager
        """
        if self.node_config.cgroups_per_qos:
            return PodContainerManagerImpl(
                qos_containers_info=self.get_qos_containers_info(),
                subsystems=self.subsystems,
                cgroup_manager=self.cgroup_manager,
                pod_pids_limit=self.node_config.experimental_pod_pids_limit,
                enforce_cpu_limits=self.node_config.enforce_cpu_limits,
                cpu_cfs_quota_period=int(self.node_config.cpu_cfs_quota_period / Microsecond),
            )
        return PodContainerManagerNoop(self.cgroup_root)

    def setup_node(self, active_pods: Callable[[], list[Pod]]) -> None:
        """Make ``kubepods`` and the QoS cgroups, and put node allocatable's limits on
        ``kubepods``; raises ``RuntimeError`` with Go's message.

        Go: pkg/kubelet/cm/container_manager_linux.go (*containerManagerImpl).setupNode
        """
        # Go omitted: f, err := validateSystemRequirements(cm.mountUtil) -- it reads the host's /proc/mounts; the simulated node has the cpu and memory controllers and CFS quota
        # Go omitted: if err := setupKernelTunables(b); err != nil { -- the simulated node has no kernel settings
        # Go: if cm.NodeConfig.CgroupsPerQOS {
        if self.node_config.cgroups_per_qos:
            self.create_node_allocatable_cgroups()
            try:
                self.qos_container_manager.start(self.get_node_allocatable_absolute, active_pods)
            except Exception as err:
                raise RuntimeError(f"failed to initialize top level QOS containers: {err}") from err

        self.enforce_node_allocatable_cgroups()
        # Go omitted: if cm.ContainerRuntime == "docker" { -- the fake runtime is a CRI one
        # Go omitted: if cm.SystemCgroupsName != "" { -- --system-cgroups is not ported
        # Go omitted: if cm.KubeletCgroupsName != "" { -- --kubelet-cgroups is not ported: kubelet is no process of the simulated node

    def get_pod_cgroup_root(self) -> str:
        """The driver's spelling of ``kubepods``: ``/kubepods`` or ``/kubepods.slice``.

        Go: pkg/kubelet/cm/container_manager_linux.go (*containerManagerImpl).GetPodCgroupRoot
        """
        return self.cgroup_manager.name(self.cgroup_root)

    def get_qos_containers_info(self) -> QOSContainersInfo:
        """Go: pkg/kubelet/cm/container_manager_linux.go (*containerManagerImpl).GetQOSContainersInfo"""
        info: QOSContainersInfo = self.qos_container_manager.get_qos_containers_info()
        return info

    def update_qos_cgroups(self) -> None:
        """Go: pkg/kubelet/cm/container_manager_linux.go (*containerManagerImpl).UpdateQOSCgroups"""
        self.qos_container_manager.update_cgroups()

    def start(self, node: Node, active_pods: Callable[[], list[Pod]]) -> None:
        """Set the node up for pods; raises ``RuntimeError`` (kubelet then exits).

        Go: pkg/kubelet/cm/container_manager_linux.go (*containerManagerImpl).Start

        Go also takes the sources, the status manager and the runtime, for the CPU, memory and
        device managers, none of which is ported.
        """
        # Go omitted: if utilfeature.DefaultFeatureGate.Enabled(kubefeatures.CPUManager) { -- the CPU manager's v1.21 default policy (none) pins nothing
        # Go omitted: if utilfeature.DefaultFeatureGate.Enabled(kubefeatures.MemoryManager) { -- an alpha gate, off in v1.21
        self.node_info = node
        # Go omitted: if utilfeature.DefaultFeatureGate.Enabled(kubefeatures.LocalStorageCapacityIsolation) { -- the simulated node has no root file system to measure
        # Go omitted: if err := cm.validateNodeAllocatable(); err != nil { -- nothing is reserved here, so node allocatable is always valid
        self.setup_node(active_pods)
        # Go omitted: if hasEnsureStateFuncs { -- no system containers (see setup_node)
        # Go omitted: if len(cm.periodicTasks) > 0 { -- no periodic tasks (see setup_node)
        # Go omitted: if err := cm.deviceManager.Start(devicemanager.ActivePodsFunc(activePods), sourcesReady); err != nil { -- no device plugins


def new_container_manager(
    subsystems: CgroupFS,
    capacity: ResourceList,
    node_config: NodeConfig,
    recorder: Any,
) -> ContainerManagerImpl:
    """The container manager for the node's cgroup tree; raises ``RuntimeError`` with Go's
    message for a configuration kubelet refuses.

    Go: pkg/kubelet/cm/container_manager_linux.go NewContainerManager

    ``capacity`` is what cAdvisor measures (Go reads its ``MachineInfo``); ``subsystems`` is
    the node's cgroup tree, where Go finds the mounted controllers.
    """
    # Go omitted: if failSwapOn { -- the simulated node has no swap
    internal_capacity: ResourceList = dict(capacity)
    # Go omitted: pidlimits, err := pidlimit.Stats() -- the simulated machine reports no pid_max

    cgroup_root = parse_cgroupfs_to_cgroup_name(node_config.cgroup_root)
    cgroup_manager = new_cgroup_manager(subsystems, node_config.cgroup_driver)
    # Go: if nodeConfig.CgroupsPerQOS {
    if node_config.cgroups_per_qos:
        if node_config.cgroup_root == "":
            raise RuntimeError(
                "invalid configuration: cgroups-per-qos was specified and cgroup-root was not "
                "specified. To enable the QoS cgroup hierarchy you need to specify a valid "
                "cgroup-root"
            )

        # The root is checked as a cgroupfs path, whatever the driver: no conversion.
        if not cgroup_manager.exists(cgroup_root):
            raise RuntimeError(f'invalid configuration: cgroup-root "{cgroup_root}" doesn\'t exist')
        klog.info_s(
            "Container manager verified user specified cgroup-root exists", cgroupRoot=cgroup_root
        )
        cgroup_root = new_cgroup_name(cgroup_root, defaultNodeAllocatableCgroupName)
    klog.info_s("Creating Container Manager object based on Node Config", nodeConfig=node_config)

    qos_container_manager = new_qos_container_manager(
        cgroup_root, node_config.cgroups_per_qos, node_config.qos_reserved, cgroup_manager
    )

    cm = ContainerManagerImpl(
        node_config=node_config,
        subsystems=subsystems,
        cgroup_manager=cgroup_manager,
        capacity=capacity,
        internal_capacity=internal_capacity,
        cgroup_root=cgroup_root,
        recorder=recorder,
        qos_container_manager=qos_container_manager,
    )
    # Go omitted: if utilfeature.DefaultFeatureGate.Enabled(kubefeatures.TopologyManager) { -- the topology manager's v1.21 default policy (none) admits every pod
    # Go omitted: if devicePluginEnabled { -- no device plugins
    # Go omitted: if utilfeature.DefaultFeatureGate.Enabled(kubefeatures.CPUManager) { -- see Start
    # Go omitted: if utilfeature.DefaultFeatureGate.Enabled(kubefeatures.MemoryManager) { -- see Start
    return cm
