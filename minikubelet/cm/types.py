"""The container manager's types: a cgroup's name, its settings, and the managers' interfaces.

Go: pkg/kubelet/cm/types.go
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from minikubelet.github_com.opencontainers.runc.libcontainer.cgroups.systemd.common import (
    expand_slice,
)
from minikubelet.k8s_io.api.core.v1 import Pod

#: Go: systemdSuffix (cgroup_manager_linux.go), the ending of every systemd cgroup name.
systemdSuffix = ".slice"


@dataclass(slots=True)
class ResourceConfig:
    """The settings of one cgroup; ``None`` leaves a setting as it is.

    Go: pkg/kubelet/cm/types.go type ResourceConfig
    """

    #: memory.limit_in_bytes.
    memory: int | None = None
    #: cpu.shares: the cgroup's weight against its siblings.
    cpu_shares: int | None = None
    #: cpu.cfs_quota_us: CPU time allowed per period (-1: no limit).
    cpu_quota: int | None = None
    #: cpu.cfs_period_us.
    cpu_period: int | None = None
    #: Page size in bytes → limit in bytes (hugetlb.<size>.limit_in_bytes).
    huge_page_limit: dict[int, int] = field(default_factory=dict)
    #: pids.max.
    pids_limit: int | None = None


class CgroupName(tuple[str, ...]):
    """A cgroup's name before a driver spells it: its parts from the top,
    ``CgroupName(("kubepods", "burstable", "pod1234"))``.

    Go: pkg/kubelet/cm/types.go type CgroupName

    Go's is a ``[]string``; a tuple keeps the same order and can key a dict. It prints as klog
    prints Go's slice: ``[kubepods burstable pod1234]``.
    """

    __slots__ = ()

    def __str__(self) -> str:
        return "[" + " ".join(self) + "]"

    def to_systemd(self) -> str:
        """The name as the systemd driver spells it, as a path:
        ``[kubepods burstable pod12-34]`` →
        ``/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod12_34.slice``.

        Go: pkg/kubelet/cm/cgroup_manager_linux.go (CgroupName).ToSystemd
        """
        if len(self) == 0 or (len(self) == 1 and self[0] == ""):
            return "/"
        newparts = [escape_systemd_cgroup_name(part) for part in self]
        # A name that cannot be a slice was refused by new_cgroup_name already: Go panics here.
        return expand_slice("-".join(newparts) + systemdSuffix)

    def to_cgroupfs(self) -> str:
        """The name as the cgroupfs driver spells it: ``/kubepods/burstable/pod12-34``.

        Go: pkg/kubelet/cm/cgroup_manager_linux.go (CgroupName).ToCgroupfs
        """
        return "/" + "/".join(p for p in self if p)


def escape_systemd_cgroup_name(part: str) -> str:
    """Dashes become underscores: systemd reads a dash as a level of the tree.

    Go: pkg/kubelet/cm/cgroup_manager_linux.go escapeSystemdCgroupName
    """
    return part.replace("-", "_")


def unescape_systemd_cgroup_name(part: str) -> str:
    """Go: pkg/kubelet/cm/cgroup_manager_linux.go unescapeSystemdCgroupName"""
    return part.replace("_", "-")


@dataclass(slots=True)
class CgroupConfig:
    """A cgroup's name and the settings to give it.

    Go: pkg/kubelet/cm/types.go type CgroupConfig
    """

    name: CgroupName
    resource_parameters: ResourceConfig | None = None


@dataclass(slots=True)
class QOSContainersInfo:
    """The cgroups of the three QoS classes. Guaranteed pods sit directly in the pods' root.

    Go: pkg/kubelet/cm/types.go type QOSContainersInfo
    """

    guaranteed: CgroupName = field(default_factory=CgroupName)
    best_effort: CgroupName = field(default_factory=CgroupName)
    burstable: CgroupName = field(default_factory=CgroupName)


class CgroupFS(Protocol):
    """Ours: the node's cgroup file system, as the cgroup manager reaches it.

    On a real node runc's libcontainer makes the directories under ``/sys/fs/cgroup`` and writes
    the controllers' files; kubelet is handed that kernel, the port is handed this (the
    simulation implements it: [`SimCgroupFS`][minikubelet.sim.cgroup_fs.SimCgroupFS]). Paths
    are the driver's spelling of a cgroup name; one set of paths stands for every controller.
    """

    def exists(self, path: str) -> bool:
        """Whether the cgroup is there."""
        ...

    def mkdir_all(self, path: str) -> None:
        """Make the cgroup and any missing parent."""
        ...

    def write(self, path: str, files: dict[str, int | str]) -> None:
        """Write files of an existing cgroup; ``FileNotFoundError`` when it is missing."""
        ...

    def remove(self, path: str) -> None:
        """Remove the cgroup and those under it; a missing one is no error."""
        ...

    def children(self, path: str) -> list[str]:
        """The names of the cgroups directly under ``path``, sorted."""
        ...


class CgroupManager(Protocol):
    """Creates, updates and removes cgroups, and converts names for the driver.

    Go: pkg/kubelet/cm/types.go type CgroupManager
    """

    def create(self, config: CgroupConfig) -> None:
        """Go: pkg/kubelet/cm/types.go CgroupManager.Create"""
        ...

    def destroy(self, config: CgroupConfig) -> None:
        """Go: pkg/kubelet/cm/types.go CgroupManager.Destroy"""
        ...

    def update(self, config: CgroupConfig) -> None:
        """Go: pkg/kubelet/cm/types.go CgroupManager.Update"""
        ...

    def exists(self, name: CgroupName) -> bool:
        """Go: pkg/kubelet/cm/types.go CgroupManager.Exists"""
        ...

    def name(self, name: CgroupName) -> str:
        """Go: pkg/kubelet/cm/types.go CgroupManager.Name"""
        ...

    def cgroup_name(self, name: str) -> CgroupName:
        """Go: pkg/kubelet/cm/types.go CgroupManager.CgroupName"""
        ...

    def pids(self, name: CgroupName) -> list[int]:
        """Go: pkg/kubelet/cm/types.go CgroupManager.Pids"""
        ...

    def reduce_cpu_limits(self, cgroup_name: CgroupName) -> None:
        """Go: pkg/kubelet/cm/types.go CgroupManager.ReduceCPULimits"""
        ...


class PodContainerManager(Protocol):
    """What kubelet does with a pod's cgroup: name it, make it, check it, remove it.

    Go: pkg/kubelet/cm/types.go type PodContainerManager

    The methods that return an ``error`` in Go raise here.
    """

    def get_pod_container_name(self, pod: Pod) -> tuple[CgroupName, str]:
        """Go: pkg/kubelet/cm/types.go PodContainerManager.GetPodContainerName"""
        ...

    def ensure_exists(self, pod: Pod) -> None:
        """Go: pkg/kubelet/cm/types.go PodContainerManager.EnsureExists"""
        ...

    def exists(self, pod: Pod) -> bool:
        """Go: pkg/kubelet/cm/types.go PodContainerManager.Exists"""
        ...

    def destroy(self, name: CgroupName) -> None:
        """Go: pkg/kubelet/cm/types.go PodContainerManager.Destroy"""
        ...

    def reduce_cpu_limits(self, name: CgroupName) -> None:
        """Go: pkg/kubelet/cm/types.go PodContainerManager.ReduceCPULimits"""
        ...

    def get_all_pods_from_cgroups(self) -> dict[str, CgroupName]:
        """Go: pkg/kubelet/cm/types.go PodContainerManager.GetAllPodsFromCgroups"""
        ...

    def is_pod_cgroup(self, cgroupfs: str) -> tuple[bool, str]:
        """Go: pkg/kubelet/cm/types.go PodContainerManager.IsPodCgroup"""
        ...
