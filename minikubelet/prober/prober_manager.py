"""The probe manager: one worker goroutine per container probe, and readiness for pod statuses.

Go: pkg/kubelet/prober/prober_manager.go

kubelet calls [`ProberManager.add_pod`][] for every new pod (``HandlePodAdditions``),
[`remove_pod`][.ProberManager.remove_pod] when one is deleted,
[`cleanup_pods`][.ProberManager.cleanup_pods] in housekeeping, and
[`update_pod_status`][.ProberManager.update_pod_status] each time it computes a pod's status
(``generateAPIPodStatus``), to fill in each container's ``started`` and ``ready``. The workers
([`minikubelet.prober.worker`][minikubelet.prober.worker]) probe their container every
``periodSeconds`` and write what they find to one of three results managers (liveness, readiness,
startup), whose ``updates()`` channels kubelet's ``syncLoopIteration`` reads.

Differences from Go:

* Go guards ``workers`` with ``workerLock`` (an ``RWMutex``). Every goroutine here runs on one
  thread and only gives way at an ``await``; no method of the manager awaits, so no lock is taken.
* ``ProberResults``, the Prometheus counter of probe results (and the ``probeResult*`` label
  values), is not ported: minikubelet has no metrics.
* v1.21's ``Manager`` has no ``Start`` method: workers start in ``AddPod``. ``start`` is a field,
  the time the manager was made, which a worker uses to decide whether to wait a random part of
  its period before the first probe (to spread probes out after a kubelet restart).
* ``UpdatePodStatus`` and the worker's ``stop`` end in a non-blocking ``select`` (with a
  ``default:``). They stay plain (not ``async``) functions, as in Go, so kubelet can call them
  from plain code: [`try_select`][] runs such a select to its end without awaiting.
"""

from __future__ import annotations

from collections.abc import Container as ContainerSet
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Protocol

from minikubelet import go
from minikubelet.container.runtime import ContainerID, parse_container_id
from minikubelet.go import RecvCase, Selected, SendCase, select, send
from minikubelet.k8s_io.api.core.v1 import Pod, PodStatus
from minikubelet.k8s_io.client_go.tools.record.event import EventRecorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.prober.results import results_manager as results

if TYPE_CHECKING:
    from minikubelet.prober.prober import Prober
    from minikubelet.prober.worker import Worker
    from minikubelet.status.status_manager import PodStatusProvider


class Manager(Protocol):
    """Manages pod probing: a probe worker for every container probe a pod specifies.

    Go: pkg/kubelet/prober/prober_manager.go type Manager

    The workers probe their containers periodically and cache the results; the manager uses the
    cached results to set ``ready`` (and ``started``) in a pod status when asked. Updating probe
    parameters is not supported (as in Go).
    """

    def add_pod(self, pod: Pod) -> None:
        """Create probe workers for every container probe. Called for every pod created.

        Go: pkg/kubelet/prober/prober_manager.go Manager.AddPod
        """
        ...

    def remove_pod(self, pod: Pod) -> None:
        """Stop the pod's probe workers (each removes its cached results as it exits).

        Go: pkg/kubelet/prober/prober_manager.go Manager.RemovePod
        """
        ...

    def cleanup_pods(self, desired_pods: ContainerSet[str]) -> None:
        """Stop the workers of every pod whose UID is not in ``desired_pods``.

        Go: pkg/kubelet/prober/prober_manager.go Manager.CleanupPods
        """
        ...

    def update_pod_status(self, pod_uid: str, pod_status: PodStatus) -> None:
        """Set ``started`` and ``ready`` of each container status in ``pod_status``, from the
        containers' running state, the cached probe results and the workers.

        Go: pkg/kubelet/prober/prober_manager.go Manager.UpdatePodStatus
        """
        ...


class ProbeType(IntEnum):
    """Which probe: liveness, readiness or startup.

    Go: pkg/kubelet/prober/prober_manager.go type probeType
    """

    LIVENESS = 0
    READINESS = 1
    STARTUP = 2

    def __str__(self) -> str:
        """For debugging (and for log lines and event messages: ``Liveness probe failed``).

        Go: pkg/kubelet/prober/prober_manager.go (probeType).String
        """
        match self:
            # Go: case readiness:
            case ProbeType.READINESS:
                return "Readiness"
            # Go: case liveness:
            case ProbeType.LIVENESS:
                return "Liveness"
            # Go: case startup:
            case ProbeType.STARTUP:
                return "Startup"
            # Go: default:
            case _:
                return "UNKNOWN"

    def __format__(self, spec: str) -> str:
        # An IntEnum formats as its number in f-strings; Go's %s and %v print String().
        return format(str(self), spec)


