"""What the eviction manager computes: thresholds from flags, observations from stats, which
thresholds are met, the node conditions they raise, and the order in which pods are evicted.

Go: pkg/kubelet/eviction/helpers.go

Read in this order: [`parse_threshold_config`][] turns ``--eviction-hard`` and its siblings into
thresholds; [`make_signal_observations`][] reads the stats summary; [`thresholds_met`][] compares
the two; [`node_conditions`][] maps met thresholds to ``MemoryPressure`` / ``DiskPressure`` /
``PIDPressure``; [`rank_memory_pressure`][] and [`rank_disk_pressure_func`][] order the pods;
[`eviction_message`][] writes what the evicted pod's status says.

Go's metrics are left out. Go iterates maps in a random order (the flags' maps, the observed
thresholds); the port keeps insertion order, which is one of Go's possible orders.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from minikubelet.eviction.api import (
    OpForSignal,
    OpLessThan,
    Signal,
    SignalAllocatableMemoryAvailable,
    SignalImageFsAvailable,
    SignalImageFsInodesFree,
    SignalMemoryAvailable,
    SignalNodeFsAvailable,
    SignalNodeFsInodesFree,
    SignalPIDAvailable,
    Threshold,
    ThresholdValue,
    get_threshold_quantity,
    to_float32,
)
from minikubelet.eviction.types import (
    FsStatsType,
    NodeConditionsObservedAt,
    NodeReclaimFuncs,
    RankFunc,
    SignalObservation,
    SignalObservations,
    StatsFunc,
    ThresholdsObservedAt,
    fsStatsLocalVolumeSource,
    fsStatsLogs,
    fsStatsRoot,
)
from minikubelet.go import fmt as go_fmt
from minikubelet.go.clock import time_string
from minikubelet.go.duration import format_duration, parse_duration
from minikubelet.k8s_io.api.core.v1 import (
    NodeConditionType,
    NodeDiskPressure,
    NodeMemoryPressure,
    NodePIDPressure,
    Pod,
    PodFailed,
    PodStatus,
    ResourceEphemeralStorage,
    ResourceList,
    ResourceMemory,
    ResourceName,
)
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Format, Quantity
from minikubelet.k8s_io.component_helpers.scheduling.corev1.helpers import pod_priority
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1 import (
    ContainerStats,
    FsStats,
    MemoryStats,
    PodStats,
    ProcessStats,
    Summary,
    SystemContainerPods,
)
from minikubelet.k8s_io.kubernetes.pkg.api.v1.resource.helpers import (
    get_resource_request_quantity,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.util.util import is_local_ephemeral_volume
from minikubelet.types.constants import NodeAllocatableEnforcementKey

if TYPE_CHECKING:
    from minikubelet.eviction.types import ContainerGC, ImageGC

# The messages keep Go's verbs; they are filled in with Go's fmt ([`go_fmt.sprintf`][minikubelet.go.fmt.sprintf]).
unsupportedEvictionSignal = "unsupported eviction signal %v"
#: Go: pkg/kubelet/eviction/helpers.go Reason: the reason in an evicted pod's status and event.
Reason = "Evicted"
nodeLowMessageFmt = "The node was low on resource: %v. "
nodeConditionMessageFmt = "The node had condition: %v. "
containerMessageFmt = "Container %s was using %s, which exceeds its request of %s. "
containerEphemeralStorageMessageFmt = "Container %s exceeded its local ephemeral storage limit %q. "
podEphemeralStorageMessageFmt = (
    "Pod ephemeral local storage usage exceeds the total limit of containers %s. "
)
emptyDirMessageFmt = "Usage of EmptyDir volume %q exceeds the limit %q. "
#: Inodes, a resource only the eviction manager counts.
resourceInodes = ResourceName("inodes")
#: Process IDs, likewise.
resourcePids = ResourceName("pids")
#: Keys of the eviction event's annotations.
OffendingContainersKey = "offending_containers"
OffendingContainersUsageKey = "offending_containers_usage"
StarvedResourceKey = "starved_resource"

#: Go: pkg/kubelet/eviction/helpers.go signalToNodeCondition: the node condition a met threshold
#: of each signal raises (Go fills it in ``init``).
signalToNodeCondition: dict[Signal, NodeConditionType] = {
    SignalMemoryAvailable: NodeMemoryPressure,
    SignalAllocatableMemoryAvailable: NodeMemoryPressure,
    SignalImageFsAvailable: NodeDiskPressure,
    SignalNodeFsAvailable: NodeDiskPressure,
    SignalImageFsInodesFree: NodeDiskPressure,
    SignalNodeFsInodesFree: NodeDiskPressure,
    SignalPIDAvailable: NodePIDPressure,
}

#: Go: pkg/kubelet/eviction/helpers.go signalToResource: the resource each signal measures, as
#: a [`ResourceName`][minikubelet.k8s_io.api.core.v1.types.ResourceName], which klog prints bare.
signalToResource: dict[Signal, ResourceName] = {
    SignalMemoryAvailable: ResourceName(ResourceMemory),
    SignalAllocatableMemoryAvailable: ResourceName(ResourceMemory),
    SignalImageFsAvailable: ResourceName(ResourceEphemeralStorage),
    SignalImageFsInodesFree: resourceInodes,
    SignalNodeFsAvailable: ResourceName(ResourceEphemeralStorage),
    SignalNodeFsInodesFree: resourceInodes,
    SignalPIDAvailable: resourcePids,
}

#: A pod comparison: negative when the first pod is to be evicted first. Go: type cmpFunc.
CmpFunc = Callable[[Pod, Pod], int]


def valid_signal(signal: str) -> bool:
    """Go: pkg/kubelet/eviction/helpers.go validSignal"""
    return signal in signalToResource


def get_reclaimable_threshold(
    thresholds: list[Threshold],
) -> tuple[Threshold | None, ResourceName, bool]:
    """The first threshold whose signal has a resource to reclaim, with that resource.

    Go: pkg/kubelet/eviction/helpers.go getReclaimableThreshold
    """
    for threshold_to_reclaim in thresholds:
        resource_to_reclaim = signalToResource.get(threshold_to_reclaim.signal)
        if resource_to_reclaim is not None:
            return threshold_to_reclaim, resource_to_reclaim, True
        klog.v(3).info_s(
            "Eviction manager: threshold was crossed, but reclaim is not implemented for this threshold.",
            threshold=threshold_to_reclaim.signal,
        )
    return None, ResourceName(""), False


def parse_threshold_config(
    allocatable_config: list[str],
    eviction_hard: dict[str, str],
    eviction_soft: dict[str, str],
    eviction_soft_grace_period: dict[str, str],
    eviction_minimum_reclaim: dict[str, str],
) -> list[Threshold]:
    """The thresholds of kubelet's ``--eviction-hard``, ``--eviction-soft``,
    ``--eviction-soft-grace-period`` and ``--eviction-minimum-reclaim``; with ``pods`` in
    ``--enforce-node-allocatable``, each hard ``memory.available`` threshold also applies to the
    pods' own memory (``allocatableMemory.available``).

    Go: pkg/kubelet/eviction/helpers.go ParseThresholdConfig

    Raises ValueError with kubelet's message where Go returns an error.
    """
    # Go: results := []evictionapi.Threshold{}
    results: list[Threshold] = []
    hard_thresholds = parse_threshold_statements(eviction_hard)
    results.extend(hard_thresholds)
    soft_thresholds = parse_threshold_statements(eviction_soft)
    grace_periods = parse_grace_periods(eviction_soft_grace_period)
    min_reclaims = parse_minimum_reclaims(eviction_minimum_reclaim)
    # Go: for i := range softThresholds {
    for i, soft in enumerate(soft_thresholds):
        signal = soft.signal
        period = grace_periods.get(signal)
        if period is None:
            raise ValueError(
                f"grace period must be specified for the soft eviction threshold {signal}"
            )
        # A Threshold is frozen (it is a map key): replace it where Go assigns a field.
        soft_thresholds[i] = dataclasses.replace(soft, grace_period=period)
    results.extend(soft_thresholds)
    # Go: for i := range results {
    for i, result in enumerate(results):
        min_reclaim = min_reclaims.get(result.signal)
        if min_reclaim is not None:
            results[i] = dataclasses.replace(result, min_reclaim=min_reclaim)
    # Go: for _, key := range allocatableConfig {
    for key in allocatable_config:
        if key == NodeAllocatableEnforcementKey:
            results = add_allocatable_thresholds(results)
            break
    return results


def add_allocatable_thresholds(thresholds: list[Threshold]) -> list[Threshold]:
    """The thresholds, and a copy of each hard ``memory.available`` one for
    ``allocatableMemory.available``.

    Go: pkg/kubelet/eviction/helpers.go addAllocatableThresholds
    """
    additional_thresholds: list[Threshold] = []
    for threshold in thresholds:
        if threshold.signal == SignalMemoryAvailable and is_hard_eviction_threshold(threshold):
            additional_thresholds.append(
                Threshold(
                    signal=SignalAllocatableMemoryAvailable,
                    operator=threshold.operator,
                    value=threshold.value,
                    min_reclaim=threshold.min_reclaim,
                )
            )
    return [*thresholds, *additional_thresholds]


def parse_threshold_statements(statements: dict[str, str]) -> list[Threshold]:
    """Go: pkg/kubelet/eviction/helpers.go parseThresholdStatements"""
    if len(statements) == 0:
        return []
    results: list[Threshold] = []
    for signal, val in statements.items():
        result = parse_threshold_statement(signal, val)
        if result is not None:
            results.append(result)
    return results


def parse_threshold_statement(signal: str, val: str) -> Threshold | None:
    """One ``signal<value`` statement as a threshold; None for ``0%`` and ``100%`` (ignored).

    Go: pkg/kubelet/eviction/helpers.go parseThresholdStatement
    """
    if not valid_signal(signal):
        raise ValueError(go_fmt.sprintf(unsupportedEvictionSignal, signal))
    operator = OpForSignal[Signal(signal)]
    # Go: if strings.HasSuffix(val, "%") {
    if val.endswith("%"):
        # 0% and 100% turn the threshold off.
        if val in ("0%", "100%"):
            return None
        percentage = parse_percentage(val)
        if percentage < 0:
            raise ValueError(f"eviction percentage threshold {signal} must be >= 0%: {val}")
        if percentage > 1:
            raise ValueError(f"eviction percentage threshold {signal} must be <= 100%: {val}")
        return Threshold(
            signal=Signal(signal),
            operator=operator,
            value=ThresholdValue(percentage=percentage),
        )
    quantity = Quantity.parse(val)
    if quantity.sign() < 0 or quantity.is_zero():
        raise ValueError(f"eviction threshold {signal} must be positive: {quantity}")
    return Threshold(
        signal=Signal(signal), operator=operator, value=ThresholdValue(quantity=quantity)
    )


def parse_percentage(text: str) -> float:
    """``"10%"`` → 0.1, as a float32. Raises ValueError with Go's ``strconv`` message.

    Go: pkg/kubelet/eviction/helpers.go parsePercentage
    """
    number = text.rstrip("%")
    try:
        value = _parse_float(number)
    except ValueError:
        raise ValueError(f'strconv.ParseFloat: parsing "{number}": invalid syntax') from None
    return to_float32(to_float32(value) / 100)


def _parse_float(text: str) -> float:
    """Go's ``strconv.ParseFloat`` for the decimals a flag holds (ours: Python's float()
    also takes spaces, underscores and ``nan``/``inf`` spelled otherwise, which Go refuses)."""
    if text != text.strip() or "_" in text or not text:
        raise ValueError(text)
    value = float(text)
    if math.isnan(value) and text.lower() not in ("nan",):
        raise ValueError(text)
    return value


def parse_grace_periods(statements: dict[str, str]) -> dict[Signal, float]:
    """Go: pkg/kubelet/eviction/helpers.go parseGracePeriods"""
    if len(statements) == 0:
        return {}
    results: dict[Signal, float] = {}
    for signal, val in statements.items():
        if not valid_signal(signal):
            raise ValueError(go_fmt.sprintf(unsupportedEvictionSignal, signal))
        grace_period = parse_duration(val)
        if grace_period < 0:
            raise ValueError(
                f"invalid eviction grace period specified: {val}, must be a positive value"
            )
        results[Signal(signal)] = grace_period
    return results


def parse_minimum_reclaims(statements: dict[str, str]) -> dict[Signal, ThresholdValue]:
    """Go: pkg/kubelet/eviction/helpers.go parseMinimumReclaims"""
    if len(statements) == 0:
        return {}
    results: dict[Signal, ThresholdValue] = {}
    for signal, val in statements.items():
        if not valid_signal(signal):
            raise ValueError(go_fmt.sprintf(unsupportedEvictionSignal, signal))
        # Go: if strings.HasSuffix(val, "%") {
        if val.endswith("%"):
            percentage = parse_percentage(val)
            if percentage <= 0:
                raise ValueError(
                    f"eviction percentage minimum reclaim {signal} must be positive: {val}"
                )
            results[Signal(signal)] = ThresholdValue(percentage=percentage)
            continue
        quantity = Quantity.parse(val)
        if quantity.sign() < 0:
            raise ValueError(f"negative eviction minimum reclaim specified for {signal}")
        results[Signal(signal)] = ThresholdValue(quantity=quantity)
    return results


def disk_usage(fs_stats: FsStats | None) -> Quantity:
    """Go: pkg/kubelet/eviction/helpers.go diskUsage"""
    if fs_stats is None or fs_stats.used_bytes is None:
        return Quantity.from_int(0, Format.BINARY_SI)
    return Quantity.from_int(fs_stats.used_bytes, Format.BINARY_SI)


def inode_usage(fs_stats: FsStats | None) -> Quantity:
    """Go: pkg/kubelet/eviction/helpers.go inodeUsage"""
    if fs_stats is None or fs_stats.inodes_used is None:
        return Quantity.from_int(0, Format.DECIMAL_SI)
    return Quantity.from_int(fs_stats.inodes_used, Format.DECIMAL_SI)


def memory_usage(mem_stats: MemoryStats | None) -> Quantity:
    """The working set as a quantity (zero when not measured).

    Go: pkg/kubelet/eviction/helpers.go memoryUsage
    """
    if mem_stats is None or mem_stats.working_set_bytes is None:
        return Quantity.from_int(0, Format.BINARY_SI)
    return Quantity.from_int(mem_stats.working_set_bytes, Format.BINARY_SI)


def process_usage(process_stats: ProcessStats | None) -> int:
    """Go: pkg/kubelet/eviction/helpers.go processUsage"""
    if process_stats is None or process_stats.process_count is None:
        return 0
    return process_stats.process_count


def local_volume_names(pod: Pod) -> list[str]:
    """The pod's volumes whose data is on the node's disk (hostPath and the local ephemeral
    ones).

    Go: pkg/kubelet/eviction/helpers.go localVolumeNames
    """
    result: list[str] = []
    for volume in pod.spec.volumes:
        if "hostPath" in volume.volume_source or is_local_ephemeral_volume(volume):
            result.append(volume.name)
    return result


def container_usage(pod_stats: PodStats, stats_to_measure: list[FsStatsType]) -> ResourceList:
    """Go: pkg/kubelet/eviction/helpers.go containerUsage"""
    disk = Quantity.from_int(0, Format.BINARY_SI)
    inodes = Quantity.from_int(0, Format.DECIMAL_SI)
    for container in pod_stats.containers:
        if has_fs_stats_type(stats_to_measure, fsStatsRoot):
            disk = disk.add(disk_usage(container.rootfs))
            inodes = inodes.add(inode_usage(container.rootfs))
        if has_fs_stats_type(stats_to_measure, fsStatsLogs):
            disk = disk.add(disk_usage(container.logs))
            inodes = inodes.add(inode_usage(container.logs))
    return {ResourceEphemeralStorage: disk, resourceInodes: inodes}


def pod_local_volume_usage(volume_names: list[str], pod_stats: PodStats) -> ResourceList:
    """Go: pkg/kubelet/eviction/helpers.go podLocalVolumeUsage"""
    disk = Quantity.from_int(0, Format.BINARY_SI)
    inodes = Quantity.from_int(0, Format.DECIMAL_SI)
    for volume_name in volume_names:
        for volume_stats in pod_stats.volume_stats:
            if volume_stats.name == volume_name:
                disk = disk.add(disk_usage(volume_stats.fs_stats))
                inodes = inodes.add(inode_usage(volume_stats.fs_stats))
                break
    return {ResourceEphemeralStorage: disk, resourceInodes: inodes}


def pod_disk_usage(
    pod_stats: PodStats, pod: Pod, stats_to_measure: list[FsStatsType]
) -> ResourceList:
    """The pod's disk and inodes: its containers' (the measured kinds) and its local volumes'.

    Go: pkg/kubelet/eviction/helpers.go podDiskUsage

    Go also returns an error, always nil.
    """
    disk = Quantity.from_int(0, Format.BINARY_SI)
    inodes = Quantity.from_int(0, Format.DECIMAL_SI)

    container_usage_list = container_usage(pod_stats, stats_to_measure)
    disk = disk.add(container_usage_list[ResourceEphemeralStorage])
    inodes = inodes.add(container_usage_list[resourceInodes])

    if has_fs_stats_type(stats_to_measure, fsStatsLocalVolumeSource):
        volume_names = local_volume_names(pod)
        pod_local_volume_usage_list = pod_local_volume_usage(volume_names, pod_stats)
        disk = disk.add(pod_local_volume_usage_list[ResourceEphemeralStorage])
        inodes = inodes.add(pod_local_volume_usage_list[resourceInodes])
    return {ResourceEphemeralStorage: disk, resourceInodes: inodes}


def format_threshold(threshold: Threshold) -> str:
    """A threshold for the log.

    Go: pkg/kubelet/eviction/helpers.go formatThreshold

    Go prints the value struct with ``%v``, which shows its quantity *pointer* as an address
    (``{0xc000a1b2c0 0}``); the port shows the quantity instead (``{100Mi 0}``).
    """
    value = threshold.value
    shown = "<nil>" if value.quantity is None else str(value.quantity)
    return (
        f"threshold(signal={threshold.signal}, operator={threshold.operator}, "
        f"value={{{shown} {value.percentage:g}}}, "
        f"gracePeriod={format_duration(threshold.grace_period)})"
    )


def cached_stats_func(pod_stats: list[PodStats]) -> StatsFunc:
    """A lookup of the pods' stats by UID.

    Go: pkg/kubelet/eviction/helpers.go cachedStatsFunc
    """
    uid2_pod_stats = {stats.pod_ref.uid: stats for stats in pod_stats}

    def stats_func(pod: Pod) -> tuple[PodStats | None, bool]:
        stats = uid2_pod_stats.get(pod.metadata.uid)
        return stats, stats is not None

    return stats_func


class MultiSorter:
    """Sorts pods by a list of comparisons: the first that tells two pods apart decides.

    Go: pkg/kubelet/eviction/helpers.go type multiSorter

    Go's ``Len`` and ``Swap`` serve ``sort.Sort``; Python's sort needs only the order.
    """

    def __init__(self, cmp: list[CmpFunc]) -> None:
        self.pods: list[Pod] = []
        self.cmp = cmp

    def sort(self, pods: list[Pod]) -> None:
        """Sort ``pods`` in place.

        Go: pkg/kubelet/eviction/helpers.go (*multiSorter).Sort

        Go's ``sort.Sort`` is not stable and the active pods come from a map, so Go leaves
        pods that compare equal in a random order; the port's sort is stable: they keep the
        pod manager's order.
        """
        self.pods = pods

        def compare(i: int, j: int) -> int:
            return -1 if self.less(i, j) else 1 if self.less(j, i) else 0

        order = sorted(range(len(pods)), key=functools.cmp_to_key(compare))
        pods[:] = [pods[i] for i in order]

    def less(self, i: int, j: int) -> bool:
        """Go: pkg/kubelet/eviction/helpers.go (*multiSorter).Less"""
        p1, p2 = self.pods[i], self.pods[j]
        k = 0
        # Go: for k = 0; k < len(ms.cmp)-1; k++ {
        while k < len(self.cmp) - 1:
            cmp_result = self.cmp[k](p1, p2)
            if cmp_result < 0:
                return True
            if cmp_result > 0:
                return False
            k += 1
        # The last comparison decides.
        return self.cmp[k](p1, p2) < 0


def ordered_by(*cmp: CmpFunc) -> MultiSorter:
    """Go: pkg/kubelet/eviction/helpers.go orderedBy"""
    return MultiSorter(list(cmp))


def priority(p1: Pod, p2: Pod) -> int:
    """Lower priority first.

    Go: pkg/kubelet/eviction/helpers.go priority
    """
    priority1 = pod_priority(p1)
    priority2 = pod_priority(p2)
    if priority1 == priority2:
        return 0
    if priority1 > priority2:
        return 1
    return -1


def exceed_memory_requests(stats: StatsFunc) -> CmpFunc:
    """Pods using more memory than they request first (and pods with no stats before all).

    Go: pkg/kubelet/eviction/helpers.go exceedMemoryRequests
    """

    def cmp(p1: Pod, p2: Pod) -> int:
        found = _stats_of_both(stats, p1, p2)
        if isinstance(found, int):
            return found
        p1_stats, p2_stats = found

        p1_memory = memory_usage(p1_stats.memory)
        p2_memory = memory_usage(p2_stats.memory)
        p1_exceeds_requests = p1_memory.cmp(get_resource_request_quantity(p1, ResourceMemory)) == 1
        p2_exceeds_requests = p2_memory.cmp(get_resource_request_quantity(p2, ResourceMemory)) == 1
        return cmp_bool(p1_exceeds_requests, p2_exceeds_requests)

    return cmp


def memory(stats: StatsFunc) -> CmpFunc:
    """The pod using the most memory beyond its request first.

    Go: pkg/kubelet/eviction/helpers.go memory
    """

    def cmp(p1: Pod, p2: Pod) -> int:
        # Go: p1Stats, p1Found := stats(p1)
        found = _stats_of_both(stats, p1, p2)
        if isinstance(found, int):
            return found
        p1_stats, p2_stats = found

        # Usage relative to the request (zero when there is none).
        # Go: p1Memory := memoryUsage(p1Stats.Memory)
        p1_memory = memory_usage(p1_stats.memory)
        p1_request = get_resource_request_quantity(p1, ResourceMemory)
        p1_memory = p1_memory.sub(p1_request)

        p2_memory = memory_usage(p2_stats.memory)
        p2_request = get_resource_request_quantity(p2, ResourceMemory)
        p2_memory = p2_memory.sub(p2_request)

        # Reversed: the larger consumer compares as "less", so it sorts first.
        # Go: return p2Memory.Cmp(*p1Memory)
        return p2_memory.cmp(p1_memory)

    return cmp


def process(stats: StatsFunc) -> CmpFunc:
    """The pod with the most processes first.

    Go: pkg/kubelet/eviction/helpers.go process

    Go subtracts two uint64 and converts to int, which wraps to the same sign for any real
    process count; the port subtracts Python ints.
    """

    def cmp(p1: Pod, p2: Pod) -> int:
        found = _stats_of_both(stats, p1, p2)
        if isinstance(found, int):
            return found
        p1_stats, p2_stats = found

        p1_process = process_usage(p1_stats.process_stats)
        p2_process = process_usage(p2_stats.process_stats)
        return p2_process - p1_process

    return cmp


def exceed_disk_requests(
    stats: StatsFunc, fs_stats_to_measure: list[FsStatsType], disk_resource: str
) -> CmpFunc:
    """Pods using more disk (or inodes) than they request first.

    Go: pkg/kubelet/eviction/helpers.go exceedDiskRequests

    Go's ``podDiskUsage`` returns an error that is always nil; the branch for it is left out.
    """

    def cmp(p1: Pod, p2: Pod) -> int:
        found = _stats_of_both(stats, p1, p2)
        if isinstance(found, int):
            return found
        p1_stats, p2_stats = found

        p1_usage = pod_disk_usage(p1_stats, p1, fs_stats_to_measure)
        p2_usage = pod_disk_usage(p2_stats, p2, fs_stats_to_measure)

        p1_disk = p1_usage[disk_resource]
        p2_disk = p2_usage[disk_resource]
        p1_exceeds_requests = p1_disk.cmp(get_resource_request_quantity(p1, disk_resource)) == 1
        p2_exceeds_requests = p2_disk.cmp(get_resource_request_quantity(p2, disk_resource)) == 1
        return cmp_bool(p1_exceeds_requests, p2_exceeds_requests)

    return cmp


def disk(stats: StatsFunc, fs_stats_to_measure: list[FsStatsType], disk_resource: str) -> CmpFunc:
    """The pod using the most disk (or inodes) beyond its ephemeral-storage request first.

    Go: pkg/kubelet/eviction/helpers.go disk
    """

    def cmp(p1: Pod, p2: Pod) -> int:
        found = _stats_of_both(stats, p1, p2)
        if isinstance(found, int):
            return found
        p1_stats, p2_stats = found
        p1_usage = pod_disk_usage(p1_stats, p1, fs_stats_to_measure)
        p2_usage = pod_disk_usage(p2_stats, p2, fs_stats_to_measure)

        # Usage relative to the request; Go subtracts the ephemeral-storage request even when
        # it compares inodes.
        p1_disk = p1_usage[disk_resource]
        p2_disk = p2_usage[disk_resource]
        p1_request = get_resource_request_quantity(p1, ResourceEphemeralStorage)
        p1_disk = p1_disk.sub(p1_request)
        p2_request = get_resource_request_quantity(p2, ResourceEphemeralStorage)
        p2_disk = p2_disk.sub(p2_request)
        return p2_disk.cmp(p1_disk)

    return cmp


def _stats_of_both(stats: StatsFunc, p1: Pod, p2: Pod) -> tuple[PodStats, PodStats] | int:
    """Both pods' stats; or, when either has none, the comparison that puts the pod without
    stats first (ours: Go repeats these lines at the top of each comparison)."""
    p1_stats, p1_found = stats(p1)
    p2_stats, p2_found = stats(p2)
    if p1_stats is None or p2_stats is None or not p1_found or not p2_found:
        return cmp_bool(not p1_found, not p2_found)
    return p1_stats, p2_stats


def cmp_bool(a: bool, b: bool) -> int:
    """True before false.

    Go: pkg/kubelet/eviction/helpers.go cmpBool
    """
    if a == b:
        return 0
    if not b:
        return -1
    return 1


def rank_memory_pressure(pods: list[Pod], stats: StatsFunc) -> None:
    """Order pods for eviction under memory pressure: those above their memory request first,
    then lower priority first, then the most memory above the request first.

    Go: pkg/kubelet/eviction/helpers.go rankMemoryPressure
    """
    # Go: orderedBy(exceedMemoryRequests(stats), priority, memory(stats)).Sort(pods)
    ordered_by(exceed_memory_requests(stats), priority, memory(stats)).sort(pods)


def rank_pid_pressure(pods: list[Pod], stats: StatsFunc) -> None:
    """Lower priority first, then the most processes first.

    Go: pkg/kubelet/eviction/helpers.go rankPIDPressure
    """
    ordered_by(priority, process(stats)).sort(pods)


def rank_disk_pressure_func(fs_stats_to_measure: list[FsStatsType], disk_resource: str) -> RankFunc:
    """A ranking under disk pressure that counts the given kinds of usage: above the request
    first, then lower priority first, then the largest use above the request first.

    Go: pkg/kubelet/eviction/helpers.go rankDiskPressureFunc
    """

    def rank(pods: list[Pod], stats: StatsFunc) -> None:
        ordered_by(
            exceed_disk_requests(stats, fs_stats_to_measure, disk_resource),
            priority,
            disk(stats, fs_stats_to_measure, disk_resource),
        ).sort(pods)

    return rank


def by_eviction_priority_less(a: list[Threshold], i: int, j: int) -> bool:
    """Memory thresholds before all others; thresholds with no resource to reclaim last.

    Go: pkg/kubelet/eviction/helpers.go (byEvictionPriority).Less
    """
    j_signal_has_resource = a[j].signal in signalToResource
    return (
        a[i].signal == SignalMemoryAvailable
        or a[i].signal == SignalAllocatableMemoryAvailable
        or not j_signal_has_resource
    )


def sort_by_eviction_priority(thresholds: list[Threshold]) -> None:
    """Sort thresholds in place by [`by_eviction_priority_less`][] (Go: ``sort.Sort(byEvictionPriority(thresholds))``).

    Ours: Go's ``Less`` says a memory threshold is less than any other memory threshold too.
    For the few thresholds kubelet has, Go's ``sort.Sort`` is an insertion sort, which moves
    each memory threshold to the front, past the ones before it: the memory thresholds end up
    first in reverse order, the others keep theirs. Python's sort does the same with this
    ``Less`` (its first run is reversed when it descends); the tests hold it to that result.
    """
    snapshot = list(thresholds)

    def compare(i: int, j: int) -> int:
        return -1 if by_eviction_priority_less(snapshot, i, j) else 1

    order = sorted(range(len(snapshot)), key=functools.cmp_to_key(compare))
    thresholds[:] = [snapshot[i] for i in order]


def make_signal_observations(summary: Summary) -> tuple[SignalObservations, StatsFunc]:
    """What the summary says of each signal (capacity, available, when), and a lookup of the
    pods' stats.

    Go: pkg/kubelet/eviction/helpers.go makeSignalObservations
    """
    # Go: statsFunc := cachedStatsFunc(summary.Pods)
    stats_func = cached_stats_func(summary.pods)
    result: SignalObservations = {}

    # Go: if memory := summary.Node.Memory; memory != nil && memory.AvailableBytes != nil && memory.WorkingSetBytes != nil {
    node_memory = summary.node.memory
    if (
        node_memory is not None
        and node_memory.available_bytes is not None
        and node_memory.working_set_bytes is not None
    ):
        result[SignalMemoryAvailable] = SignalObservation(
            available=Quantity.from_int(node_memory.available_bytes, Format.BINARY_SI),
            capacity=Quantity.from_int(
                node_memory.available_bytes + node_memory.working_set_bytes, Format.BINARY_SI
            ),
            time=node_memory.time,
        )
    # Go: if allocatableContainer, err := getSysContainer(summary.Node.SystemContainers, statsapi.SystemContainerPods); err != nil {
    try:
        allocatable_container = get_sys_container(
            summary.node.system_containers, SystemContainerPods
        )
    except LookupError as err:
        klog.error_s(
            err,
            "Eviction manager: failed to construct signal",
            signal=SignalAllocatableMemoryAvailable,
        )
    else:
        pods_memory = allocatable_container.memory
        if (
            pods_memory is not None
            and pods_memory.available_bytes is not None
            and pods_memory.working_set_bytes is not None
        ):
            result[SignalAllocatableMemoryAvailable] = SignalObservation(
                available=Quantity.from_int(pods_memory.available_bytes, Format.BINARY_SI),
                capacity=Quantity.from_int(
                    pods_memory.available_bytes + pods_memory.working_set_bytes,
                    Format.BINARY_SI,
                ),
                time=pods_memory.time,
            )
    # Go: if nodeFs := summary.Node.Fs; nodeFs != nil {
    node_fs = summary.node.fs
    if node_fs is not None:
        if node_fs.available_bytes is not None and node_fs.capacity_bytes is not None:
            result[SignalNodeFsAvailable] = SignalObservation(
                available=Quantity.from_int(node_fs.available_bytes, Format.BINARY_SI),
                capacity=Quantity.from_int(node_fs.capacity_bytes, Format.BINARY_SI),
                time=node_fs.time,
            )
        if node_fs.inodes_free is not None and node_fs.inodes is not None:
            result[SignalNodeFsInodesFree] = SignalObservation(
                available=Quantity.from_int(node_fs.inodes_free, Format.DECIMAL_SI),
                capacity=Quantity.from_int(node_fs.inodes, Format.DECIMAL_SI),
                time=node_fs.time,
            )
    # Go: if summary.Node.Runtime != nil {
    if summary.node.runtime is not None:
        image_fs = summary.node.runtime.image_fs
        if image_fs is not None:
            if image_fs.available_bytes is not None and image_fs.capacity_bytes is not None:
                result[SignalImageFsAvailable] = SignalObservation(
                    available=Quantity.from_int(image_fs.available_bytes, Format.BINARY_SI),
                    capacity=Quantity.from_int(image_fs.capacity_bytes, Format.BINARY_SI),
                    time=image_fs.time,
                )
                # Go reads the image filesystem's inodes only when its bytes are measured.
                if image_fs.inodes_free is not None and image_fs.inodes is not None:
                    result[SignalImageFsInodesFree] = SignalObservation(
                        available=Quantity.from_int(image_fs.inodes_free, Format.DECIMAL_SI),
                        capacity=Quantity.from_int(image_fs.inodes, Format.DECIMAL_SI),
                        time=image_fs.time,
                    )
    # Go: if rlimit := summary.Node.Rlimit; rlimit != nil {
    rlimit = summary.node.rlimit
    if rlimit is not None:
        if rlimit.num_of_running_processes is not None and rlimit.max_pid is not None:
            available = rlimit.max_pid - rlimit.num_of_running_processes
            result[SignalPIDAvailable] = SignalObservation(
                available=Quantity.from_int(available, Format.DECIMAL_SI),
                capacity=Quantity.from_int(rlimit.max_pid, Format.DECIMAL_SI),
                time=rlimit.time,
            )
    return result, stats_func


def get_sys_container(sys_containers: list[ContainerStats], name: str) -> ContainerStats:
    """The system container of that name; raises LookupError (Go returns an error).

    Go: pkg/kubelet/eviction/helpers.go getSysContainer
    """
    for cont in sys_containers:
        if cont.name == name:
            return cont
    raise LookupError(f'system container "{name}" not found in metrics')


def thresholds_met(
    thresholds: list[Threshold], observations: SignalObservations, enforce_min_reclaim: bool
) -> list[Threshold]:
    """The thresholds whose signal is below them now (grace periods aside); with
    ``enforce_min_reclaim``, below them plus their minimum reclaim.

    Go: pkg/kubelet/eviction/helpers.go thresholdsMet
    """
    results: list[Threshold] = []
    # Go: for i := range thresholds {
    for threshold in thresholds:
        observed = observations.get(threshold.signal)
        if observed is None:
            klog.info_s(
                "Eviction manager: no observation found for eviction signal",
                signal=threshold.signal,
            )
            continue
        threshold_met = False
        quantity = get_threshold_quantity(threshold.value, observed.capacity)
        # With enforce_min_reclaim, the signal must climb past value + min-reclaim.
        # Go: if enforceMinReclaim && threshold.MinReclaim != nil {
        if enforce_min_reclaim and threshold.min_reclaim is not None:
            quantity = quantity.add(
                get_threshold_quantity(threshold.min_reclaim, observed.capacity)
            )
        # Go: thresholdResult := quantity.Cmp(*observed.available)
        threshold_result = quantity.cmp(observed.available)
        # Go: switch threshold.Operator {
        # Go: case evictionapi.OpLessThan:
        if threshold.operator == OpLessThan:
            threshold_met = threshold_result > 0
        if threshold_met:
            results.append(threshold)
    return results


def debug_log_observations(log_prefix: str, observations: SignalObservations) -> None:
    """Go: pkg/kubelet/eviction/helpers.go debugLogObservations"""
    if not klog.v(3).enabled:
        return
    for k, v in observations.items():
        if v.time != 0.0:
            klog.info_s(
                "Eviction manager:",
                log=log_prefix,
                signal=k,
                resourceName=go_fmt.Ptr(v.available),
                capacity=go_fmt.Ptr(v.capacity),
                time=time_string(v.time),
            )
        else:
            klog.info_s(
                "Eviction manager:",
                log=log_prefix,
                signal=k,
                resourceName=go_fmt.Ptr(v.available),
                capacity=go_fmt.Ptr(v.capacity),
            )


def debug_log_thresholds_with_observation(
    log_prefix: str, thresholds: list[Threshold], observations: SignalObservations
) -> None:
    """Go: pkg/kubelet/eviction/helpers.go debugLogThresholdsWithObservation"""
    if not klog.v(3).enabled:
        return
    for threshold in thresholds:
        observed = observations.get(threshold.signal)
        if observed is not None:
            quantity = get_threshold_quantity(threshold.value, observed.capacity)
            klog.info_s(
                "Eviction manager: threshold observed resource",
                log=log_prefix,
                signal=threshold.signal,
                quantity=go_fmt.Ptr(quantity),
                resource=go_fmt.Ptr(observed.available),
            )
        else:
            klog.info_s(
                "Eviction manager: threshold had no observation",
                log=log_prefix,
                signal=threshold.signal,
            )


def thresholds_updated_stats(
    thresholds: list[Threshold],
    observations: SignalObservations,
    last_observations: SignalObservations,
) -> list[Threshold]:
    """The thresholds whose signal was measured again since the last synchronize.

    Go: pkg/kubelet/eviction/helpers.go thresholdsUpdatedStats
    """
    results: list[Threshold] = []
    for threshold in thresholds:
        observed = observations.get(threshold.signal)
        if observed is None:
            klog.info_s(
                "Eviction manager: no observation found for eviction signal",
                signal=threshold.signal,
            )
            continue
        last = last_observations.get(threshold.signal)
        if last is None or observed.time == 0.0 or observed.time > last.time:
            results.append(threshold)
    return results


def thresholds_first_observed_at(
    thresholds: list[Threshold], last_observed_at: ThresholdsObservedAt, now: float
) -> ThresholdsObservedAt:
    """When each threshold met now was first met: its earlier time, or now.

    Go: pkg/kubelet/eviction/helpers.go thresholdsFirstObservedAt
    """
    results: ThresholdsObservedAt = {}
    for threshold in thresholds:
        observed_at = last_observed_at.get(threshold)
        if observed_at is None:
            observed_at = now
        results[threshold] = observed_at
    return results


def thresholds_met_grace_period(observed_at: ThresholdsObservedAt, now: float) -> list[Threshold]:
    """The thresholds met for at least their grace period.

    Go: pkg/kubelet/eviction/helpers.go thresholdsMetGracePeriod
    """
    results: list[Threshold] = []
    for threshold, at in observed_at.items():
        duration = now - at
        if duration < threshold.grace_period:
            klog.v(2).info_s(
                "Eviction manager: eviction criteria not yet met",
                threshold=format_threshold(threshold),
                duration=format_duration(duration),
            )
            continue
        results.append(threshold)
    return results


def node_conditions(thresholds: list[Threshold]) -> list[NodeConditionType]:
    """The node conditions the thresholds raise, each once.

    Go: pkg/kubelet/eviction/helpers.go nodeConditions
    """
    results: list[NodeConditionType] = []
    for threshold in thresholds:
        node_condition = signalToNodeCondition.get(threshold.signal)
        if node_condition is not None:
            if not has_node_condition(results, node_condition):
                results.append(node_condition)
    return results


def node_conditions_last_observed_at(
    node_conditions: list[NodeConditionType],
    last_observed_at: NodeConditionsObservedAt,
    now: float,
) -> NodeConditionsObservedAt:
    """When each condition was last seen: now for those seen now, the earlier time for the rest.

    Go: pkg/kubelet/eviction/helpers.go nodeConditionsLastObservedAt
    """
    results: NodeConditionsObservedAt = {}
    for condition in node_conditions:
        results[condition] = now
    for key, value in last_observed_at.items():
        if key not in results:
            results[key] = value
    return results


def node_conditions_observed_since(
    observed_at: NodeConditionsObservedAt, period: float, now: float
) -> list[NodeConditionType]:
    """The conditions seen within the last ``period`` seconds (the pressure transition period).

    Go: pkg/kubelet/eviction/helpers.go nodeConditionsObservedSince
    """
    results: list[NodeConditionType] = []
    for node_condition, at in observed_at.items():
        duration = now - at
        if duration < period:
            results.append(node_condition)
    return results


def has_fs_stats_type(inputs: list[FsStatsType], item: FsStatsType) -> bool:
    """Go: pkg/kubelet/eviction/helpers.go hasFsStatsType"""
    return item in inputs


def has_node_condition(inputs: list[NodeConditionType], item: NodeConditionType) -> bool:
    """Go: pkg/kubelet/eviction/helpers.go hasNodeCondition"""
    return item in inputs


def merge_thresholds(inputs_a: list[Threshold], inputs_b: list[Threshold]) -> list[Threshold]:
    """``inputs_a`` and those of ``inputs_b`` not in it.

    Go: pkg/kubelet/eviction/helpers.go mergeThresholds

    Go appends to ``inputs_a``'s array (which may share storage with the caller's slice); the
    port makes a new list.
    """
    results = list(inputs_a)
    for threshold in inputs_b:
        if not has_threshold(results, threshold):
            results.append(threshold)
    return results


def has_threshold(inputs: list[Threshold], item: Threshold) -> bool:
    """The same signal, operator, value and grace period (the minimum reclaim aside).

    Go: pkg/kubelet/eviction/helpers.go hasThreshold
    """
    for i in inputs:
        if (
            i.grace_period == item.grace_period
            and i.operator == item.operator
            and i.signal == item.signal
            and compare_threshold_value(i.value, item.value)
        ):
            return True
    return False


def compare_threshold_value(a: ThresholdValue, b: ThresholdValue) -> bool:
    """Go: pkg/kubelet/eviction/helpers.go compareThresholdValue"""
    if a.quantity is not None:
        if b.quantity is None:
            return False
        return a.quantity.cmp(b.quantity) == 0
    if b.quantity is not None:
        return False
    return a.percentage == b.percentage


def is_hard_eviction_threshold(threshold: Threshold) -> bool:
    """A threshold without a grace period is hard: it evicts at once, with no grace period.

    Go: pkg/kubelet/eviction/helpers.go isHardEvictionThreshold
    """
    return threshold.grace_period == 0


def build_signal_to_rank_func(with_image_fs: bool) -> dict[Signal, RankFunc]:
    """The ranking for each signal; which disk usage counts depends on whether images have a
    filesystem of their own.

    Go: pkg/kubelet/eviction/helpers.go buildSignalToRankFunc
    """
    signal_to_rank_func: dict[Signal, RankFunc] = {
        SignalMemoryAvailable: rank_memory_pressure,
        SignalAllocatableMemoryAvailable: rank_memory_pressure,
        SignalPIDAvailable: rank_pid_pressure,
    }
    if with_image_fs:
        # nodefs holds logs and local volumes; imagefs holds the writable layers.
        logs_and_volumes = [fsStatsLogs, fsStatsLocalVolumeSource]
        signal_to_rank_func[SignalNodeFsAvailable] = rank_disk_pressure_func(
            logs_and_volumes, ResourceEphemeralStorage
        )
        signal_to_rank_func[SignalNodeFsInodesFree] = rank_disk_pressure_func(
            logs_and_volumes, resourceInodes
        )
        signal_to_rank_func[SignalImageFsAvailable] = rank_disk_pressure_func(
            [fsStatsRoot], ResourceEphemeralStorage
        )
        signal_to_rank_func[SignalImageFsInodesFree] = rank_disk_pressure_func(
            [fsStatsRoot], resourceInodes
        )
    else:
        # One filesystem for everything: every signal counts every kind of usage.
        everything = [fsStatsRoot, fsStatsLogs, fsStatsLocalVolumeSource]
        signal_to_rank_func[SignalNodeFsAvailable] = rank_disk_pressure_func(
            everything, ResourceEphemeralStorage
        )
        signal_to_rank_func[SignalNodeFsInodesFree] = rank_disk_pressure_func(
            everything, resourceInodes
        )
        signal_to_rank_func[SignalImageFsAvailable] = rank_disk_pressure_func(
            everything, ResourceEphemeralStorage
        )
        signal_to_rank_func[SignalImageFsInodesFree] = rank_disk_pressure_func(
            everything, resourceInodes
        )
    return signal_to_rank_func


def pod_is_evicted(pod_status: PodStatus) -> bool:
    """Whether the status is that of an evicted pod: ``Failed``, reason ``Evicted``.

    Go: pkg/kubelet/eviction/helpers.go PodIsEvicted
    """
    return pod_status.phase == PodFailed and pod_status.reason == Reason


def build_signal_to_node_reclaim_funcs(
    image_gc: ImageGC, container_gc: ContainerGC, with_image_fs: bool
) -> dict[Signal, NodeReclaimFuncs]:
    """What kubelet frees before it evicts, per signal: dead containers, then unused images.

    Go: pkg/kubelet/eviction/helpers.go buildSignalToNodeReclaimFuncs
    """
    signal_to_reclaim_func: dict[Signal, NodeReclaimFuncs] = {}
    gc_both: NodeReclaimFuncs = [
        container_gc.delete_all_unused_containers,
        image_gc.delete_unused_images,
    ]
    if with_image_fs:
        # nodefs pressure has nothing to free here (Go deletes no logs either).
        signal_to_reclaim_func[SignalNodeFsAvailable] = []
        signal_to_reclaim_func[SignalNodeFsInodesFree] = []
        signal_to_reclaim_func[SignalImageFsAvailable] = list(gc_both)
        signal_to_reclaim_func[SignalImageFsInodesFree] = list(gc_both)
    else:
        signal_to_reclaim_func[SignalNodeFsAvailable] = list(gc_both)
        signal_to_reclaim_func[SignalNodeFsInodesFree] = list(gc_both)
        signal_to_reclaim_func[SignalImageFsAvailable] = list(gc_both)
        signal_to_reclaim_func[SignalImageFsInodesFree] = list(gc_both)
    return signal_to_reclaim_func


def eviction_message(
    resource_to_reclaim: ResourceName, pod: Pod, stats: StatsFunc
) -> tuple[str, dict[str, str]]:
    """The evicted pod's status message, and the annotations of its event: which containers
    used more of the resource than they requested.

    Go: pkg/kubelet/eviction/helpers.go evictionMessage
    """
    annotations: dict[str, str] = {}
    message = go_fmt.sprintf(nodeLowMessageFmt, resource_to_reclaim)
    containers: list[str] = []
    container_usage_list: list[str] = []
    pod_stats, ok = stats(pod)
    if not ok:
        return message, annotations
    assert pod_stats is not None
    for container_stats in pod_stats.containers:
        for container in pod.spec.containers:
            if container.name == container_stats.name:
                requests = container.resources.requests.get(
                    resource_to_reclaim, Quantity.from_int(0)
                )
                usage: Quantity | None = None
                # Go: switch resourceToReclaim {
                # Go: case v1.ResourceEphemeralStorage:
                if resource_to_reclaim == ResourceEphemeralStorage:
                    rootfs, logs = container_stats.rootfs, container_stats.logs
                    if (
                        rootfs is not None
                        and rootfs.used_bytes is not None
                        and logs is not None
                        and logs.used_bytes is not None
                    ):
                        usage = Quantity.from_int(
                            rootfs.used_bytes + logs.used_bytes, Format.BINARY_SI
                        )
                # Go: case v1.ResourceMemory:
                elif resource_to_reclaim == ResourceMemory:
                    mem = container_stats.memory
                    if mem is not None and mem.working_set_bytes is not None:
                        usage = Quantity.from_int(mem.working_set_bytes, Format.BINARY_SI)
                if usage is not None and usage.cmp(requests) > 0:
                    message += go_fmt.sprintf(
                        containerMessageFmt, container.name, str(usage), str(requests)
                    )
                    containers.append(container.name)
                    container_usage_list.append(str(usage))
    annotations[OffendingContainersKey] = ",".join(containers)
    annotations[OffendingContainersUsageKey] = ",".join(container_usage_list)
    annotations[StarvedResourceKey] = str(resource_to_reclaim)
    return message, annotations
