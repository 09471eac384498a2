"""The status manager: kubelet's source of truth for the status of each pod.

Go: pkg/kubelet/status/status_manager.go

Pod workers compute a pod's status (``generateAPIPodStatus``) and hand it to
[`StatusManager.set_pod_status`][]; readiness and startup probes flip single containers with
[`set_container_readiness`][.StatusManager.set_container_readiness] and
[`set_container_startup`][.StatusManager.set_container_startup]. The manager keeps one *versioned*
status per pod: every accepted change gets the next version number, and a change that would move a
container back from terminated to running (which only a bug in kubelet could cause) is refused.
Anyone may read the cache back with [`get_pod_status`][.StatusManager.get_pod_status].

With an API server (``--api-script``), [`StatusManager.start`][] runs the sync goroutine:
each new version queued on ``podStatusChannel`` is patched into the API server at once
([`StatusManager.sync_pod`][]), and every 10 s [`StatusManager.sync_batch`][] sends what is
still behind and reconciles statuses the API server disagrees with. A static pod's status goes to
its mirror pod. A pod being deleted whose containers and volumes are gone is then deleted from
the API server for good. Without an API server, ``start`` logs
``"Kubernetes client is nil, not starting status manager"`` and nobody reads
``podStatusChannel``: after 1000 updates it is full and further updates take the select's
``default`` (the status is still cached).

Ours, not Go: ``StatusManager.on_status_change``, an optional observer called with
``(pod, new_status, old_status)`` each time a new status version is stored, so that a learner can
watch a pod go ``Pending → Running``.

Differences from Go:

* The methods that change a status are ``async def``: they end in a ``select`` (with a default,
  so they never actually block), and ``select`` is awaited here.
* Go guards ``podStatuses`` with an ``RWMutex``. Here every goroutine runs on one thread and only
  gives way at an ``await`` that blocks; nothing in these methods blocks, so no lock is taken.
* Times are float seconds since the epoch (see
[`minikubelet.k8s_io.api.core.v1`][minikubelet.k8s_io.api.core.v1]); "now" is the runtime's
  clock ([`minikubelet.go.now`][minikubelet.go.now]), virtual in tests.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from typing import Protocol

from minikubelet import go
from minikubelet.base import trace
from minikubelet.container.runtime import ContainerID, MaxPodTerminationMessageLogLength
from minikubelet.k8s_io.api.core.v1 import (
    ContainerState,
    ContainerStateTerminated,
    ContainerStatus,
    Pod,
    PodCondition,
    PodConditionType,
    PodStatus,
    RestartPolicy,
)
from minikubelet.k8s_io.api.core.v1.zz_generated_deepcopy import deep_copy
from minikubelet.k8s_io.apimachinery.pkg.api.errors.errors import is_not_found
from minikubelet.k8s_io.apimachinery.pkg.types.uid import UID
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import until
from minikubelet.k8s_io.client_go.kubernetes.clientset import Interface
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.api.v1.pod.util import (
    get_pod_condition,
    get_pod_condition_from_list,
)
from minikubelet.k8s_io.kubernetes.pkg.util.pod.pod import patch_pod_status, status_diff
from minikubelet.status.generate import (
    generate_containers_ready_condition,
    generate_pod_ready_condition,
)
from minikubelet.types import (
    is_mirror_pod,
    is_static_pod,
    pod_condition_by_kubelet,
    sort_init_container_statuses,
)

__all__ = [
    "Manager",
    "PodManager",
    "PodStatusProvider",
    "PodStatusSyncRequest",
    "StatusChangeObserver",
    "StatusManager",
    "VersionedPodStatus",
    "check_container_state_transition",
    "find_container_status",
    "is_pod_status_by_kubelet_equal",
    "need_to_reconcile_pod_readiness",
    "new_manager",
    "normalize_status",
    "update_last_transition_time",
]

#: How often the status manager syncs every status with the API server (``syncBatch``).
#: Go: syncPeriod
sync_period = 10 * go.Second


@dataclass(slots=True)
class VersionedPodStatus:
    """A pod status with a version number, so that a stale status is never sent to the API
    server.

    Go: pkg/kubelet/status/status_manager.go type versionedPodStatus
    """

    status: PodStatus = field(default_factory=PodStatus)
    #: One more with every stored change of this pod's status.
    version: int = 0
    #: The API server write (Go's syncPod) looks the pod up by these, not by UID.
    pod_name: str = ""
    pod_namespace: str = ""


@dataclass(slots=True)
class PodStatusSyncRequest:
    """What ``podStatusChannel`` carries: a pod UID and its new versioned status.

    Go: pkg/kubelet/status/status_manager.go type podStatusSyncRequest
    """

    pod_uid: str
    status: VersionedPodStatus


class PodStatusProvider(Protocol):
    """Something that knows the status of a pod (for components that need to look at it).

    Go: pkg/kubelet/status/status_manager.go type PodStatusProvider
    """

    def get_pod_status(self, uid: str) -> tuple[PodStatus, bool]:
        """The cached status for the pod UID, and whether there was one.

        Go: pkg/kubelet/status/status_manager.go PodStatusProvider.GetPodStatus
        """
        ...


class PodDeletionSafetyProvider(Protocol):
    """Says whether a pod can safely be deleted from the API server.

    Go: pkg/kubelet/status/status_manager.go type PodDeletionSafetyProvider
    """

    def pod_resources_are_reclaimed(self, pod: Pod, status: PodStatus) -> bool:
        """Go: pkg/kubelet/status/status_manager.go PodDeletionSafetyProvider.PodResourcesAreReclaimed"""
        ...


class Manager(PodStatusProvider, Protocol):
    """The source of truth for kubelet pod status (in Go it also syncs it to the API server).

    Go: pkg/kubelet/status/status_manager.go type Manager

    The two attributes are ours (see [`StatusManager`][]): kubelet reads ``generation``, the CLI
    sets ``on_status_change``.
    """

    generation: int
    changed_uids: list[str]
    on_status_change: StatusChangeObserver | None

    def start(self) -> None:
        """Start writing statuses to the API server.

        Go: pkg/kubelet/status/status_manager.go Manager.Start
        """
        ...

    async def set_pod_status(self, pod: Pod, status: PodStatus) -> None:
        """Update the cached status of the pod, and trigger a status update.

        Go: pkg/kubelet/status/status_manager.go Manager.SetPodStatus
        """
        ...

    async def set_container_readiness(
        self, pod_uid: str, container_id: ContainerID, ready: bool
    ) -> None:
        """Update one container's readiness in the cached status, and trigger a status update.

        Go: pkg/kubelet/status/status_manager.go Manager.SetContainerReadiness
        """
        ...

    async def set_container_startup(
        self, pod_uid: str, container_id: ContainerID, started: bool
    ) -> None:
        """Update one container's startup in the cached status, and trigger a status update.

        Go: pkg/kubelet/status/status_manager.go Manager.SetContainerStartup
        """
        ...

    async def terminate_pod(self, pod: Pod) -> None:
        """Mark every container of the pod terminated, and trigger a status update.

        Go: pkg/kubelet/status/status_manager.go Manager.TerminatePod
        """
        ...

    def remove_orphaned_statuses(self, pod_uids: Container[str]) -> None:
        """Forget the status of every pod not in ``pod_uids``.

        Go: pkg/kubelet/status/status_manager.go Manager.RemoveOrphanedStatuses
        """
        ...


class PodManager(Protocol):
    """The three methods of kubelet's pod manager (Go: ``kubepod.Manager``) the status manager
    calls; [`minikubelet.pod.pod_manager.BasicManager`][minikubelet.pod.pod_manager.BasicManager] has them."""

    def get_pod_by_uid(self, uid: str) -> tuple[Pod | None, bool]: ...

    def get_mirror_pod_by_pod(self, pod: Pod) -> tuple[Pod | None, bool]: ...

    def translate_pod_uid(self, uid: str) -> str: ...

    def get_uid_translations(self) -> tuple[dict[str, str], dict[str, str]]: ...


#: The observer hook's type (ours, not Go): ``(pod, new_status, old_status or None)``.
StatusChangeObserver = Callable[[Pod, PodStatus, PodStatus | None], None]


class StatusManager:
    """Caches each pod's latest status, versioned, and writes new ones to the API server when
    there is one (see the module docstring).

    Go: pkg/kubelet/status/status_manager.go type manager

    Go's ``podStatusesLock`` is left out: goroutines switch only at an ``await`` that blocks, and
    nothing done while Go holds the lock blocks here.
    """

    def __init__(
        self,
        kube_client: Interface | None,
        pod_manager: PodManager,
        pod_deletion_safety: PodDeletionSafetyProvider | None = None,
    ) -> None:
        #: The API server (the fake one of --api-script), or None without one.
        self.kube_client = kube_client
        self.pod_manager = pod_manager
        #: Asked before a finished pod is deleted from the API server (kubelet itself).
        self.pod_deletion_safety = pod_deletion_safety
        #: The cache itself, by pod UID (a static pod's, not its mirror pod's).
        self.pod_statuses: dict[str, VersionedPodStatus] = {}
        #: Read by the API server sync (`start`); without a client nobody reads it: after 1000
        #: updates it is full and `update_status_internal` takes its `default:` branch.
        self.pod_status_channel: go.Chan[PodStatusSyncRequest] = go.make_chan(
            1000, name="podStatusChannel"
        )
        #: (mirror) pod UID → the latest status version the API server has.
        self.api_status_versions: dict[str, int] = {}
        #: Ours, not Go's: counts every change to ``pod_statuses``, so that kubelet can tell
        #: whether a list it filtered by status is still valid (see filterOutTerminatedPods).
        self.generation = 0
        #: Ours: the UID each change was about, in order (``changed_uids[g]`` made generation
        #: ``g + 1``), so that kubelet can look again at those pods only.
        self.changed_uids: list[str] = []
        #: Ours, not Go: called as ``on_status_change(pod, new_status, old_status)`` right after
        #: a new status version is stored; ``old_status`` is the previously cached status, or
        #: None for the pod's first one. Must not block or change the statuses it is given.
        self.on_status_change: StatusChangeObserver | None = None

    def start(self) -> None:
        """Start syncing statuses with the API server, if there is a client.

        Go: pkg/kubelet/status/status_manager.go (*manager).Start
        """
        if self.kube_client is None:
            klog.info_s("Kubernetes client is nil, not starting status manager")
            return

        klog.info_s("Starting to sync pod status with apiserver")
        sync_ticker = go.new_ticker(sync_period)

        # One goroutine for both kinds of sync, so that they never race.
        async def sync_forever() -> None:
            while True:
                match await go.select(go.recv(self.pod_status_channel), go.recv(sync_ticker.c)):
                    # Go: case syncRequest := <-m.podStatusChannel:
                    case 0, (sync_request, _):
                        klog.v(5).info_s(
                            "Status Manager: syncing pod with status from podStatusChannel",
                            podUID=UID(sync_request.pod_uid),
                            statusVersion=sync_request.status.version,
                            status=sync_request.status.status,
                        )
                        await self.sync_pod(sync_request.pod_uid, sync_request.status)
                    # Go: case <-syncTicker:
                    case _:
                        klog.v(5).info_s("Status Manager: syncing batch")
                        # The batch covers what is queued: drop the queue.
                        for _ in range(len(self.pod_status_channel)):
                            await self.pod_status_channel.recv()
                        await self.sync_batch()

        go.go(until, sync_forever, 0, None, name="statusManager")

    def get_pod_status(self, uid: str) -> tuple[PodStatus, bool]:
        """The cached status of the pod (a mirror pod's UID is translated to its static pod's),
        and whether there was one.

        Go: pkg/kubelet/status/status_manager.go (*manager).GetPodStatus

        Go returns the status by value, a shallow copy whose lists are shared with the cache.
        The port returns the cached object itself, for speed (kubelet asks for every pod's
        status on every admission and sync): callers read it and never change it.
        """
        status = self.pod_statuses.get(self.pod_manager.translate_pod_uid(uid))
        if status is None:
            return PodStatus(), False
        return status.status, True

    async def set_pod_status(self, pod: Pod, status: PodStatus) -> None:
        """Store a deep copy of ``status`` as the pod's next version, except when it changes
        nothing or a container would come back from the dead.

        Go: pkg/kubelet/status/status_manager.go (*manager).SetPodStatus
        """
        status = deep_copy(status)  # the caller keeps its object; the cache has its own

        # A pod being deleted gets a new version even when nothing changed, so that its final
        # status (and the deletion behind it) always goes out.
        await self.update_status_internal(pod, status, pod.metadata.deletion_timestamp is not None)

    async def set_container_readiness(
        self, pod_uid: str, container_id: ContainerID, ready: bool
    ) -> None:
        """Set one container's ``ready`` in the cached status, and regenerate the pod's
        ``Ready`` and ``ContainersReady`` conditions.

        Go: pkg/kubelet/status/status_manager.go (*manager).SetContainerReadiness
        """
        pod, ok = self.pod_manager.get_pod_by_uid(pod_uid)
        if not ok or pod is None:
            klog.v(4).info_s(
                "Pod has been deleted, no need to update readiness", podUID=UID(pod_uid)
            )
            return

        old_status = self.pod_statuses.get(pod.metadata.uid)
        if old_status is None:
            klog.info_s(
                "Container readiness changed before pod has synced",
                pod=klog.kobj(pod),
                containerID=str(container_id),
            )
            return

        container_status, _, ok = find_container_status(old_status.status, str(container_id))
        if not ok or container_status is None:
            klog.info_s(
                "Container readiness changed for unknown container",
                pod=klog.kobj(pod),
                containerID=str(container_id),
            )
            return

        if container_status.ready == ready:
            klog.v(4).info_s(
                "Container readiness unchanged",
                ready=ready,
                pod=klog.kobj(pod),
                containerID=str(container_id),
            )
            return

        # Change a copy: the cached status is replaced, never changed in place.
        status = deep_copy(old_status.status)
        container_status, _, _ = find_container_status(status, str(container_id))
        assert container_status is not None  # found in the original, so in the copy
        container_status.ready = ready

        def update_condition_func(condition_type: str, condition: PodCondition) -> None:
            condition_index = -1
            for i, c in enumerate(status.conditions):
                if c.type == condition_type:
                    condition_index = i
                    break
            if condition_index != -1:
                status.conditions[condition_index] = condition
            else:
                klog.info_s(
                    "PodStatus missing condition type",
                    conditionType=condition_type,
                    status=status,
                )
                status.conditions.append(condition)

        update_condition_func(
            PodConditionType.READY,
            generate_pod_ready_condition(
                pod.spec, status.conditions, status.container_statuses, status.phase
            ),
        )
        update_condition_func(
            PodConditionType.CONTAINERS_READY,
            generate_containers_ready_condition(pod.spec, status.container_statuses, status.phase),
        )
        await self.update_status_internal(pod, status, False)

    async def set_container_startup(
        self, pod_uid: str, container_id: ContainerID, started: bool
    ) -> None:
        """Set one container's ``started`` in the cached status.

        Go: pkg/kubelet/status/status_manager.go (*manager).SetContainerStartup
        """
        pod, ok = self.pod_manager.get_pod_by_uid(pod_uid)
        if not ok or pod is None:
            klog.v(4).info_s("Pod has been deleted, no need to update startup", podUID=UID(pod_uid))
            return

        old_status = self.pod_statuses.get(pod.metadata.uid)
        if old_status is None:
            klog.info_s(
                "Container startup changed before pod has synced",
                pod=klog.kobj(pod),
                containerID=str(container_id),
            )
            return

        container_status, _, ok = find_container_status(old_status.status, str(container_id))
        if not ok or container_status is None:
            klog.info_s(
                "Container startup changed for unknown container",
                pod=klog.kobj(pod),
                containerID=str(container_id),
            )
            return

        if container_status.started is not None and container_status.started == started:
            klog.v(4).info_s(
                "Container startup unchanged",
                pod=klog.kobj(pod),
                containerID=str(container_id),
            )
            return

        status = deep_copy(old_status.status)
        container_status, _, _ = find_container_status(status, str(container_id))
        assert container_status is not None  # found in the original, so in the copy
        container_status.started = started

        await self.update_status_internal(pod, status, False)

    async def terminate_pod(self, pod: Pod) -> None:
        """Give every container that is neither terminated nor waiting a terminated state
        (reason ``ContainerStatusUnknown``, exit code 137), and force a status update.

        Go: pkg/kubelet/status/status_manager.go (*manager).TerminatePod
        """
        # Whatever was still running is gone without a trace: it is reported as failed (137),
        # since nobody saw it succeed.
        old_status = pod.status
        cached_status = self.pod_statuses.get(pod.metadata.uid)
        if cached_status is not None:
            old_status = cached_status.status
        status = deep_copy(old_status)
        for container_status in status.container_statuses:
            state = container_status.state
            if state.terminated is not None or state.waiting is not None:
                continue
            container_status.state = ContainerState(
                terminated=ContainerStateTerminated(
                    reason="ContainerStatusUnknown",
                    message="The container could not be located when the pod was terminated",
                    exit_code=137,
                )
            )
        for container_status in status.init_container_statuses:
            state = container_status.state
            if state.terminated is not None or state.waiting is not None:
                continue
            container_status.state = ContainerState(
                terminated=ContainerStateTerminated(
                    reason="ContainerStatusUnknown",
                    message="The container could not be located when the pod was terminated",
                    exit_code=137,
                )
            )

        await self.update_status_internal(pod, status, True)

    async def update_status_internal(self, pod: Pod, status: PodStatus, force_update: bool) -> bool:
        """Store ``status`` as the pod's next status version and queue it for the API server.
        Returns whether an update was queued.

        Go: pkg/kubelet/status/status_manager.go (*manager).updateStatusInternal
        """
        # Go: cachedStatus, isCached := m.podStatuses[pod.UID]
        cached_status = self.pod_statuses.get(pod.metadata.uid)
        is_cached = cached_status is not None
        # Go: if isCached {
        if cached_status is not None:
            old_status = cached_status.status
        else:
            mirror_pod, ok = self.pod_manager.get_mirror_pod_by_pod(pod)
            if ok and mirror_pod is not None:
                old_status = mirror_pod.status
            else:
                old_status = pod.status
            cached_status = VersionedPodStatus()  # Go: the map's zero value (version 0)

        # Go: if err := checkContainerStateTransition(oldStatus.ContainerStatuses,
        try:
            check_container_state_transition(
                old_status.container_statuses, status.container_statuses, pod.spec.restart_policy
            )
        except ValueError as err:
            klog.error_s(err, "Status update on pod aborted", pod=klog.kobj(pod))
            return False
        # Go: if err := checkContainerStateTransition(oldStatus.InitContainerStatuses,
        try:
            check_container_state_transition(
                old_status.init_container_statuses,
                status.init_container_statuses,
                pod.spec.restart_policy,
            )
        except ValueError as err:
            klog.error_s(err, "Status update on pod aborted", pod=klog.kobj(pod))
            return False

        # Go: updateLastTransitionTime(&status, &oldStatus, v1.ContainersReady)
        update_last_transition_time(status, old_status, PodConditionType.CONTAINERS_READY)
        # Go: updateLastTransitionTime(&status, &oldStatus, v1.PodReady)
        update_last_transition_time(status, old_status, PodConditionType.READY)
        # Go: updateLastTransitionTime(&status, &oldStatus, v1.PodInitialized)
        update_last_transition_time(status, old_status, PodConditionType.INITIALIZED)
        # Go: updateLastTransitionTime(&status, &oldStatus, v1.PodScheduled)
        update_last_transition_time(status, old_status, PodConditionType.POD_SCHEDULED)

        # The first status fixes the start time; later ones cannot move it.
        # Go: if oldStatus.StartTime != nil && !oldStatus.StartTime.IsZero() {
        if old_status.start_time is not None:
            status.start_time = old_status.start_time
        elif status.start_time is None:
            status.start_time = go.now().unix()

        # Go: normalizeStatus(pod, &status)
        normalize_status(pod, status)
        # Go: if isCached && isPodStatusByKubeletEqual(&cachedStatus.status, &status) && !forceUpdate {
        if (
            is_cached
            and is_pod_status_by_kubelet_equal(cached_status.status, status)
            and not force_update
        ):
            klog.v(5).info_s("Ignoring same status for pod", pod=klog.kobj(pod), status=status)
            return False  # No new status.

        # Go: newStatus := versionedPodStatus{
        new_status = VersionedPodStatus(
            status=status,
            version=cached_status.version + 1,
            pod_name=pod.metadata.name,
            pod_namespace=pod.metadata.namespace,
        )
        # Go: m.podStatuses[pod.UID] = newStatus
        self.pod_statuses[pod.metadata.uid] = new_status
        trace.pod_status(pod, status)
        self.generation += 1
        self.changed_uids.append(pod.metadata.uid)

        # Ours, not Go: let an observer (the CLI) see the change.
        if self.on_status_change is not None:
            self.on_status_change(pod, status, cached_status.status if is_cached else None)

        # Go: select {
        match await go.select(
            go.send(self.pod_status_channel, PodStatusSyncRequest(pod.metadata.uid, new_status)),
            default=True,
        ):
            # Go: case m.podStatusChannel <- podStatusSyncRequest{pod.UID, newStatus}:
            case 0, _:
                klog.v(5).info_s(
                    "Status Manager: adding pod with new status to podStatusChannel",
                    pod=klog.kobj(pod),
                    podUID=UID(pod.metadata.uid),
                    statusVersion=new_status.version,
                    status=new_status.status,
                )
                return True
            # Go: default:
            case _:
                # Go cannot wait here (it holds the statuses lock); its periodic syncBatch
                # would send the status later.
                klog.v(4).info_s(
                    "Skipping the status update for pod for now because the channel is full",
                    pod=klog.kobj(pod),
                    status=status,
                )
                return False

    def delete_pod_status(self, uid: str) -> None:
        """Forget one pod's status (it is gone from the API server too).

        Go: pkg/kubelet/status/status_manager.go (*manager).deletePodStatus
        """
        self.pod_statuses.pop(uid, None)
        self.generation += 1
        self.changed_uids.append(uid)

    def remove_orphaned_statuses(self, pod_uids: Container[str]) -> None:
        """Forget the status of every pod whose UID is not in ``pod_uids`` (a set, or a dict as
        Go's ``map[types.UID]bool``).

        Go: pkg/kubelet/status/status_manager.go (*manager).RemoveOrphanedStatuses
        """
        for key in list(self.pod_statuses):  # a copy: we delete while iterating
            if key not in pod_uids:
                klog.v(5).info_s("Removing pod from status map.", podUID=UID(key))
                del self.pod_statuses[key]
                self.generation += 1
                self.changed_uids.append(key)

    async def sync_batch(self) -> None:
        """Sync every status the API server is behind on, or disagrees with.

        Go: pkg/kubelet/status/status_manager.go (*manager).syncBatch
        """
        updated_statuses: list[PodStatusSyncRequest] = []
        pod_to_mirror, mirror_to_pod = self.pod_manager.get_uid_translations()
        # Forget the versions of pods that are gone.
        for uid in list(self.api_status_versions):
            has_pod = uid in self.pod_statuses
            has_mirror = uid in mirror_to_pod
            if not has_pod and not has_mirror:
                del self.api_status_versions[uid]

        for uid, status in self.pod_statuses.items():
            synced_uid = uid
            mirror_uid = pod_to_mirror.get(uid)
            if mirror_uid is not None:
                if mirror_uid == "":
                    klog.v(5).info_s(
                        "Static pod does not have a corresponding mirror pod; skipping",
                        podUID=UID(uid),
                        pod=klog.ObjectRef(status.pod_name, status.pod_namespace),
                    )
                    continue
                synced_uid = mirror_uid
            if self.needs_update(synced_uid, status):
                updated_statuses.append(PodStatusSyncRequest(uid, status))
            elif self.needs_reconcile(uid, status.status):
                # Forget the version sent, so that the sync below sends this one again.
                self.api_status_versions.pop(synced_uid, None)
                updated_statuses.append(PodStatusSyncRequest(uid, status))

        for update in updated_statuses:
            klog.v(5).info_s("Status Manager: syncPod in syncbatch", podUID=UID(update.pod_uid))
            await self.sync_pod(update.pod_uid, update.status)

    async def sync_pod(self, uid: str, status: VersionedPodStatus) -> None:
        """Patch one pod's status into the API server, and delete the pod there once it is
        being deleted and nothing of it is left on the node.

        Go: pkg/kubelet/status/status_manager.go (*manager).syncPod
        """
        if not self.needs_update(uid, status):
            klog.v(1).info_s("Status for pod is up-to-date; skipping", podUID=UID(uid))
            return

        client = self.kube_client
        assert client is not None  # syncing runs only with a client (start)
        try:
            pod = client.get_pod(status.pod_namespace, status.pod_name)
        except Exception as err:
            if is_not_found(err):
                klog.v(3).info_s(
                    "Pod does not exist on the server",
                    podUID=UID(uid),
                    pod=klog.ObjectRef(status.pod_name, status.pod_namespace),
                )
                # RemoveOrphanedStatuses clears the status of a deleted pod.
                return
            klog.info_s(
                "Failed to get status for pod",
                podUID=UID(uid),
                pod=klog.ObjectRef(status.pod_name, status.pod_namespace),
                error=err,
            )
            return

        translated_uid = self.pod_manager.translate_pod_uid(pod.metadata.uid)
        if len(translated_uid) > 0 and translated_uid != uid:
            klog.v(2).info_s(
                "Pod was deleted and then recreated, skipping status update",
                pod=klog.kobj(pod),
                oldPodUID=uid,
                podUID=UID(translated_uid),
            )
            self.delete_pod_status(uid)
            return

        old_status = deep_copy(pod.status)
        try:
            new_pod, patch_bytes, unchanged = patch_pod_status(
                client,
                pod.metadata.namespace,
                pod.metadata.name,
                pod.metadata.uid,
                old_status,
                merge_pod_status(old_status, status.status),
            )
        except Exception as err:
            klog.v(3).info_s("Patch status for pod", pod=klog.kobj(pod), patchBytes=None)
            klog.info_s("Failed to update status for pod", pod=klog.kobj(pod), err=err)
            return
        klog.v(3).info_s("Patch status for pod", pod=klog.kobj(pod), patchBytes=patch_bytes)
        if unchanged:
            klog.v(3).info_s(
                "Status for pod is up-to-date", pod=klog.kobj(pod), statusVersion=status.version
            )
        else:
            klog.v(3).info_s(
                "Status for pod updated successfully",
                pod=klog.kobj(pod),
                statusVersion=status.version,
                status=status.status,
            )
            assert new_pod is not None  # a patch that changed something returns the pod
            pod = new_pod

        self.api_status_versions[pod.metadata.uid] = status.version

        # Mirror pods are never deleted gracefully (canBeDeleted refuses them).
        if self.can_be_deleted(pod, status.status):
            # Grace period 0, and the UID as a precondition: never a new pod of the same name.
            try:
                client.delete_pod(pod.metadata.namespace, pod.metadata.name, uid=pod.metadata.uid)
            except Exception as err:
                klog.info_s("Failed to delete status for pod", pod=klog.kobj(pod), err=err)
                return
            klog.v(3).info_s("Pod fully terminated and removed from etcd", pod=klog.kobj(pod))
            self.delete_pod_status(uid)

    def needs_update(self, uid: str, status: VersionedPodStatus) -> bool:
        """Whether the API server has an older version, or the pod can now be deleted.

        Go: pkg/kubelet/status/status_manager.go (*manager).needsUpdate
        """
        latest = self.api_status_versions.get(uid)
        if latest is None or latest < status.version:
            return True
        pod, ok = self.pod_manager.get_pod_by_uid(uid)
        if not ok or pod is None:
            return False
        return self.can_be_deleted(pod, status.status)

    def can_be_deleted(self, pod: Pod, status: PodStatus) -> bool:
        """A pod being deleted (not a mirror pod) whose resources are all reclaimed.

        Go: pkg/kubelet/status/status_manager.go (*manager).canBeDeleted
        """
        if pod.metadata.deletion_timestamp is None or is_mirror_pod(pod):
            return False
        assert self.pod_deletion_safety is not None
        return self.pod_deletion_safety.pod_resources_are_reclaimed(pod, status)

    def needs_reconcile(self, uid: str, status: PodStatus) -> bool:
        """Whether the status the API server has (as the pod manager last saw it) differs from
        kubelet's: kubelet owns pod status, so it sends its own again.

        Go: pkg/kubelet/status/status_manager.go (*manager).needsReconcile
        """
        pod, ok = self.pod_manager.get_pod_by_uid(uid)
        if not ok or pod is None:
            klog.v(4).info_s("Pod has been deleted, no need to reconcile", podUID=UID(uid))
            return False
        # A static pod's status lives in its mirror pod.
        if is_static_pod(pod):
            mirror_pod, ok = self.pod_manager.get_mirror_pod_by_pod(pod)
            if not ok or mirror_pod is None:
                klog.v(4).info_s(
                    "Static pod has no corresponding mirror pod, no need to reconcile",
                    pod=klog.kobj(pod),
                )
                return False
            pod = mirror_pod

        pod_status = deep_copy(pod.status)
        normalize_status(pod, pod_status)

        if is_pod_status_by_kubelet_equal(pod_status, status):
            return False
        # Go prints diff.ObjectDiff of the two; the port prints the merge patch between them.
        klog.v(3).info_s(
            "Pod status is inconsistent with cached status for pod, a reconciliation should be "
            "triggered",
            pod=klog.kobj(pod),
            statusDiff=status_diff(pod_status, status),
        )
        return True


def merge_pod_status(old_pod_status: PodStatus, new_pod_status: PodStatus) -> PodStatus:
    """The new status, keeping the old one's conditions that kubelet does not own.

    Go: pkg/kubelet/status/status_manager.go mergePodStatus
    """
    pod_conditions: list[PodCondition] = []
    for c in old_pod_status.conditions:
        if not pod_condition_by_kubelet(c.type):
            pod_conditions.append(c)

    for c in new_pod_status.conditions:
        if pod_condition_by_kubelet(c.type):
            pod_conditions.append(c)
    merged = copy.copy(new_pod_status)
    merged.conditions = pod_conditions
    return merged


def new_manager(
    kube_client: Interface | None,
    pod_manager: PodManager,
    pod_deletion_safety: PodDeletionSafetyProvider | None = None,
) -> StatusManager:
    """A status manager; ``kube_client`` is None without an API server.

    Go: pkg/kubelet/status/status_manager.go NewManager
    """
    return StatusManager(kube_client, pod_manager, pod_deletion_safety)


def is_pod_status_by_kubelet_equal(old_status: PodStatus, status: PodStatus) -> bool:
    """Whether the two statuses are equal, leaving out conditions kubelet does not own.

    Go: pkg/kubelet/status/status_manager.go isPodStatusByKubeletEqual
    """
    old_copy = deep_copy(old_status)
    for c in status.conditions:
        if pod_condition_by_kubelet(c.type):
            _, oc = get_pod_condition(old_copy, c.type)
            if (
                oc is None
                or oc.status != c.status
                or oc.message != c.message
                or oc.reason != c.reason
            ):
                return False
    old_copy.conditions = status.conditions
    # Go: apiequality.Semantic.DeepEqual, which (like dataclass ==) treats nil and empty lists
    # alike.
    return old_copy == status


def find_container_status(
    status: PodStatus, container_id: str
) -> tuple[ContainerStatus | None, bool, bool]:
    """The status of the container with this ID (``type://id``), whether it is an init
    container, and whether it was found. The status returned is the one in ``status``, so
    changing it changes ``status`` (Go returns a pointer into the slice).

    Go: pkg/kubelet/status/status_manager.go findContainerStatus
    """
    for c in status.container_statuses:
        if c.container_id == container_id:
            return c, False, True

    for c in status.init_container_statuses:
        if c.container_id == container_id:
            return c, True, True

    return None, False, False


def check_container_state_transition(
    old_statuses: list[ContainerStatus],
    new_statuses: list[ContainerStatus],
    restart_policy: RestartPolicy,
) -> None:
    """Refuse a container going from terminated back to not terminated (a kubelet bug), unless
    the restart policy lets it restart.

    Go: pkg/kubelet/status/status_manager.go checkContainerStateTransition

    Raises ValueError where Go returns an error.
    """
    if restart_policy == RestartPolicy.ALWAYS:
        return
    for old_status in old_statuses:
        if old_status.state.terminated is None:
            continue
        if (
            old_status.state.terminated.exit_code != 0
            and restart_policy == RestartPolicy.ON_FAILURE
        ):
            continue
        for new_status in new_statuses:
            if old_status.name == new_status.name and new_status.state.terminated is None:
                raise ValueError(
                    f"terminated container {new_status.name} attempted illegal transition "
                    "to non-terminated state"
                )


def update_last_transition_time(
    status: PodStatus, old_status: PodStatus, condition_type: str
) -> None:
    """Set the condition's last transition time: now if its status changed (or it is new), else
    the old condition's.

    Go: pkg/kubelet/status/status_manager.go updateLastTransitionTime
    """
    _, condition = get_pod_condition(status, condition_type)
    if condition is None:
        return
    last_transition_time: float | None = go.now().unix()
    _, old_condition = get_pod_condition(old_status, condition_type)
    if old_condition is not None and condition.status == old_condition.status:
        last_transition_time = old_condition.last_transition_time
    condition.last_transition_time = last_transition_time


def _rfc3339_copy(t: float | None) -> float | None:
    """``t`` truncated to whole seconds, as a round trip through RFC 3339 does in Go
    (``metav1.Time.Rfc3339Copy``). Unset stays unset."""
    return None if t is None else float(math.floor(t))


def _truncate_bytes(s: str, n: int) -> str:
    """The first ``n`` bytes of ``s`` in UTF-8. Go slices the bytes and may cut a character in
    two; here a character cut in two is dropped."""
    b = s.encode()
    return s if len(b) <= n else b[:n].decode(errors="ignore")


def normalize_status(pod: Pod, status: PodStatus) -> PodStatus:
    """Make two statuses that mean the same compare equal: times cut to whole seconds (all the
    API server keeps), termination messages cut to a share of 12 KiB, container statuses in
    a fixed order. Changes ``status`` in place and returns it.

    Go: pkg/kubelet/status/status_manager.go normalizeStatus
    """
    bytes_per_status = MaxPodTerminationMessageLogLength
    containers = len(pod.spec.containers) + len(pod.spec.init_containers)
    if containers > 0:
        bytes_per_status = bytes_per_status // containers

    def normalize_container_state(c: ContainerState) -> None:
        if c.running is not None:
            c.running.started_at = _rfc3339_copy(c.running.started_at)
        if c.terminated is not None:
            c.terminated.started_at = _rfc3339_copy(c.terminated.started_at)
            c.terminated.finished_at = _rfc3339_copy(c.terminated.finished_at)
            if len(c.terminated.message.encode()) > bytes_per_status:
                c.terminated.message = _truncate_bytes(c.terminated.message, bytes_per_status)

    if status.start_time is not None:
        status.start_time = _rfc3339_copy(status.start_time)
    for condition in status.conditions:
        condition.last_probe_time = _rfc3339_copy(condition.last_probe_time)
        condition.last_transition_time = _rfc3339_copy(condition.last_transition_time)

    for cstatus in status.container_statuses:
        normalize_container_state(cstatus.state)
        normalize_container_state(cstatus.last_state)  # Go: LastTerminationState
    # By name (Go: kubetypes.SortedContainerStatuses); init containers keep the spec's order,
    # which is their order of execution.
    status.container_statuses.sort(key=lambda s: s.name)

    for cstatus in status.init_container_statuses:
        normalize_container_state(cstatus.state)
        normalize_container_state(cstatus.last_state)
    sort_init_container_statuses(pod, status.init_container_statuses)
    return status


def need_to_reconcile_pod_readiness(pod: Pod) -> bool:
    """Whether the pod's ``Ready`` condition is out of date with its readiness gates.

    Go: pkg/kubelet/status/status_manager.go NeedToReconcilePodReadiness
    """
    # minikubelet.k8s_io.api.core.v1's PodSpec has no readiness_gates yet: none until it does.
    if len(getattr(pod.spec, "readiness_gates", None) or []) == 0:
        return False
    pod_ready_condition = generate_pod_ready_condition(
        pod.spec, pod.status.conditions, pod.status.container_statuses, pod.status.phase
    )
    i, cur_condition = get_pod_condition_from_list(pod.status.conditions, PodConditionType.READY)
    return (
        i >= 0
        and cur_condition is not None
        and (
            cur_condition.status != pod_ready_condition.status
            or cur_condition.message != pod_ready_condition.message
        )
    )