#: It has a String() method in Go: klog quotes it (``probeType="Liveness"``).
ProbeType.go_stringer = True  # type: ignore[attr-defined]

# Go's constant names, so the port reads like Go (``w.probe_type == liveness``).
liveness = ProbeType.LIVENESS
readiness = ProbeType.READINESS
startup = ProbeType.STARTUP


@dataclass(frozen=True)
class ProbeKey:
    """Key uniquely identifying a container probe.

    Go: pkg/kubelet/prober/prober_manager.go type probeKey
    """

    pod_uid: str
    container_name: str
    probe_type: ProbeType


@dataclass(eq=False)
class ProberManager:
    """The probe manager.

    Go: pkg/kubelet/prober/prober_manager.go type manager
    """

    #: Where workers read the pod IP and container IDs (kubelet's status manager).
    status_manager: PodStatusProvider
    #: One results manager per probe type; kubelet reads liveness and startup results to
    #: decide on restarts, readiness results through `update_pod_status`.
    readiness_manager: results.Manager
    liveness_manager: results.Manager
    startup_manager: results.Manager
    prober: Prober
    #: When the manager was made (Go: ``clock.RealClock{}.Now()``; here the runtime's clock).
    start: go.Time
    workers: dict[ProbeKey, Worker] = field(default_factory=dict)

    def add_pod(self, pod: Pod) -> None:
        """Start a worker goroutine for each probe of each container of ``pod``.

        Go: pkg/kubelet/prober/prober_manager.go (*manager).AddPod

        As in Go, finding a worker that already exists logs an error and stops there: the
        containers after it get no workers.
        """
        # worker.py imports this module (for ProbeType): import it here, not at the top.
        from minikubelet.prober.worker import new_worker

        for c in pod.spec.containers:
            if c.startup_probe is not None:
                key = ProbeKey(pod.metadata.uid, c.name, startup)
                if key in self.workers:
                    klog.error_s(
                        None,
                        "Startup probe already exists for container",
                        pod=klog.kobj(pod),
                        containerName=c.name,
                    )
                    return
                w = new_worker(self, startup, pod, c)
                self.workers[key] = w
                go.go(w.run, name=_worker_name(w))

            if c.readiness_probe is not None:
                key = ProbeKey(pod.metadata.uid, c.name, readiness)
                if key in self.workers:
                    klog.error_s(
                        None,
                        "Readiness probe already exists for container",
                        pod=klog.kobj(pod),
                        containerName=c.name,
                    )
                    return
                w = new_worker(self, readiness, pod, c)
                self.workers[key] = w
                go.go(w.run, name=_worker_name(w))

            if c.liveness_probe is not None:
                key = ProbeKey(pod.metadata.uid, c.name, liveness)
                if key in self.workers:
                    klog.error_s(
                        None,
                        "Liveness probe already exists for container",
                        pod=klog.kobj(pod),
                        containerName=c.name,
                    )
                    return
                w = new_worker(self, liveness, pod, c)
                self.workers[key] = w
                go.go(w.run, name=_worker_name(w))

    def remove_pod(self, pod: Pod) -> None:
        """Tell each worker of ``pod`` to stop; each one removes itself when it exits.

        Go: pkg/kubelet/prober/prober_manager.go (*manager).RemovePod
        """
        for c in pod.spec.containers:
            for probe_type in (readiness, liveness, startup):
                key = ProbeKey(pod.metadata.uid, c.name, probe_type)
                worker = self.workers.get(key)
                if worker is not None:
                    worker.stop()

    def cleanup_pods(self, desired_pods: ContainerSet[str]) -> None:
        """Stop the workers of the pods that should no longer be running.

        Go: pkg/kubelet/prober/prober_manager.go (*manager).CleanupPods

        ``desired_pods`` holds the UIDs of the pods to keep (Go: a ``map[types.UID]sets.Empty``).
        """
        for key, worker in list(self.workers.items()):
            if key.pod_uid not in desired_pods:
                worker.stop()

    def update_pod_status(self, pod_uid: str, pod_status: PodStatus) -> None:
        """Set each container status's ``started`` and ``ready`` (in place).

        Go: pkg/kubelet/prober/prober_manager.go (*manager).UpdatePodStatus

        A container is started when it runs and its startup probe succeeded (or it has none);
        a started container is ready when its readiness probe succeeded (or it has none). The
        ``ready`` of a container that has not started is left as it was, as in Go. An init
        container is ready when it exited with code 0.
        """
        for c in pod_status.container_statuses:
            # Go writes `if ...; ok {` (an if with a statement); Python nests the lookup.
            if c.state.running is None:
                started = False
            else:
                result, ok = self.startup_manager.get(_parse_container_id(c.container_id))
                if ok:
                    started = result == results.Result.SUCCESS
                else:
                    # No result yet: started only if there is no startup probe to wait for.
                    _, exists = self.get_worker(pod_uid, c.name, startup)
                    started = not exists
            c.started = started

            if started:
                if c.state.running is None:
                    ready = False
                else:
                    result, ok = self.readiness_manager.get(_parse_container_id(c.container_id))
                    if ok:
                        ready = result == results.Result.SUCCESS
                    else:
                        w, exists = self.get_worker(pod_uid, c.name, readiness)
                        ready = not exists  # without a readiness probe, started means ready
                        if exists:
                            assert w is not None
                            # A probe now rather than at the next tick: the pod may become
                            # ready a whole period sooner.
                            match try_select(send(w.manual_trigger_ch, None)):
                                # Go: case w.manualTriggerCh <- struct{}{}:
                                case 0, _:
                                    pass
                                # Go: default:
                                case _:  # Non-blocking.
                                    klog.info_s(
                                        "Failed to trigger a manual run", probe=str(w.probe_type)
                                    )
                c.ready = ready
        for c in pod_status.init_container_statuses:
            ready = False
            if c.state.terminated is not None and c.state.terminated.exit_code == 0:
                ready = True
            c.ready = ready

    def get_worker(
        self, pod_uid: str, container_name: str, probe_type: ProbeType
    ) -> tuple[Worker | None, bool]:
        """The worker of one probe, and whether there is one.

        Go: pkg/kubelet/prober/prober_manager.go (*manager).getWorker
        """
        worker = self.workers.get(ProbeKey(pod_uid, container_name, probe_type))
        return worker, worker is not None

    def remove_worker(self, pod_uid: str, container_name: str, probe_type: ProbeType) -> None:
        """Forget a worker; the worker calls it as it exits.

        Go: pkg/kubelet/prober/prober_manager.go (*manager).removeWorker
        """
        self.workers.pop(ProbeKey(pod_uid, container_name, probe_type), None)

    def worker_count(self) -> int:
        """The total number of probe workers. For testing.

        Go: pkg/kubelet/prober/prober_manager.go (*manager).workerCount
        """
        return len(self.workers)


