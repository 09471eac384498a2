"""The stats summary: what the node and each pod use, as kubelet's summary provider reports it.

Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go

Only the fields the eviction manager reads are ported (memory, filesystems, process counts);
CPU, network, accelerators and user-defined metrics are left out. Go's pointers to numbers
(``*uint64``) are ``int | None`` here: None is Go's nil, "not measured". Times are the run's
clock readings in seconds; 0.0 is Go's zero ``metav1.Time``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "ContainerStats",
    "FsStats",
    "MemoryStats",
    "NodeStats",
    "PodReference",
    "PodStats",
    "ProcessStats",
    "RlimitStats",
    "RuntimeStats",
    "Summary",
    "SystemContainerPods",
    "VolumeStats",
]

#: Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go SystemContainerPods: the
#: system container that holds every pod (the ``kubepods`` cgroup).
SystemContainerPods = "pods"


@dataclass(slots=True, kw_only=True)
class MemoryStats:
    """Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go type MemoryStats"""

    time: float = 0.0
    #: What is left before the limit (the node's memory for the node): limit − working set.
    available_bytes: int | None = None
    usage_bytes: int | None = None
    #: The memory the kernel cannot take back without killing: what the eviction manager counts.
    working_set_bytes: int | None = None


@dataclass(slots=True, kw_only=True)
class FsStats:
    """Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go type FsStats"""

    time: float = 0.0
    available_bytes: int | None = None
    capacity_bytes: int | None = None
    used_bytes: int | None = None
    inodes_free: int | None = None
    inodes: int | None = None
    inodes_used: int | None = None


@dataclass(slots=True, kw_only=True)
class VolumeStats:
    """Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go type VolumeStats

    Go embeds ``FsStats``; here it is the field ``fs_stats``.
    """

    fs_stats: FsStats = field(default_factory=FsStats)
    name: str = ""


@dataclass(slots=True, kw_only=True)
class ProcessStats:
    """Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go type ProcessStats"""

    process_count: int | None = None


@dataclass(slots=True, kw_only=True)
class ContainerStats:
    """Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go type ContainerStats"""

    name: str
    start_time: float = 0.0
    memory: MemoryStats | None = None
    #: The container's writable layer.
    rootfs: FsStats | None = None
    #: The container's logs.
    logs: FsStats | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PodReference:
    """Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go type PodReference"""

    name: str
    namespace: str
    uid: str


@dataclass(slots=True, kw_only=True)
class PodStats:
    """Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go type PodStats"""

    pod_ref: PodReference
    start_time: float = 0.0
    containers: list[ContainerStats] = field(default_factory=list)
    memory: MemoryStats | None = None
    volume_stats: list[VolumeStats] = field(default_factory=list)
    #: Everything the pod writes on the node: writable layers, logs, local volumes.
    ephemeral_storage: FsStats | None = None
    process_stats: ProcessStats | None = None


@dataclass(slots=True, kw_only=True)
class RuntimeStats:
    """Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go type RuntimeStats"""

    #: The filesystem the runtime keeps images and writable layers on.
    image_fs: FsStats | None = None


@dataclass(slots=True, kw_only=True)
class RlimitStats:
    """Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go type RlimitStats"""

    time: float = 0.0
    max_pid: int | None = None
    num_of_running_processes: int | None = None


@dataclass(slots=True, kw_only=True)
class NodeStats:
    """Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go type NodeStats"""

    node_name: str = ""
    system_containers: list[ContainerStats] = field(default_factory=list)
    start_time: float = 0.0
    memory: MemoryStats | None = None
    #: The node's root filesystem (kubelet's directory, logs, emptyDir volumes).
    fs: FsStats | None = None
    runtime: RuntimeStats | None = None
    rlimit: RlimitStats | None = None


@dataclass(slots=True, kw_only=True)
class Summary:
    """Go: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go type Summary"""

    node: NodeStats = field(default_factory=NodeStats)
    pods: list[PodStats] = field(default_factory=list)
