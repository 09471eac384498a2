"""The eviction manager: beside the sync loop, it watches the node's memory, disk and process IDs,
reports pressure, refuses pods under pressure, and evicts pods when a threshold is met.

Go: pkg/kubelet/eviction/eviction_manager.go

Read [`ManagerImpl.synchronize`][] first: one pass measures the node (the stats summary), finds
the thresholds met (with their grace periods), updates the node conditions, and — when a
threshold calls for it — frees what it can without pods, then ranks the active pods and kills
the first it may. [`ManagerImpl.start`][] runs a pass every ``monitoring_interval`` (kubelet: 10 s)
on a goroutine of its own; after an eviction it waits (at most 30 s) for the pod to be cleaned
up instead. [`ManagerImpl.admit`][] is the admit handler kubelet asks before it admits a pod.

Not ported: the kernel's memcg notifications (Go's ``memory_threshold_notifier.go`` and
``threshold_notifier_linux.go``), which wake ``synchronize`` early when memory crosses a
threshold. kubelet starts them only with ``--kernel-memcg-notification``, false by default in
v1.21, and they need a cgroup filesystem the simulated node does not have; the 10 s loop alone
is kubelet's default behaviour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minikubelet.eviction.api import Signal, Threshold
from minikubelet.eviction.helpers import (
    Reason,
    build_signal_to_node_reclaim_funcs,
    build_signal_to_rank_func,
    containerEphemeralStorageMessageFmt,
    debug_log_observations,
    debug_log_thresholds_with_observation,
    disk_usage,
    emptyDirMessageFmt,
    eviction_message,
    get_reclaimable_threshold,
    has_node_condition,
    is_hard_eviction_threshold,
    make_signal_observations,
    merge_thresholds,
    node_conditions,
    node_conditions_last_observed_at,
    node_conditions_observed_since,
    nodeConditionMessageFmt,
    podEphemeralStorageMessageFmt,
    sort_by_eviction_priority,
    thresholds_first_observed_at,
    thresholds_met,
    thresholds_met_grace_period,
    thresholds_updated_stats,
)
from minikubelet.eviction.types import (
    ActivePodsFunc,
    Config,
    ContainerGC,
    DiskInfoProvider,
    ImageGC,
    KillPodFunc,
    MirrorPodFunc,
    NodeConditionsObservedAt,
    NodeReclaimFuncs,
    PodCleanedUpFunc,
    RankFunc,
    SignalObservations,
    StatsFunc,
    ThresholdsObservedAt,
)
from minikubelet.go import Clock, Second, go, new_ticker, new_timer, recv, select, sleep
from minikubelet.go import fmt as go_fmt
from minikubelet.k8s_io.api.core.v1 import (
    NodeConditionType,
    NodeDiskPressure,
    NodeMemoryPressure,
    NodePIDPressure,
    ObjectReference,
    Pod,
    PodFailed,
    PodQOSBestEffort,
    PodStatus,
    ResourceEphemeralStorage,
    ResourceName,
    Taint,
    TaintEffectNoSchedule,
    TaintNodeMemoryPressure,
    resource_list_storage_ephemeral,
)
from minikubelet.k8s_io.client_go.tools.record.event import EventRecorder, EventTypeWarning
from minikubelet.k8s_io.component_helpers.scheduling.corev1.helpers import (
    tolerations_tolerate_taint,
)
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1 import PodStats
from minikubelet.k8s_io.kubernetes.pkg.api.v1.resource.helpers import pod_requests_and_limits
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.qos.qos import get_pod_qos
from minikubelet.lifecycle.interfaces import PodAdmitAttributes, PodAdmitResult
from minikubelet.server.stats.summary import SummaryProvider
from minikubelet.types.pod_update import is_critical_pod
from minikubelet.util import format

if TYPE_CHECKING:
    from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity

#: How long the manager waits for an evicted pod to be cleaned up, and how often it looks.
podCleanupTimeout = 30 * Second
podCleanupPollFreq = 1 * Second

# Go's signalEphemeralContainerFsLimit, signalEphemeralPodFsLimit and signalEmptyDirFsLimit name
# the eviction metrics of the local-storage limits; the port keeps no metrics.

#: Go: pkg/kubelet/eviction/memory_threshold_notifier.go notifierRefreshInterval: how often the
#: memcg notifiers' thresholds are refreshed (there are none here; see the module docstring).
notifierRefreshInterval = 10 * Second

#: The local-storage limits are enforced by ``synchronize`` when the LocalStorageCapacityIsolation
#: feature gate is on: beta, on by default, in v1.21 (the port has no feature gates).
LocalStorageCapacityIsolation = True


class ManagerImpl:
    """Go: pkg/kubelet/eviction/eviction_manager.go type managerImpl

    Go guards the fields with an ``RWMutex``, since ``Admit`` and the ``IsUnder…Pressure``
    methods run on other goroutines than ``synchronize``; goroutines here switch only at an
    ``await``, and no method awaits while the fields are half-updated, so there is no lock.
    """

    def __init__(
        self,
        *,
        clock: Clock,
        config: Config,
        kill_pod_func: KillPodFunc,
        mirror_pod_func: MirrorPodFunc,
        image_gc: ImageGC,
        container_gc: ContainerGC,
        recorder: EventRecorder,
        summary_provider: SummaryProvider,
        node_ref: ObjectReference,
    ) -> None:
        self.clock = clock
        self.config = config
        self.kill_pod_func = kill_pod_func
        self.mirror_pod_func = mirror_pod_func
        self.image_gc = image_gc
        self.container_gc = container_gc
        #: The pressure conditions the node reports now.
        self.node_conditions: list[NodeConditionType] = []
        self.node_conditions_last_observed_at: NodeConditionsObservedAt = {}
        self.node_ref = node_ref
        self.recorder = recorder
        self.summary_provider = summary_provider
        self.thresholds_first_observed_at: ThresholdsObservedAt = {}
        #: The thresholds met (grace periods included) and not yet resolved.
        self.thresholds_met: list[Threshold] = []
        self.signal_to_rank_func: dict[Signal, RankFunc] = {}
        self.signal_to_node_reclaim_funcs: dict[Signal, NodeReclaimFuncs] = {}
        self.last_observations: SignalObservations = {}
        #: Whether images have a filesystem of their own; None until the first synchronize.
        self.dedicated_image_fs: bool | None = None
        self.thresholds_last_updated = 0.0

    async def admit(self, attrs: PodAdmitAttributes) -> PodAdmitResult:
        """Refuse a pod while the node is under pressure: under memory pressure alone only
        BestEffort pods (unless they tolerate the memory-pressure taint), under any other
        pressure every pod. Critical pods are always admitted.

        Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).Admit
        """
        # Go omitted: m.RLock() -- no lock (see the class)
        if len(self.node_conditions) == 0:
            return PodAdmitResult(admit=True)
        # Critical pods keep the node running: admitted under any pressure.
        # Go: if kubelettypes.IsCriticalPod(attrs.Pod) {
        if is_critical_pod(attrs.pod):
            return PodAdmitResult(admit=True)

        # Go: nodeOnlyHasMemoryPressureCondition := hasNodeCondition(m.nodeConditions, v1.NodeMemoryPressure) && len(m.nodeConditions) == 1
        node_only_has_memory_pressure_condition = (
            has_node_condition(self.node_conditions, NodeMemoryPressure)
            and len(self.node_conditions) == 1
        )
        # Go: if nodeOnlyHasMemoryPressureCondition {
        if node_only_has_memory_pressure_condition:
            not_best_effort = PodQOSBestEffort != get_pod_qos(attrs.pod)
            if not_best_effort:
                return PodAdmitResult(admit=True)

            # A BestEffort pod that tolerates the memory-pressure taint is admitted; other
            # tolerations (disk pressure …) do not help it.
            if tolerations_tolerate_taint(
                attrs.pod.spec.tolerations,
                Taint(key=TaintNodeMemoryPressure, effect=TaintEffectNoSchedule),
            ):
                return PodAdmitResult(admit=True)

        # Go: klog.InfoS("Failed to admit pod to node", "pod", klog.KObj(attrs.Pod), "nodeCondition", m.nodeConditions)
        klog.info_s(
            "Failed to admit pod to node",
            pod=klog.kobj(attrs.pod),
            nodeCondition=self.node_conditions,
        )
        return PodAdmitResult(
            admit=False,
            reason=Reason,
            message=go_fmt.sprintf(nodeConditionMessageFmt, self.node_conditions),
        )

    def start(
        self,
        disk_info_provider: DiskInfoProvider,
        pod_func: ActivePodsFunc,
        pod_cleaned_up_func: PodCleanedUpFunc,
        monitoring_interval: float,
    ) -> None:
        """Start the goroutine that runs [`synchronize`][] every ``monitoring_interval``.

        Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).Start

        Go sleeps with ``time.Sleep`` (the wall clock, not the manager's); the port sleeps on
        the run's clock, virtual or real, which is the same thing in a real run.
        """
        # Go omitted: if m.config.KernelMemcgNotification { -- memcg notifications are not ported (see the module docstring); the flag is false by default

        # Go: go func() {
        async def monitor() -> None:
            while True:
                evicted_pods = await self.synchronize(disk_info_provider, pod_func)
                if evicted_pods is not None:
                    klog.info_s(
                        "Eviction manager: pods evicted, waiting for pod to be cleaned up",
                        pods=format.pods(evicted_pods),
                    )
                    await self.wait_for_pods_cleanup(pod_cleaned_up_func, evicted_pods)
                else:
                    await sleep(monitoring_interval)

        go(monitor, name="evictionManager")

    def is_under_memory_pressure(self) -> bool:
        """Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).IsUnderMemoryPressure"""
        return has_node_condition(self.node_conditions, NodeMemoryPressure)

    def is_under_disk_pressure(self) -> bool:
        """Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).IsUnderDiskPressure"""
        return has_node_condition(self.node_conditions, NodeDiskPressure)

    def is_under_pid_pressure(self) -> bool:
        """Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).IsUnderPIDPressure"""
        return has_node_condition(self.node_conditions, NodePIDPressure)

    async def synchronize(
        self, disk_info_provider: DiskInfoProvider, pod_func: ActivePodsFunc
    ) -> list[Pod] | None:
        """One pass of the control loop; returns the pods it evicted (at most one), or None.

        Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).synchronize
        """
        # Go: thresholds := m.config.Thresholds
        thresholds = self.config.thresholds
        if len(thresholds) == 0 and not LocalStorageCapacityIsolation:
            return None

        klog.v(3).info_s("Eviction manager: synchronize housekeeping")
        # The ranking and reclaim functions depend on the disks: built on the first pass.
        # Go: if m.dedicatedImageFs == nil {
        if self.dedicated_image_fs is None:
            try:
                has_image_fs = disk_info_provider.has_dedicated_image_fs()
            except Exception:
                return None
            self.dedicated_image_fs = has_image_fs
            self.signal_to_rank_func = build_signal_to_rank_func(has_image_fs)
            self.signal_to_node_reclaim_funcs = build_signal_to_node_reclaim_funcs(
                self.image_gc, self.container_gc, has_image_fs
            )

        # Go: activePods := podFunc()
        active_pods = pod_func()
        update_stats = True
        try:
            summary = self.summary_provider.get(update_stats)
        except Exception as err:
            klog.error_s(err, "Eviction manager: failed to get summary stats")
            return None

        # Go: if m.clock.Since(m.thresholdsLastUpdated) > notifierRefreshInterval {
        if self.clock.now() - self.thresholds_last_updated > notifierRefreshInterval:
            self.thresholds_last_updated = self.clock.now()
            # Go omitted: for _, notifier := range m.thresholdNotifiers { -- no memcg notifiers (see the module docstring)

        # Go: observations, statsFunc := makeSignalObservations(summary)
        observations, stats_func = make_signal_observations(summary)
        debug_log_observations("observations", observations)

        # The thresholds met now, grace periods aside.
        # Go: thresholds = thresholdsMet(thresholds, observations, false)
        thresholds = thresholds_met(thresholds, observations, False)
        debug_log_thresholds_with_observation(
            "thresholds - ignoring grace period", thresholds, observations
        )

        # Thresholds met before stay until their minimum reclaim is freed too.
        # Go: if len(m.thresholdsMet) > 0 {
        if len(self.thresholds_met) > 0:
            thresholds_not_yet_resolved = thresholds_met(self.thresholds_met, observations, True)
            thresholds = merge_thresholds(thresholds, thresholds_not_yet_resolved)
        debug_log_thresholds_with_observation(
            "thresholds - reclaim not satisfied", thresholds, observations
        )

        # Go: now := m.clock.Now()
        now = self.clock.now()
        first_observed_at = thresholds_first_observed_at(
            thresholds, self.thresholds_first_observed_at, now
        )

        # Go: nodeConditions := nodeConditions(thresholds)
        conditions = node_conditions(thresholds)
        if len(conditions) > 0:
            klog.v(3).info_s(
                "Eviction manager: node conditions - observed", nodeCondition=conditions
            )

        last_observed_at = node_conditions_last_observed_at(
            conditions, self.node_conditions_last_observed_at, now
        )

        # A condition stays on for the pressure transition period after it was last seen.
        # Go: nodeConditions = nodeConditionsObservedSince(nodeConditionsLastObservedAt, m.config.PressureTransitionPeriod, now)
        conditions = node_conditions_observed_since(
            last_observed_at, self.config.pressure_transition_period, now
        )
        if len(conditions) > 0:
            klog.v(3).info_s(
                "Eviction manager: node conditions - transition period not met",
                nodeCondition=conditions,
            )

        # Only thresholds met for their whole grace period drive evictions.
        # Go: thresholds = thresholdsMetGracePeriod(thresholdsFirstObservedAt, now)
        thresholds = thresholds_met_grace_period(first_observed_at, now)
        debug_log_thresholds_with_observation(
            "thresholds - grace periods satisfied", thresholds, observations
        )

        # Go: m.Lock()
        self.node_conditions = conditions
        self.thresholds_first_observed_at = first_observed_at
        self.node_conditions_last_observed_at = last_observed_at
        self.thresholds_met = thresholds

        # Act only on signals measured again since the last pass.
        # Go: thresholds = thresholdsUpdatedStats(thresholds, observations, m.lastObservations)
        thresholds = thresholds_updated_stats(thresholds, observations, self.last_observations)
        debug_log_thresholds_with_observation(
            "thresholds - updated stats", thresholds, observations
        )

        self.last_observations = observations
        # Go: m.Unlock()

        # A pod over its local-storage limits is evicted first, and that is all for this pass.
        # Go: if utilfeature.DefaultFeatureGate.Enabled(features.LocalStorageCapacityIsolation) {
        if LocalStorageCapacityIsolation:
            evicted_pods = await self.local_storage_eviction(active_pods, stats_func)
            if len(evicted_pods) > 0:
                return evicted_pods

        if len(thresholds) == 0:
            klog.v(3).info_s("Eviction manager: no resources are starved")
            return None

        # Memory first.
        # Go: sort.Sort(byEvictionPriority(thresholds))
        sort_by_eviction_priority(thresholds)
        threshold_to_reclaim, resource_to_reclaim, found_any = get_reclaimable_threshold(thresholds)
        if not found_any:
            return None
        assert threshold_to_reclaim is not None
        klog.info_s("Eviction manager: attempting to reclaim", resourceName=resource_to_reclaim)

        # Go: m.recorder.Eventf(m.nodeRef, v1.EventTypeWarning, "EvictionThresholdMet", "Attempting to reclaim %s", resourceToReclaim)
        self.recorder.eventf(
            self.node_ref,
            EventTypeWarning,
            "EvictionThresholdMet",
            "Attempting to reclaim %s",
            resource_to_reclaim,
        )

        # Free what the node can without touching pods (dead containers, unused images).
        # Go: if m.reclaimNodeLevelResources(thresholdToReclaim.Signal, resourceToReclaim) {
        if await self.reclaim_node_level_resources(
            threshold_to_reclaim.signal, resource_to_reclaim
        ):
            klog.info_s(
                "Eviction manager: able to reduce resource pressure without evicting pods.",
                resourceName=resource_to_reclaim,
            )
            return None

        klog.info_s(
            "Eviction manager: must evict pod(s) to reclaim", resourceName=resource_to_reclaim
        )

        # Go: rank, ok := m.signalToRankFunc[thresholdToReclaim.Signal]
        rank = self.signal_to_rank_func.get(threshold_to_reclaim.signal)
        if rank is None:
            klog.error_s(
                None,
                "Eviction manager: no ranking function for signal",
                threshold=threshold_to_reclaim.signal,
            )
            return None

        # Only pods that run anything can be evicted.
        if len(active_pods) == 0:
            klog.error_s(
                None,
                "Eviction manager: eviction thresholds have been met, but no pods are active to evict",
            )
            return None

        # Go: rank(activePods, statsFunc)
        rank(active_pods, stats_func)

        klog.info_s("Eviction manager: pods ranked for eviction", pods=format.pods(active_pods))

        # Go omitted: for _, t := range thresholds { -- it records the age of the stats in a metric; the port keeps no metrics

        # At most one pod per pass: the first of the ranking that may be evicted.
        # Go: for i := range activePods {
        for pod in active_pods:
            grace_period_override = 0
            if not is_hard_eviction_threshold(threshold_to_reclaim):
                grace_period_override = self.config.max_pod_grace_period_seconds
            message, annotations = eviction_message(resource_to_reclaim, pod, stats_func)
            # Go: if m.evictPod(pod, gracePeriodOverride, message, annotations) {
            if await self.evict_pod(pod, grace_period_override, message, annotations):
                return [pod]
        klog.info_s("Eviction manager: unable to evict any pods from the node")
        return None

    async def wait_for_pods_cleanup(
        self, pod_cleaned_up_func: PodCleanedUpFunc, pods: list[Pod]
    ) -> None:
        """Wait until every evicted pod is cleaned up from the node, at most 30 s.

        Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).waitForPodsCleanup
        """
        # Go: timeout := m.clock.NewTimer(podCleanupTimeout)
        timeout = new_timer(podCleanupTimeout)
        ticker = new_ticker(podCleanupPollFreq)
        try:
            while True:
                # Go: select {
                match await select(recv(timeout.c), recv(ticker.c)):
                    # Go: case <-timeout.C():
                    case 0, _:
                        klog.info_s(
                            "Eviction manager: timed out waiting for pods to be cleaned up",
                            pods=format.pods(pods),
                        )
                        return
                    # Go: case <-ticker.C():
                    case _:
                        # Go: for i, pod := range pods {
                        for i, pod in enumerate(pods):
                            if not pod_cleaned_up_func(pod):
                                break
                            if i == len(pods) - 1:
                                klog.info_s(
                                    "Eviction manager: pods successfully cleaned up",
                                    pods=format.pods(pods),
                                )
                                return
        finally:
            # Go: defer timeout.Stop() and defer ticker.Stop()
            timeout.stop()
            ticker.stop()

    async def reclaim_node_level_resources(
        self, signal_to_reclaim: Signal, resource_to_reclaim: ResourceName
    ) -> bool:
        """Run the reclaim functions of the signal (container and image garbage collection);
        True when the thresholds are no longer met afterwards, so no pod need be evicted.

        Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).reclaimNodeLevelResources
        """
        node_reclaim_funcs = self.signal_to_node_reclaim_funcs.get(signal_to_reclaim, [])
        for node_reclaim_func in node_reclaim_funcs:
            try:
                await node_reclaim_func()
            except Exception as err:
                klog.info_s(
                    "Eviction manager: unexpected error when attempting to reduce resource pressure",
                    resourceName=resource_to_reclaim,
                    err=err,
                )

        # Go: if len(nodeReclaimFuncs) > 0 {
        if len(node_reclaim_funcs) > 0:
            try:
                summary = self.summary_provider.get(True)
            except Exception as err:
                klog.error_s(
                    err, "Eviction manager: failed to get summary stats after resource reclaim"
                )
                return False

            # Measure again, and see whether any threshold is still met.
            observations, _ = make_signal_observations(summary)
            debug_log_observations("observations after resource reclaim", observations)

            thresholds = thresholds_met(self.config.thresholds, observations, False)
            debug_log_thresholds_with_observation(
                "thresholds after resource reclaim - ignoring grace period",
                thresholds,
                observations,
            )

            if len(thresholds) == 0:
                return True
        return False

    async def local_storage_eviction(self, pods: list[Pod], stats_func: StatsFunc) -> list[Pod]:
        """Evict the pods over a local-storage limit: an emptyDir's ``sizeLimit``, the pod's
        ephemeral-storage limit, or a container's.

        Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).localStorageEviction
        """
        evicted: list[Pod] = []
        for pod in pods:
            pod_stats, ok = stats_func(pod)
            if not ok:
                continue
            assert pod_stats is not None

            if await self.empty_dir_limit_eviction(pod_stats, pod):
                evicted.append(pod)
                continue

            if await self.pod_ephemeral_storage_limit_eviction(pod_stats, pod):
                evicted.append(pod)
                continue

            if await self.container_ephemeral_storage_limit_eviction(pod_stats, pod):
                evicted.append(pod)

        return evicted

    async def empty_dir_limit_eviction(self, pod_stats: PodStats, pod: Pod) -> bool:
        """Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).emptyDirLimitEviction"""
        pod_volume_used: dict[str, Quantity] = {}
        for volume_stats in pod_stats.volume_stats:
            pod_volume_used[volume_stats.name] = disk_usage(volume_stats.fs_stats)
        for volume in pod.spec.volumes:
            empty_dir = volume.volume_source.get("emptyDir")
            if empty_dir is not None:
                size = _size_limit(empty_dir)
                used = pod_volume_used.get(volume.name)
                if (
                    used is not None
                    and size is not None
                    and size.sign() == 1
                    and used.cmp(size) > 0
                ):
                    # The emptyDir holds more than its size limit: evict the pod.
                    # Go counts the eviction in a metric, then returns evictPod's answer.
                    return await self.evict_pod(
                        pod,
                        0,
                        go_fmt.sprintf(emptyDirMessageFmt, volume.name, str(size)),
                        None,
                    )

        return False

    async def pod_ephemeral_storage_limit_eviction(self, pod_stats: PodStats, pod: Pod) -> bool:
        """Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).podEphemeralStorageLimitEviction"""
        _, pod_limits = pod_requests_and_limits(pod)
        pod_ephemeral_storage_limit = pod_limits.get(ResourceEphemeralStorage)
        if pod_ephemeral_storage_limit is None:
            return False

        # The pod's whole use: writable layers, logs, emptyDir volumes.
        pod_ephemeral_storage_total_usage = disk_usage(pod_stats.ephemeral_storage)
        if pod_ephemeral_storage_total_usage.cmp(pod_ephemeral_storage_limit) > 0:
            # Go counts the eviction in a metric, then returns evictPod's answer.
            return await self.evict_pod(
                pod,
                0,
                go_fmt.sprintf(podEphemeralStorageMessageFmt, str(pod_ephemeral_storage_limit)),
                None,
            )
        return False

    async def container_ephemeral_storage_limit_eviction(
        self, pod_stats: PodStats, pod: Pod
    ) -> bool:
        """Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).containerEphemeralStorageLimitEviction"""
        thresholds_map: dict[str, Quantity] = {}
        for container in pod.spec.containers:
            ephemeral_limit = resource_list_storage_ephemeral(container.resources.limits)
            if ephemeral_limit.value() != 0:
                thresholds_map[container.name] = ephemeral_limit

        for container_stat in pod_stats.containers:
            # The logs count always; the writable layer only when it shares the node's disk.
            container_used = disk_usage(container_stat.logs)
            if not self.dedicated_image_fs:
                container_used = container_used.add(disk_usage(container_stat.rootfs))

            ephemeral_storage_threshold = thresholds_map.get(container_stat.name)
            if ephemeral_storage_threshold is not None:
                if ephemeral_storage_threshold.cmp(container_used) < 0:
                    # Go counts the eviction in a metric, then returns evictPod's answer.
                    return await self.evict_pod(
                        pod,
                        0,
                        go_fmt.sprintf(
                            containerEphemeralStorageMessageFmt,
                            container_stat.name,
                            str(ephemeral_storage_threshold),
                        ),
                        None,
                    )
        return False

    async def evict_pod(
        self,
        pod: Pod,
        grace_period_override: int,
        evict_msg: str,
        annotations: dict[str, str] | None,
    ) -> bool:
        """Kill the pod through its pod worker with the status ``Failed``/``Evicted``; False for a
        critical pod, which is never evicted.

        Go: pkg/kubelet/eviction/eviction_manager.go (*managerImpl).evictPod

        Static pods are critical, and kubelet would not admit them again after an eviction.
        """
        # Go: if kubelettypes.IsCriticalPod(pod) {
        if is_critical_pod(pod):
            klog.error_s(None, "Eviction manager: cannot evict a critical pod", pod=klog.kobj(pod))
            return False
        # Go: status := v1.PodStatus{
        status = PodStatus(phase=PodFailed, message=evict_msg, reason=Reason)
        # Go: m.recorder.AnnotatedEventf(pod, annotations, v1.EventTypeWarning, Reason, evictMsg)
        self.recorder.annotated_eventf(pod, annotations, EventTypeWarning, Reason, evict_msg)
        # Blocks until the pod's containers are killed (or killPodNow times out).
        # Go: err := m.killPodFunc(pod, status, &gracePeriodOverride)
        try:
            await self.kill_pod_func(pod, status, grace_period_override)
        except Exception as err:
            klog.error_s(err, "Eviction manager: pod failed to evict", pod=klog.kobj(pod))
        else:
            klog.info_s("Eviction manager: pod is evicted successfully", pod=klog.kobj(pod))
        return True


def new_manager(
    summary_provider: SummaryProvider,
    config: Config,
    kill_pod_func: KillPodFunc,
    mirror_pod_func: MirrorPodFunc,
    image_gc: ImageGC,
    container_gc: ContainerGC,
    recorder: EventRecorder,
    node_ref: ObjectReference,
    clock: Clock,
) -> tuple[ManagerImpl, ManagerImpl]:
    """The manager, and the same object as kubelet's admit handler.

    Go: pkg/kubelet/eviction/eviction_manager.go NewManager
    """
    manager = ManagerImpl(
        clock=clock,
        kill_pod_func=kill_pod_func,
        mirror_pod_func=mirror_pod_func,
        image_gc=image_gc,
        container_gc=container_gc,
        config=config,
        recorder=recorder,
        summary_provider=summary_provider,
        node_ref=node_ref,
    )
    return manager, manager


def _size_limit(empty_dir: dict[str, object]) -> Quantity | None:
    """An emptyDir's ``sizeLimit`` (ours: the port keeps a volume source as written, so the
    quantity is parsed here; validation has already refused a bad one)."""
    from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity

    raw = empty_dir.get("sizeLimit")
    if raw is None:
        return None
    if isinstance(raw, Quantity):
        return raw
    return Quantity.parse(str(raw))