def new_manager(
    status_manager: PodStatusProvider,
    liveness_manager: results.Manager,
    readiness_manager: results.Manager,
    startup_manager: results.Manager,
    runner: Any | None,
    recorder: EventRecorder,
) -> ProberManager:
    """A manager for pod probing.

    Go: pkg/kubelet/prober/prober_manager.go NewManager

    ``status_manager`` needs only ``get_pod_status(uid) -> (PodStatus, bool)``. ``runner`` is
    Go's ``kubecontainer.CommandRunner`` (it runs exec probes in containers); probes are faked
    here (see [`minikubelet.prober.prober`][minikubelet.prober.prober]), so it is kept but unused,
    and may be None. Call it inside a run ([`minikubelet.go.run`][minikubelet.go.run]):
    ``start`` is read from the run's clock.
    """
    # prober.py imports this module (for ProbeType): import it here, not at the top.
    from minikubelet.prober.prober import new_prober

    prober = new_prober(runner, recorder)
    return ProberManager(
        status_manager=status_manager,
        prober=prober,
        readiness_manager=readiness_manager,
        liveness_manager=liveness_manager,
        startup_manager=startup_manager,
        workers={},
        start=go.now(),
    )


def try_select(*cases: RecvCase | SendCase) -> Selected:
    """Go's ``select`` with a ``default:`` case, run from a plain (not ``async``) function.

    Not in Go: Go needs no such helper. ``await select(..., default=True)`` never blocks and never
    yields to another goroutine, so its coroutine finishes the first time it is stepped; this
    steps it once and returns what it chose (index ``minikubelet.go.DEFAULT`` when no case
    was ready). That keeps ``UpdatePodStatus`` and ``stop`` plain functions, as in Go.
    """
    coro = select(*cases, default=True)
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("a select with a default case suspended")  # cannot happen


def _parse_container_id(container_id: str) -> ContainerID:
    """``type://id`` → ContainerID; an empty ID (and an error in the log) if malformed.

    Go's ``kubecontainer.ParseContainerID`` logs and returns an empty ID for a malformed string;
    [`minikubelet.container.runtime.parse_container_id`][minikubelet.container.runtime.parse_container_id]
    raises instead.
    """
    try:
        return parse_container_id(container_id)
    except ValueError as err:
        klog.error_s(err, "Parsing containerID failed")
        return ContainerID()


def _worker_name(w: Worker) -> str:
    """The goroutine name of a worker, for deadlock reports and panics."""
    return f"probe worker {w.probe_type} {klog.kobj(w.pod)}/{w.container.name}"
