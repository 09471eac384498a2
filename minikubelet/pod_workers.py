"""Pod workers: one goroutine per pod, syncing it one update at a time.

Go: pkg/kubelet/pod_workers.go

This is the *classic* design of v1.21.3 (v1.22 rewrote pod workers into a state machine). Every
pod UID gets a goroutine (``managePodLoop``) fed by a channel of capacity 1. While a sync runs,
new updates for that pod are not queued: only the **latest** is kept
(``lastUndeliveredWorkUpdate``) and delivered when the sync finishes. After each sync the pod is
put back on the work queue, to be synced again after the resync interval, or after a back-off if
the sync failed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from minikubelet.base import trace
from minikubelet.events import ExceededGracePeriod, FailedSync
from minikubelet.eviction.types import KillPodFunc
from minikubelet.go import Chan, Nanosecond, Second, after, go, make_chan, now, recv, select
from minikubelet.k8s_io.api.core.v1 import Pod, PodStatus
from minikubelet.k8s_io.apimachinery.pkg.types.uid import UID
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import jitter
from minikubelet.k8s_io.client_go.tools.record.event import EventRecorder, EventTypeWarning
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.types import SyncPodType
from minikubelet.util.queue.work_queue import WorkQueue

#: A function invoked when an operation completes; its argument is the error, or None.
OnCompleteFunc = Callable[[Exception | None], Awaitable[None] | None]
#: A function invoked to generate a pod status (``PodStatusFunc`` in Go).
PodStatusFunc = Callable[[Pod, Any], PodStatus]

#: Jitter factor for the resync interval. Go: workerResyncIntervalJitterFactor
workerResyncIntervalJitterFactor = 0.5
#: Jitter factor for the back-off periods. Go: workerBackOffPeriodJitterFactor
workerBackOffPeriodJitterFactor = 0.5
#: Back-off when a transient error occurred. Go: backOffOnTransientErrorPeriod
backOffOnTransientErrorPeriod = 1 * Second

#: Go: NetworkNotReadyErrorMsg (pkg/kubelet/errors.go)
NetworkNotReadyErrorMsg = "network is not ready"


@dataclass
class KillPodOptions:
    """Go: pkg/kubelet/pod_workers.go type KillPodOptions"""

    #: Sets the pod's status in response to the kill.
    pod_status_func: PodStatusFunc | None = None
    #: Overrides the pod's termination grace period.
    pod_termination_grace_period_seconds_override: int | None = None


@dataclass
class UpdatePodOptions:
    """What a pod worker is asked to do.

    Go: pkg/kubelet/pod_workers.go type UpdatePodOptions
    """

    pod: Pod
    #: The mirror pod, for a static pod.
    mirror_pod: Pod | None = None
    #: create, update, sync or kill.
    update_type: SyncPodType = SyncPodType.SYNC
    #: Called when the operation completes (only guaranteed for kills: others may be dropped).
    on_complete_func: OnCompleteFunc | None = None
    kill_pod_options: KillPodOptions | None = None


@dataclass
class SyncPodOptions:
    """The arguments of one sync.

    Go: pkg/kubelet/pod_workers.go type syncPodOptions
    """

    mirror_pod: Pod | None
    pod: Pod
    update_type: SyncPodType
    #: The runtime's view of the pod (kubecontainer.PodStatus) when the sync starts.
    pod_status: Any
    kill_pod_options: KillPodOptions | None


#: The function a worker calls to sync a pod: Kubelet.syncPod. Go: syncPodFnType
SyncPodFnType = Callable[[SyncPodOptions], Awaitable[None]]


class PodCache(Protocol):
    """What pod workers need of the pod cache (kubecontainer.Cache)."""

    async def get_newer_than(self, pod_uid: str, min_time: float) -> Any:
        """Go: pkg/kubelet/container/cache.go Cache.GetNewerThan"""
        ...


class PodWorkers(Protocol):
    """Go: pkg/kubelet/pod_workers.go type PodWorkers"""

    async def update_pod(self, options: UpdatePodOptions) -> None:
        """Go: pkg/kubelet/pod_workers.go PodWorkers.UpdatePod"""
        ...

    def forget_non_existing_pod_workers(self, desired_pods: set[str]) -> None:
        """Go: pkg/kubelet/pod_workers.go PodWorkers.ForgetNonExistingPodWorkers"""
        ...

    def forget_worker(self, uid: str) -> None:
        """Go: pkg/kubelet/pod_workers.go PodWorkers.ForgetWorker"""
        ...


class PodWorkersImpl:
    """Go: pkg/kubelet/pod_workers.go type podWorkers

    Go guards these maps with ``podLock``; goroutines here only switch at an ``await``, and no
    method awaits while the maps are half-updated, so no lock is needed.
    """

    def __init__(
        self,
        sync_pod_fn: SyncPodFnType,
        recorder: EventRecorder,
        work_queue: WorkQueue,
        resync_interval: float,
        back_off_period: float,
        pod_cache: PodCache,
    ) -> None:
        """Go: pkg/kubelet/pod_workers.go newPodWorkers"""
        #: pod UID → the channel its worker goroutine reads.
        # Go: return &podWorkers{
        self.pod_updates: dict[str, Chan[UpdatePodOptions]] = {}
        #: pod UID → whether its worker is busy with an update.
        self.is_working: dict[str, bool] = {}
        #: pod UID → the latest update that came while the worker was busy.
        self.last_undelivered_work_update: dict[str, UpdatePodOptions] = {}
        self.work_queue = work_queue
        self.sync_pod_fn = sync_pod_fn
        self.recorder = recorder
        self.back_off_period = back_off_period
        self.resync_interval = resync_interval
        self.pod_cache = pod_cache

    async def manage_pod_loop(self, pod_updates: Chan[UpdatePodOptions]) -> None:
        """The goroutine of one pod: sync it for each update that arrives.

        Go: pkg/kubelet/pod_workers.go (*podWorkers).managePodLoop
        """
        # Go: var lastSyncTime time.Time
        last_sync_time = 0.0
        # Go: for update := range podUpdates {
        async for update in pod_updates:
            err: Exception | None = None
            # Go: err := func() error {
            try:
                # Go: podUID := update.Pod.UID
                pod_uid = update.pod.metadata.uid
                # Go: status, err := p.podCache.GetNewerThan(podUID, lastSyncTime)
                # Blocks until the cache has a status of the pod newer than the end of the last
                # sync, so the worker never syncs from a status older than its own last work.
                try:
                    status = await self.pod_cache.get_newer_than(pod_uid, last_sync_time)
                # Go: if err != nil {
                except Exception as e:
                    # The only event the loop itself records; syncPod records the others.
                    self.recorder.eventf(
                        update.pod, EventTypeWarning, FailedSync, "error determining status: %s", e
                    )
                    raise
                # Go: err = p.syncPodFn(syncPodOptions{
                try:
                    await self.sync_pod_fn(
                        SyncPodOptions(
                            mirror_pod=update.mirror_pod,
                            pod=update.pod,
                            pod_status=status,
                            kill_pod_options=update.kill_pod_options,
                            update_type=update.update_type,
                        )
                    )
                finally:
                    # Go: lastSyncTime = time.Now()
                    # A sync takes time in Go, so lastSyncTime is always later than a relist
                    # that started before it ended. Under the virtual clock no time passes
                    # during a sync: one nanosecond stands for it, or the relist at this same
                    # instant would count as newer and wake the worker for a second sync.
                    last_sync_time = now() + Nanosecond
            except Exception as e:
                err = e
            # Go: if update.OnCompleteFunc != nil {
            if update.on_complete_func is not None:
                result = update.on_complete_func(err)
                if result is not None:
                    await result
            # Go: if err != nil {
            if err is not None:
                # syncPodFn logs its own errors; this is the one line the loop adds.
                klog.error_s(
                    err,
                    "Error syncing pod, skipping",
                    pod=klog.kobj(update.pod),
                    podUID=UID(update.pod.metadata.uid),
                )
            # Go: p.wrapUp(update.Pod.UID, err)
            await self.wrap_up(update.pod.metadata.uid, err)

    async def update_pod(self, options: UpdatePodOptions) -> None:
        """Hand an update to the pod's worker, starting the worker if the pod is new.

        Go: pkg/kubelet/pod_workers.go (*podWorkers).UpdatePod

        If the worker is busy, the update waits in ``last_undelivered_work_update``, replacing
        any update already waiting there unless that one is a kill.
        """
        # Go: pod := options.Pod
        pod = options.pod
        uid = pod.metadata.uid
        # Go: if podUpdates, exists = p.podUpdates[uid]; !exists {
        pod_updates = self.pod_updates.get(uid)
        if pod_updates is None:
            # Go: podUpdates = make(chan UpdatePodOptions, 1)
            # A buffer of 1: checkForUpdates sends from the worker's own goroutine, when the
            # channel is known to be empty.
            pod_updates = make_chan(1, name=f"podUpdates {pod.metadata.name}")
            self.pod_updates[uid] = pod_updates
            # Go: go func() {
            # A new worker means a new pod or a restarted kubelet; either way the first sync
            # believes the pod's status.
            go(self.manage_pod_loop, pod_updates, name=f"podWorker {klog.kobj(pod)}")
        # Go: if !p.isWorking[pod.UID] {
        if not self.is_working.get(uid, False):
            self.is_working[uid] = True
            trace.pod_worker(self, uid)
            await pod_updates.send(options)
        else:
            # A pending kill is never replaced: whatever came after it would undo it.
            # Go: update, found := p.lastUndeliveredWorkUpdate[pod.UID]
            update = self.last_undelivered_work_update.get(uid)
            if update is None or update.update_type != SyncPodType.KILL:
                self.last_undelivered_work_update[uid] = options
                trace.pod_worker(self, uid)

    def remove_worker(self, uid: str) -> None:
        """Go: pkg/kubelet/pod_workers.go (*podWorkers).removeWorker"""
        # Go: if ch, ok := p.podUpdates[uid]; ok {
        ch = self.pod_updates.get(uid)
        if ch is not None:
            ch.close()
            del self.pod_updates[uid]
            # The worker could not deliver it to the closed channel anyway.
            self.last_undelivered_work_update.pop(uid, None)

    def forget_worker(self, uid: str) -> None:
        """Go: pkg/kubelet/pod_workers.go (*podWorkers).ForgetWorker"""
        self.remove_worker(uid)

    def forget_non_existing_pod_workers(self, desired_pods: set[str]) -> None:
        """Go: pkg/kubelet/pod_workers.go (*podWorkers).ForgetNonExistingPodWorkers"""
        for key in list(self.pod_updates):
            if key not in desired_pods:
                self.remove_worker(key)

    async def wrap_up(self, uid: str, sync_err: Exception | None) -> None:
        """Requeue the pod for its next sync, then deliver any update that came meanwhile.

        Go: pkg/kubelet/pod_workers.go (*podWorkers).wrapUp
        """
        # Go: switch {
        # Go: case syncErr == nil:
        if sync_err is None:
            self.work_queue.enqueue(
                uid, jitter(self.resync_interval, workerResyncIntervalJitterFactor)
            )
        # Go: case strings.Contains(syncErr.Error(), NetworkNotReadyErrorMsg):
        elif NetworkNotReadyErrorMsg in str(sync_err):
            # A network that is not ready yet usually is within seconds: a short back-off.
            self.work_queue.enqueue(
                uid, jitter(backOffOnTransientErrorPeriod, workerBackOffPeriodJitterFactor)
            )
        # Go: default:
        else:
            # Go: p.workQueue.Enqueue(uid, wait.Jitter(p.backOffPeriod, workerBackOffPeriodJitterFactor))
            self.work_queue.enqueue(
                uid, jitter(self.back_off_period, workerBackOffPeriodJitterFactor)
            )
        # Go: p.checkForUpdates(uid)
        await self.check_for_updates(uid)

    async def check_for_updates(self, uid: str) -> None:
        """Go: pkg/kubelet/pod_workers.go (*podWorkers).checkForUpdates"""
        # Go omitted: p.podLock.Lock() -- goroutines here switch only at an await (see the class)
        # Go omitted: defer p.podLock.Unlock() -- no lock taken
        # Go: if workUpdate, exists := p.lastUndeliveredWorkUpdate[uid]; exists {
        work_update = self.last_undelivered_work_update.pop(uid, None)
        if work_update is not None:
            await self.pod_updates[uid].send(work_update)
        else:
            self.is_working[uid] = False
        trace.pod_worker(self, uid)


def kill_pod_now(pod_workers: PodWorkers, recorder: EventRecorder) -> KillPodFunc:
    """A function that kills a pod through its worker and waits for it (or times out).

    Go: pkg/kubelet/pod_workers.go killPodNow

    kubelet hands it to the parts that must stop a pod at once (eviction, preemption of a
    critical pod's victims, shutdown); it is the one way into syncPod's kill branch.
    """

    # Go: return func(pod *v1.Pod, status v1.PodStatus, gracePeriodOverride *int64) error {
    async def kill(pod: Pod, status: PodStatus, grace_period_override: int | None) -> None:
        # Go: gracePeriod := int64(0)
        grace_period = 0
        # Go: if gracePeriodOverride != nil {
        if grace_period_override is not None:
            grace_period = grace_period_override
        elif pod.spec.termination_grace_period_seconds is not None:
            grace_period = pod.spec.termination_grace_period_seconds

        # Time out if no callback comes within a reasonable time: the grace period and a half,
        # at least 10 s (time for kubelet → runtime traffic to complete a SIGKILL).
        # Go: timeout := int64(gracePeriod + (gracePeriod / 2))
        timeout = grace_period + grace_period // 2
        # Go: minTimeout := int64(10)
        min_timeout = 10
        # Go: if timeout < minTimeout {
        if timeout < min_timeout:
            timeout = min_timeout
        # Go: timeoutDuration := time.Duration(timeout) * time.Second
        timeout_duration = timeout * Second

        # Go: ch := make(chan response, 1)
        ch: Chan[Exception | None] = make_chan(1, name="killPodNow response")

        async def on_complete(err: Exception | None) -> None:
            await ch.send(err)

        # Go: podWorkers.UpdatePod(&UpdatePodOptions{
        await pod_workers.update_pod(
            UpdatePodOptions(
                pod=pod,
                update_type=SyncPodType.KILL,
                on_complete_func=on_complete,
                kill_pod_options=KillPodOptions(
                    pod_status_func=lambda p, pod_status: status,
                    pod_termination_grace_period_seconds_override=grace_period_override,
                ),
            )
        )

        # Go: select {
        match await select(recv(ch), recv(after(timeout_duration))):
            # Go: case r := <-ch:
            case 0, (r, _):
                if r is not None:
                    raise r
            # Go: case <-time.After(timeoutDuration):
            case _:
                recorder.eventf(
                    pod,
                    EventTypeWarning,
                    ExceededGracePeriod,
                    "Container runtime did not kill the pod within specified grace period.",
                )
                raise TimeoutError("timeout waiting to kill pod")

    return kill
