"""The generic PLEG: relist the runtime every second, compare with the last list, and tell
kubelet which pods had a container start, die or disappear.

Go: pkg/kubelet/pleg/generic.go

Each relist gets every pod from the runtime (``GetPods(true)``), computes for each container (and
sandbox) its old and new state, and turns each change into an event: running →
``ContainerStarted``, exited → ``ContainerDied``, gone → ``ContainerRemoved``. For each pod with
events it inspects the pod (``GetPodStatus``) and writes the status to the pod cache *before*
sending its events on the channel (capacity 1000), so that a pod worker woken by an event finds
a fresh status. Then it moves the cache's global timestamp to the relist time.

Go's maps iterate in random order; here dicts keep insertion order, so events of one relist come
out in the order pods were first seen. Either way a run under the virtual clock is repeatable.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from minikubelet.container.cache import Cache
from minikubelet.container.runtime import (
    Container,
    ContainerID,
    ContainerStateCreated,
    ContainerStateExited,
    ContainerStateRunning,
    ContainerStateUnknown,
    Pod,
    Pods,
    PodStatus,
    Runtime,
    State,
)
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import NEVER_STOP, until
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.pleg.pleg import PodLifecycleEvent, PodLifeCycleEventType
from minikubelet.sim import klog
from minikubelet.sim.go import Chan, Clock, Minute, go, select, send

ContainerStarted = PodLifeCycleEventType.ContainerStarted
ContainerDied = PodLifeCycleEventType.ContainerDied
ContainerRemoved = PodLifeCycleEventType.ContainerRemoved
ContainerChanged = PodLifeCycleEventType.ContainerChanged


class PlegContainerState(StrEnum):
    """A container's state as the PLEG sees it: kubelet's states, plus "non-existent".

    Go: pkg/kubelet/pleg/generic.go type plegContainerState
    """

    RUNNING = "running"
    EXITED = "exited"
    UNKNOWN = "unknown"
    NON_EXISTENT = "non-existent"


plegContainerRunning = PlegContainerState.RUNNING
plegContainerExited = PlegContainerState.EXITED
plegContainerUnknown = PlegContainerState.UNKNOWN
plegContainerNonExistent = PlegContainerState.NON_EXISTENT

#: How long without a successful relist before the PLEG is unhealthy. It needs to be greater
#: than the relisting period + the relisting time, which can vary significantly; a conservative
#: threshold avoids flipping between healthy and unhealthy. Go: relistThreshold
relistThreshold = 3 * Minute


def convert_state(state: State) -> PlegContainerState:
    """Go: pkg/kubelet/pleg/generic.go convertState"""
    match state:
        # Go: case kubecontainer.ContainerStateCreated:
        case _ if state == ContainerStateCreated:
            # kubelet doesn't use the "created" state yet, hence convert it to "unknown".
            return plegContainerUnknown
        # Go: case kubecontainer.ContainerStateRunning:
        case _ if state == ContainerStateRunning:
            return plegContainerRunning
        # Go: case kubecontainer.ContainerStateExited:
        case _ if state == ContainerStateExited:
            return plegContainerExited
        # Go: case kubecontainer.ContainerStateUnknown:
        case _ if state == ContainerStateUnknown:
            return plegContainerUnknown
        # Go: default:
        case _:
            raise RuntimeError(f"unrecognized container state: {state}")  # Go: panic


@dataclass(slots=True)
class PodRecord:
    """A pod as the last relist saw it (``old``) and as this one sees it (``current``).

    Go: pkg/kubelet/pleg/generic.go type podRecord
    """

    old: Pod | None = None
    current: Pod | None = None


class PodRecords(dict[str, PodRecord]):
    """Go: pkg/kubelet/pleg/generic.go type podRecords"""

    def get_old(self, id: str) -> Pod | None:
        """Go: pkg/kubelet/pleg/generic.go (podRecords).getOld"""
        r = self.get(id)
        return None if r is None else r.old

    def get_current(self, id: str) -> Pod | None:
        """Go: pkg/kubelet/pleg/generic.go (podRecords).getCurrent"""
        r = self.get(id)
        return None if r is None else r.current

    def set_current(self, pods: list[Pod]) -> None:
        """Go: pkg/kubelet/pleg/generic.go (podRecords).setCurrent"""
        for r in self.values():
            r.current = None
        for pod in pods:
            r = self.get(pod.id)
            if r is not None:
                r.current = pod
            else:
                self[pod.id] = PodRecord(current=pod)

    def update(self, id: str) -> None:  # type: ignore[override]
        """Go: pkg/kubelet/pleg/generic.go (podRecords).update"""
        r = self.get(id)
        if r is None:
            return
        self.update_internal(id, r)

    def update_internal(self, id: str, r: PodRecord) -> None:
        """Go: pkg/kubelet/pleg/generic.go (podRecords).updateInternal"""
        if r.current is None:
            # Pod no longer exists; delete the entry.
            del self[id]
            return
        r.old = r.current
        r.current = None


class GenericPLEG:
    """Go: pkg/kubelet/pleg/generic.go type GenericPLEG

    GenericPLEG is an extremely simple generic PLEG that relies solely on periodic listing to
    discover container changes. It assumes that a container would not be created, terminated,
    and garbage collected within one relist period: if that happens, it misses all events
    regarding that container.
    """

    def __init__(
        self,
        runtime: Runtime,
        channel_capacity: int,
        relist_period: float,
        cache: Cache | None,
        clock: Clock | None = None,
    ) -> None:
        """Go: pkg/kubelet/pleg/generic.go NewGenericPLEG

        ``clock`` defaults to the running runtime's (Go passes ``clock.RealClock{}``).
        """
        #: The period for relisting.
        self.relist_period = relist_period
        #: The container runtime.
        self.runtime = runtime
        #: The channel from which the subscriber listens events.
        self.event_channel: Chan[PodLifecycleEvent] = Chan(
            channel_capacity, name="pleg.eventChannel"
        )
        #: The internal cache for pod/container information.
        self.pod_records = PodRecords()
        #: Time of the last successful relist (None: never). Go: an atomic.Value
        self.relist_time: float | None = None
        #: Cache for storing the runtime states required for syncing pods.
        self.cache = cache
        self._clock = clock
        #: Pods that failed to have their status retrieved during a relist; retried during the
        #: next relisting.
        self.pods_to_reinspect: dict[str, Pod] = {}

    def _now(self) -> float:
        if self._clock is not None:
            return self._clock.now()
        from minikubelet.sim.go import now

        return now()

    def watch(self) -> Chan[PodLifecycleEvent]:
        """The channel the events come on.

        Go: pkg/kubelet/pleg/generic.go (*GenericPLEG).Watch
        """
        return self.event_channel

    def start(self) -> None:
        """Start relisting every ``relist_period``, in a goroutine (call inside ``go.run``).

        Go: pkg/kubelet/pleg/generic.go (*GenericPLEG).Start
        """
        go(until, self.relist, self.relist_period, NEVER_STOP, name="GenericPLEG.relist")

    def healthy(self) -> tuple[bool, Exception | None]:
        """Healthy if the last successful relist is less than ``relistThreshold`` ago.

        Go: pkg/kubelet/pleg/generic.go (*GenericPLEG).Healthy
        """
        relist_time = self.get_relist_time()
        if relist_time is None:
            return False, RuntimeError("pleg has yet to be successful")
        # Go exposes the time as a metric (pleg_last_seen_seconds) here.
        elapsed = self._now() - relist_time
        if elapsed > relistThreshold:
            from minikubelet.sim.go.duration import format_duration

            return False, RuntimeError(
                f"pleg was last seen active {format_duration(elapsed)} ago; threshold is "
                f"{format_duration(relistThreshold)}"
            )
        return True, None

    def get_relist_time(self) -> float | None:
        """Go: pkg/kubelet/pleg/generic.go (*GenericPLEG).getRelistTime"""
        return self.relist_time

    def update_relist_time(self, timestamp: float) -> None:
        """Go: pkg/kubelet/pleg/generic.go (*GenericPLEG).updateRelistTime"""
        self.relist_time = timestamp

    async def relist(self) -> None:
        """List the runtime's pods, compare with the last list, update the cache, send events.

        Go: pkg/kubelet/pleg/generic.go (*GenericPLEG).relist
        """
        klog.v(5).info_s("GenericPLEG: Relisting")

        # Go observes metrics (relist interval, relist duration) here.
        timestamp = self._now()

        # Get all the pods.
        try:
            pod_list = await self.runtime.get_pods(True)
        except Exception as err:
            klog.error_s(err, "GenericPLEG: Unable to retrieve pods")
            return

        self.update_relist_time(timestamp)

        pods = Pods(pod_list)
        # Go updates the running pod and container count metrics here.
        self.pod_records.set_current(pods)

        # Compare the old and the current pods, and generate events.
        events_by_pod_id: dict[str, list[PodLifecycleEvent]] = {}
        for pid in list(self.pod_records):
            old_pod = self.pod_records.get_old(pid)
            pod = self.pod_records.get_current(pid)
            # Get all containers in the old and the new pod.
            all_containers = get_containers_from_pods(old_pod, pod)
            for container in all_containers:
                events = compute_events(old_pod, pod, container.id)
                for e in events:
                    update_events(events_by_pod_id, e)

        needs_reinspection: dict[str, Pod] = {}

        # If there are events associated with a pod, we should update the
        # podCache.
        for pid, events in events_by_pod_id.items():
            pod = self.pod_records.get_current(pid)
            if self.cache_enabled():
                # updateCache() will inspect the pod and update the cache. If an
                # error occurs during the inspection, we want PLEG to retry again
                # in the next relist. To achieve this, we do not update the
                # associated podRecord of the pod, so that the change will be
                # detect again in the next relist.
                # TODO (in Go): If many pods changed during the same relist period,
                # inspecting the pod and getting the PodStatus to update the cache
                # serially may take a while. We should be aware of this and
                # parallelize if needed.
                err = await self.update_cache(pod, pid)
                if err is not None:
                    # Rely on updateCache calling GetPodStatus to log the actual error.
                    assert pod is not None
                    klog.v(4).error_s(
                        err,
                        "PLEG: Ignoring events for pod",
                        pod=klog.ObjectRef(pod.name, pod.namespace),
                    )

                    # make sure we try to reinspect the pod during the next relisting
                    needs_reinspection[pid] = pod

                    continue
                else:
                    # this pod was in the list to reinspect and we did so because it had
                    # events, so remove it from the list (we don't want the reinspection code
                    # below to inspect it a second time in this relist execution)
                    self.pods_to_reinspect.pop(pid, None)
            # Update the internal storage and send out the events.
            self.pod_records.update(pid)
            for event in events:
                # Filter out events that are not reliable and no other components use yet.
                if event.type == ContainerChanged:
                    continue
                match await select(send(self.event_channel, event), default=True):
                    # Go: case g.eventChannel <- events[i]:
                    case 0, _:
                        pass
                    # Go: default:
                    case _:
                        # Go increments the PLEGDiscardEvents metric here.
                        klog.error_s(
                            None, "Event channel is full, discard this relist() cycle event"
                        )

        if self.cache_enabled():
            # reinspect any pods that failed inspection during the previous relist
            if len(self.pods_to_reinspect) > 0:
                klog.v(5).info_s("GenericPLEG: Reinspecting pods that previously failed inspection")
                for pid, pod in self.pods_to_reinspect.items():
                    err = await self.update_cache(pod, pid)
                    if err is not None:
                        # Rely on updateCache calling GetPodStatus to log the actual error.
                        klog.v(5).error_s(
                            err,
                            "PLEG: pod failed reinspection",
                            pod=klog.ObjectRef(pod.name, pod.namespace),
                        )
                        needs_reinspection[pid] = pod

            # Update the cache timestamp.  This needs to happen *after*
            # all pods have been properly updated in the cache.
            assert self.cache is not None
            await self.cache.update_time(timestamp)

        # make sure we retain the list of pods that need reinspecting the next time relist is
        # called
        self.pods_to_reinspect = needs_reinspection

    def cache_enabled(self) -> bool:
        """Go: pkg/kubelet/pleg/generic.go (*GenericPLEG).cacheEnabled"""
        return self.cache is not None

    def get_pod_ips(self, pid: str, status: PodStatus) -> list[str]:
        """Keep the pod's old IPs when the new status has none and no sandbox is ready (the
        API expects a finished pod to keep its IP).

        Go: pkg/kubelet/pleg/generic.go (*GenericPLEG).getPodIPs
        """
        if len(status.ips) != 0:
            return status.ips

        assert self.cache is not None
        try:
            old_status = self.cache.get(pid)
        except Exception:
            return []
        if len(old_status.ips) == 0:
            return []

        for sandbox_status in status.sandbox_statuses:
            # If at least one sandbox is ready, then use this status update's pod IP
            if sandbox_status.state == runtimeapi.PodSandboxState_SANDBOX_READY:
                return status.ips

        # For pods with no ready containers or sandboxes (like exited pods)
        # use the old status' pod IP
        return old_status.ips

    async def update_cache(self, pod: Pod | None, pid: str) -> Exception | None:
        """Inspect the pod and write its status (or the error) to the cache.

        Go: pkg/kubelet/pleg/generic.go (*GenericPLEG).updateCache
        """
        assert self.cache is not None
        if pod is None:
            # The pod is missing in the current relist. This means that
            # the pod has no visible (active or inactive) containers.
            klog.v(4).info_s("PLEG: Delete status for pod", podUID=pid)
            self.cache.delete(pid)
            return None
        timestamp = self._now()
        # TODO (in Go): Consider adding a new runtime method
        # GetPodStatus(pod *kubecontainer.Pod) so that Docker can avoid listing
        # all containers again.
        status: PodStatus | None = None
        err: Exception | None = None
        try:
            status = await self.runtime.get_pod_status(pod.id, pod.name, pod.namespace)
        except Exception as e:
            err = e
        # Go: klog.V(6) also logs the status itself.
        klog.v(4).error_s(err, "PLEG: Write status", pod=klog.ObjectRef(pod.name, pod.namespace))
        if err is None:
            assert status is not None
            # Preserve the pod IP across cache updates if the new IP is empty.
            # When a pod is torn down, kubelet may race with PLEG and retrieve
            # a pod status after network teardown, but the kubernetes API expects
            # the completed pod's IP to be available after the pod is dead.
            status.ips = self.get_pod_ips(pid, status)

        await self.cache.set(pod.id, status, err, timestamp)
        return err


def new_generic_pleg(
    runtime: Runtime,
    channel_capacity: int,
    relist_period: float,
    cache: Cache | None,
    clock: Clock | None = None,
) -> GenericPLEG:
    """Go: pkg/kubelet/pleg/generic.go NewGenericPLEG"""
    return GenericPLEG(runtime, channel_capacity, relist_period, cache, clock)


def generate_events(
    pod_id: str, cid: str, old_state: PlegContainerState, new_state: PlegContainerState
) -> list[PodLifecycleEvent]:
    """The events for one container going from ``old_state`` to ``new_state``.

    Go: pkg/kubelet/pleg/generic.go generateEvents
    """
    if new_state == old_state:
        return []

    klog.v(4).info_s(
        "GenericPLEG", podUID=pod_id, containerID=cid, oldState=old_state, newState=new_state
    )
    match new_state:
        # Go: case plegContainerRunning:
        case PlegContainerState.RUNNING:
            return [PodLifecycleEvent(id=pod_id, type=ContainerStarted, data=cid)]
        # Go: case plegContainerExited:
        case PlegContainerState.EXITED:
            return [PodLifecycleEvent(id=pod_id, type=ContainerDied, data=cid)]
        # Go: case plegContainerUnknown:
        case PlegContainerState.UNKNOWN:
            return [PodLifecycleEvent(id=pod_id, type=ContainerChanged, data=cid)]
        # Go: case plegContainerNonExistent:
        case PlegContainerState.NON_EXISTENT:
            match old_state:
                # Go: case plegContainerExited:
                case PlegContainerState.EXITED:
                    # We already reported that the container died before.
                    return [PodLifecycleEvent(id=pod_id, type=ContainerRemoved, data=cid)]
                # Go: default:
                case _:
                    return [
                        PodLifecycleEvent(id=pod_id, type=ContainerDied, data=cid),
                        PodLifecycleEvent(id=pod_id, type=ContainerRemoved, data=cid),
                    ]
        # Go: default:
        case _:
            raise RuntimeError(f"unrecognized container state: {new_state}")  # Go: panic


def get_containers_from_pods(*pods: Pod | None) -> list[Container]:
    """Every container and sandbox of the pods, each ID once.

    Go: pkg/kubelet/pleg/generic.go getContainersFromPods
    """
    cid_set: set[str] = set()
    containers: list[Container] = []
    for p in pods:
        if p is None:
            continue
        for c in p.containers:
            cid = c.id.id
            if cid in cid_set:
                continue
            cid_set.add(cid)
            containers.append(c)
        # Update sandboxes as containers
        # TODO (in Go): keep track of sandboxes explicitly.
        for c in p.sandboxes:
            cid = c.id.id
            if cid in cid_set:
                continue
            cid_set.add(cid)
            containers.append(c)
    return containers


def compute_events(
    old_pod: Pod | None, new_pod: Pod | None, cid: ContainerID
) -> list[PodLifecycleEvent]:
    """Go: pkg/kubelet/pleg/generic.go computeEvents"""
    pid = ""
    if old_pod is not None:
        pid = old_pod.id
    elif new_pod is not None:
        pid = new_pod.id
    old_state = get_container_state(old_pod, cid)
    new_state = get_container_state(new_pod, cid)
    return generate_events(pid, cid.id, old_state, new_state)


def update_events(
    events_by_pod_id: dict[str, list[PodLifecycleEvent]], e: PodLifecycleEvent | None
) -> None:
    """Go: pkg/kubelet/pleg/generic.go updateEvents"""
    if e is None:
        return
    events_by_pod_id.setdefault(e.id, []).append(e)


def get_container_state(pod: Pod | None, cid: ContainerID) -> PlegContainerState:
    """Go: pkg/kubelet/pleg/generic.go getContainerState"""
    # Default to the non-existent state.
    state = plegContainerNonExistent
    if pod is None:
        return state
    c = pod.find_container_by_id(cid)
    if c is not None:
        return convert_state(c.state)
    # Search through sandboxes too.
    c = pod.find_sandbox_by_id(cid)
    if c is not None:
        return convert_state(c.state)

    return state
