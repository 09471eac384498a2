"""The container manager's configuration, as kubelet's flags give it.

Go: pkg/kubelet/cm/container_manager.go

Only the fields the pod path reads are ported. ``ContainerManager``, Go's interface, has one
implementation here ([`ContainerManagerImpl`][minikubelet.cm.container_manager_linux.ContainerManagerImpl]),
so the port uses that class itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minikubelet.go import Millisecond
from minikubelet.go.duration import format_duration
from minikubelet.types.constants import NodeAllocatableEnforcementKey


@dataclass(slots=True)
class NodeAllocatableConfig:
    """Go: pkg/kubelet/cm/container_manager.go type NodeAllocatableConfig

    Nothing is reserved for the system or for Kubernetes' own daemons here
    (``--system-reserved``, ``--kube-reserved`` are not ported), so node allocatable is the
    capacity.
    """

    #: --enforce-node-allocatable (default ``pods``: limit ``kubepods`` to node allocatable).
    enforce_node_allocatable: frozenset[str] = frozenset({NodeAllocatableEnforcementKey})


@dataclass(slots=True)
class NodeConfig:
    """Go: pkg/kubelet/cm/container_manager.go type NodeConfig"""

    #: --cgroups-per-qos (default true): the QoS cgroup tree and one cgroup per pod.
    cgroups_per_qos: bool = True
    #: --cgroup-root (default ``/``): where the tree goes.
    cgroup_root: str = "/"
    #: --cgroup-driver (default ``cgroupfs``; or ``systemd``).
    cgroup_driver: str = "cgroupfs"
    node_allocatable_config: NodeAllocatableConfig = field(default_factory=NodeAllocatableConfig)
    #: --qos-reserved, read only under the QOSReserved gate (alpha, off in v1.21).
    qos_reserved: dict[str, int] = field(default_factory=dict)
    #: --pod-max-pids (default -1: no limit).
    experimental_pod_pids_limit: int = -1
    #: --cpu-cfs-quota (default true): CPU limits become CFS quotas.
    enforce_cpu_limits: bool = True
    #: --cpu-cfs-quota-period (default 100ms).
    cpu_cfs_quota_period: float = 100 * Millisecond

    def __str__(self) -> str:
        # As klog prints Go's struct (%+v), with the fields the port has.
        nac = self.node_allocatable_config
        enforce = " ".join(f"{k}:{{}}" for k in sorted(nac.enforce_node_allocatable))
        reserved = " ".join(f"{k}:{v}" for k, v in sorted(self.qos_reserved.items()))
        period = format_duration(self.cpu_cfs_quota_period)
        return (
            f"{{CgroupsPerQOS:{str(self.cgroups_per_qos).lower()} CgroupRoot:{self.cgroup_root} "
            f"CgroupDriver:{self.cgroup_driver} NodeAllocatableConfig:{{EnforceNodeAllocatable:"
            f"map[{enforce}]}} QOSReserved:map[{reserved}] "
            f"ExperimentalPodPidsLimit:{self.experimental_pod_pids_limit} "
            f"EnforceCPULimits:{str(self.enforce_cpu_limits).lower()} "
            f"CPUCFSQuotaPeriod:{period}}}"
        )
