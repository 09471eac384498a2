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
from minikubelet.go import Chan, Clock, Minute, go, select, send
from minikubelet.k8s_io.apimachinery.pkg.types.uid import UID
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import NEVER_STOP, until
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.pleg.pleg import (
    ContainerChanged,
    ContainerDied,
    ContainerRemoved,
    ContainerStarted,
    PodLifecycleEvent,
)


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

#: How long without a successful relist before the PLEG is unhealthy: far more than the
#: one-second period, because a relist on a busy node can itself take long.
relistThreshold = 3 * Minute


def convert_state(state: State) -> PlegContainerState:
    """Go: pkg/kubelet/pleg/generic.go convertState"""
    match state:
        # Go: case kubecontainer.ContainerStateCreated:
        case _ if state == ContainerStateCreated:
            # Created but not started: nothing for kubelet to act on yet.
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
            record = self.get(pod.id)
            if record is not None:
                record.current = pod
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
            del self[id]
            return
        r.old = r.current
        r.current = None


class GenericPLEG:
    """Go: pkg/kubelet/pleg/generic.go type GenericPLEG

    It only ever sees snapshots, one per relist: a container that is created, exits and is
    removed between two relists never produces an event.
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
        self.relist_period = relist_period
        self.runtime = runtime
        #: Read by kubelet's sync loop (``plegCh``).
        self.event_channel: Chan[PodLifecycleEvent] = Chan(
            channel_capacity, name="pleg.eventChannel"
        )
        #: The pods as the last relist saw them, to compare the next one with.
        self.pod_records = PodRecords()
        #: Time of the last successful relist (None: never). Go: an atomic.Value
        self.relist_time: float | None = None
        #: kubelet's pod cache, which this PLEG alone writes.
        self.cache = cache
        self._clock = clock
        #: Pods whose GetPodStatus failed in the last relist: asked again in the next one.
        self.pods_to_reinspect: dict[str, Pod] = {}

    def _now(self) -> float:
        if self._clock is not None:
            return self._clock.now()
        from minikubelet.go import now

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
        # Go: relistTime := g.getRelistTime()
        relist_time = self.get_relist_time()
        # Go: if relistTime.IsZero() {
        if relist_time is None:
            return False, RuntimeError("pleg has yet to be successful")
        # Rounded to the microsecond (ours): two float times near 1.6e9 s differ by ~0.2 µs of
        # noise, which Go's exact durations do not have and which would show in the message.
        # Go: elapsed := g.clock.Since(relistTime)
        elapsed = round(self._now() - relist_time, 6)
        # Go: if elapsed > relistThreshold {
        if elapsed > relistThreshold:
            from minikubelet.go.duration import format_duration

            return False, RuntimeError(
                f"pleg was last seen active {format_duration(elapsed)} ago; threshold is "
                f"{format_duration(relistThreshold)}"
            )
        # Go: return true, nil
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
        # Go: klog.V(5).InfoS("GenericPLEG: Relisting")
        klog.v(5).info_s("GenericPLEG: Relisting")

        # Go: timestamp := g.clock.Now()
        timestamp = self._now()

        # Go: podList, err := g.runtime.GetPods(true)
        try:
            pod_list = await self.runtime.get_pods(True)
        except Exception as list_err:
            klog.error_s(list_err, "GenericPLEG: Unable to retrieve pods")
            return

        # Go: g.updateRelistTime(timestamp)
        self.update_relist_time(timestamp)

        # Go: pods := kubecontainer.Pods(podList)
        pods = Pods(pod_list)
        # Go: g.podRecords.setCurrent(pods)
        self.pod_records.set_current(pods)

        # Go: eventsByPodID := map[types.UID][]*PodLifecycleEvent{}
        events_by_pod_id: dict[str, list[PodLifecycleEvent]] = {}
        # Go: for pid := range g.podRecords {
        for pid in list(self.pod_records):
            # Go: oldPod := g.podRecords.getOld(pid)
            old_pod = self.pod_records.get_old(pid)
            # Go: pod := g.podRecords.getCurrent(pid)
            pod = self.pod_records.get_current(pid)
            # Go: allContainers := getContainersFromPods(oldPod, pod)
            all_containers = get_containers_from_pods(old_pod, pod)
            # Go: for _, container := range allContainers {
            for container in all_containers:
                events = compute_events(old_pod, pod, container.id)
                for e in events:
                    update_events(events_by_pod_id, e)

        # Go: if g.cacheEnabled() {
        needs_reinspection: dict[str, Pod] = {}

        # Go: for pid, events := range eventsByPodID {
        for pid, events in events_by_pod_id.items():
            # Go: pod := g.podRecords.getCurrent(pid)
            pod = self.pod_records.get_current(pid)
            # Go: if g.cacheEnabled() {
            if self.cache_enabled():
                # On an error the pod's record is left as it was (the `continue` skips
                # `update`), so the next relist sees the same change and sends the events then.
                # Go: if err := g.updateCache(pod, pid); err != nil {
                err = await self.update_cache(pod, pid)
                if err is not None:
                    assert pod is not None
                    klog.v(4).error_s(
                        err,
                        "PLEG: Ignoring events for pod",
                        pod=klog.ObjectRef(pod.name, pod.namespace),
                    )

                    needs_reinspection[pid] = pod

                    continue
                else:
                    # Inspected just now: the retry below would ask a second time.
                    self.pods_to_reinspect.pop(pid, None)
            # Go: g.podRecords.update(pid)
            self.pod_records.update(pid)
            # Go: for i := range events {
            for event in events:
                # ContainerChanged (to or from "unknown") is computed but never sent.
                # Go: if events[i].Type == ContainerChanged {
                if event.type == ContainerChanged:
                    continue
                # Go: select {
                match await select(send(self.event_channel, event), default=True):
                    # Go: case g.eventChannel <- events[i]:
                    case 0, _:
                        pass
                    # Go: default:
                    case _:
                        klog.error_s(
                            None, "Event channel is full, discard this relist() cycle event"
                        )

        # Go: if g.cacheEnabled() {
        if self.cache_enabled():
            # Go: if len(g.podsToReinspect) > 0 {
            if len(self.pods_to_reinspect) > 0:
                klog.v(5).info_s("GenericPLEG: Reinspecting pods that previously failed inspection")
                for pid, pod in self.pods_to_reinspect.items():
                    err = await self.update_cache(pod, pid)
                    if err is not None:
                        klog.v(5).error_s(
                            err,
                            "PLEG: pod failed reinspection",
                            pod=klog.ObjectRef(pod.name, pod.namespace),
                        )
                        needs_reinspection[pid] = pod

            # Last, once every pod's entry is written: a worker waiting for "newer than T"
            # (GetNewerThan) must not be woken before its pod's status is in.
            # Go: g.cache.UpdateTime(timestamp)
            assert self.cache is not None
            await self.cache.update_time(timestamp)

        # Go: g.podsToReinspect = needsReinspection
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
            if sandbox_status.state == runtimeapi.PodSandboxState_SANDBOX_READY:
                return status.ips

        return old_status.ips

    async def update_cache(self, pod: Pod | None, pid: str) -> Exception | None:
        """Inspect the pod and write its status (or the error) to the cache.

        Go: pkg/kubelet/pleg/generic.go (*GenericPLEG).updateCache
        """
        assert self.cache is not None
        # Go: if pod == nil {
        if pod is None:
            # Gone from the runtime: no container and no sandbox left, exited ones included.
            klog.v(4).info_s("PLEG: Delete status for pod", podUID=UID(pid))
            self.cache.delete(pid)
            return None
        # Taken before the runtime call: the status is at least as new as this.
        # Go: timestamp := g.clock.Now()
        timestamp = self._now()
        # Go: status, err := g.runtime.GetPodStatus(pod.ID, pod.Name, pod.Namespace)
        status: PodStatus | None = None
        err: Exception | None = None
        try:
            status = await self.runtime.get_pod_status(pod.id, pod.name, pod.namespace)
        except Exception as e:
            err = e
        # Go: klog.V(6) also logs the status itself.
        # Go: if klog.V(6).Enabled() {
        klog.v(4).error_s(err, "PLEG: Write status", pod=klog.ObjectRef(pod.name, pod.namespace))
        # Go: if err == nil {
        if err is None:
            assert status is not None
            # A finished pod keeps its IP in the API; its torn-down sandbox reports none.
            status.ips = self.get_pod_ips(pid, status)

        # Go: g.cache.Set(pod.ID, status, err, timestamp)
        await self.cache.set(pod.id, status, err, timestamp)
        # Go: return err
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
    # Go: if newState == oldState {
    if new_state == old_state:
        return []

    # Go: klog.V(4).InfoS("GenericPLEG"
    klog.v(4).info_s(
        "GenericPLEG", podUID=UID(pod_id), containerID=cid, oldState=old_state, newState=new_state
    )
    # Go: switch newState {
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
            # Go: switch oldState {
            match old_state:
                # Go: case plegContainerExited:
                case PlegContainerState.EXITED:
                    # Its ContainerDied went out in an earlier relist.
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
        # Sandboxes count as containers: a sandbox that dies also wakes the pod worker.
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
    state = plegContainerNonExistent
    if pod is None:
        return state
    c = pod.find_container_by_id(cid)
    if c is not None:
        return convert_state(c.state)
    c = pod.find_sandbox_by_id(cid)
    if c is not None:
        return convert_state(c.state)

    return state
