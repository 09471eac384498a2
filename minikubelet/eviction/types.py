"""The eviction manager's configuration, its interfaces, and the types its helpers share.

Go: pkg/kubelet/eviction/types.go

Go's ``CgroupNotifier``, ``NotifierFactory`` and ``ThresholdNotifier`` (the kernel's memcg
notifications, off by default in v1.21) are not ported: see
[`minikubelet.eviction.eviction_manager`][minikubelet.eviction.eviction_manager].
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from minikubelet.eviction.api import Signal, Threshold
from minikubelet.k8s_io.api.core.v1 import NodeConditionType, Pod, PodStatus
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1 import PodStats


class FsStatsType(StrEnum):
    """Which filesystem stats of a pod count toward its disk usage.

    Go: pkg/kubelet/eviction/types.go type fsStatsType
    """

    #: The pod's local volumes (emptyDir, configMap, hostPath …).
    LOCAL_VOLUME_SOURCE = "localVolumeSource"
    LOGS = "logs"
    #: The containers' writable layers.
    ROOT = "root"


fsStatsLocalVolumeSource = FsStatsType.LOCAL_VOLUME_SOURCE
fsStatsLogs = FsStatsType.LOGS
fsStatsRoot = FsStatsType.ROOT


@dataclass(slots=True)
class Config:
    """How the eviction manager is configured (from kubelet's ``--eviction-*`` flags).

    Go: pkg/kubelet/eviction/types.go type Config
    """

    #: Seconds a pressure condition stays on after its threshold was last met.
    pressure_transition_period: float = 0.0
    #: The grace period (seconds) a pod gets when a *soft* threshold evicts it.
    max_pod_grace_period_seconds: int = 0
    thresholds: list[Threshold] = field(default_factory=list)
    #: Whether the kernel's memcg notifications also trigger a synchronize (not ported: always
    #: off here, as by default).
    kernel_memcg_notification: bool = False
    #: The cgroup that holds every pod.
    pod_cgroup_root: str = ""


class Manager(Protocol):
    """Go: pkg/kubelet/eviction/types.go type Manager"""

    def start(
        self,
        disk_info_provider: DiskInfoProvider,
        pod_func: ActivePodsFunc,
        pod_cleaned_up_func: PodCleanedUpFunc,
        monitoring_interval: float,
    ) -> None:
        """Go: pkg/kubelet/eviction/types.go Manager.Start"""
        ...

    def is_under_memory_pressure(self) -> bool:
        """Go: pkg/kubelet/eviction/types.go Manager.IsUnderMemoryPressure"""
        ...

    def is_under_disk_pressure(self) -> bool:
        """Go: pkg/kubelet/eviction/types.go Manager.IsUnderDiskPressure"""
        ...

    def is_under_pid_pressure(self) -> bool:
        """Go: pkg/kubelet/eviction/types.go Manager.IsUnderPIDPressure"""
        ...


class DiskInfoProvider(Protocol):
    """Go: pkg/kubelet/eviction/types.go type DiskInfoProvider"""

    def has_dedicated_image_fs(self) -> bool:
        """Whether images live on a filesystem of their own; raises where Go returns an error.

        Go: pkg/kubelet/eviction/types.go DiskInfoProvider.HasDedicatedImageFs
        """
        ...


class ImageGC(Protocol):
    """Go: pkg/kubelet/eviction/types.go type ImageGC"""

    async def delete_unused_images(self) -> None:
        """Go: pkg/kubelet/eviction/types.go ImageGC.DeleteUnusedImages"""
        ...


class ContainerGC(Protocol):
    """Go: pkg/kubelet/eviction/types.go type ContainerGC"""

    async def delete_all_unused_containers(self) -> None:
        """Go: pkg/kubelet/eviction/types.go ContainerGC.DeleteAllUnusedContainers"""
        ...


#: Go: pkg/kubelet/eviction/types.go type KillPodFunc: kill a pod, with the status to report and
#: an optional grace period in seconds. Go's returns an error; the port's raises one.
KillPodFunc = Callable[[Pod, PodStatus, int | None], Awaitable[None]]

#: Go: pkg/kubelet/eviction/types.go type MirrorPodFunc: the mirror pod of a static pod, and
#: whether the pod manager knows it.
MirrorPodFunc = Callable[[Pod], tuple[Pod | None, bool]]

#: Go: pkg/kubelet/eviction/types.go type ActivePodsFunc: the pods kubelet runs that are not
#: terminated (kubelet passes its ``GetActivePods``).
ActivePodsFunc = Callable[[], list[Pod]]

#: Go: pkg/kubelet/eviction/types.go type PodCleanedUpFunc: whether everything of a pod is gone
#: from the node (kubelet passes its ``podResourcesAreReclaimed``).
PodCleanedUpFunc = Callable[[Pod], bool]

#: Go: pkg/kubelet/eviction/types.go type statsFunc: a pod's stats, and whether there are any.
StatsFunc = Callable[[Pod], tuple[PodStats | None, bool]]

#: Go: pkg/kubelet/eviction/types.go type rankFunc: sorts the pods in place, first to evict first.
RankFunc = Callable[[list[Pod], StatsFunc], None]


@dataclass(frozen=True, slots=True)
class SignalObservation:
    """What was measured of one signal.

    Go: pkg/kubelet/eviction/types.go type signalObservation
    """

    capacity: Quantity
    available: Quantity
    #: When it was measured (0.0: unknown).
    time: float = 0.0


#: Go: pkg/kubelet/eviction/types.go type signalObservations
SignalObservations = dict[Signal, SignalObservation]

#: Go: pkg/kubelet/eviction/types.go type thresholdsObservedAt: when each threshold was first met.
ThresholdsObservedAt = dict[Threshold, float]

#: Go: pkg/kubelet/eviction/types.go type nodeConditionsObservedAt: when each condition was last
#: observed.
NodeConditionsObservedAt = dict[NodeConditionType, float]

#: Go: pkg/kubelet/eviction/types.go type nodeReclaimFunc: frees some of a resource without
#: touching pods (deletes dead containers, unused images); raises on failure.
NodeReclaimFunc = Callable[[], Awaitable[None]]

#: Go: pkg/kubelet/eviction/types.go type nodeReclaimFuncs
NodeReclaimFuncs = list[NodeReclaimFunc]
