"""A probe worker: one goroutine probing one container periodically.

Go: pkg/kubelet/prober/worker.go

A worker runs until its container terminates for good (the pod finished, or the container
exited and will not be restarted) or until [`Worker.stop`][] is called. It reads the pod's
status from the status manager on every probe, so it notices when the container is restarted
(a new container ID): then it starts over with the probe's initial value.

What a worker writes to its results manager, in order:

* when it first sees a container (a new ID): the probe's initial value: ``Failure`` for
  readiness (not ready until proven), ``Success`` for liveness (alive until proven dead),
  ``Unknown`` for startup;
* ``Failure`` while the container is not running;
* after ``initialDelaySeconds`` of running (and, for liveness and readiness, once the container
  has *started*, i.e. its startup probe succeeded): a probe's result, but only once it has come
  out the same ``successThreshold`` (for success) or ``failureThreshold`` (for failure) times in
  a row.

After a liveness or startup failure, kubelet will restart the container; the worker puts itself
*on hold* (no probing) until it sees a new container ID.

Differences from Go:

* ``doProbe`` is ``async``: it writes results with ``await results_manager.set(...)`` (a channel
  send, which blocks when nobody reads the updates, as in Go).
* Times: ``time.Since(startedAt)`` is the runtime's clock minus ``state.running.started_at``
  (float seconds since the epoch, see [`running_for`][]); the initial random wait draws from the
  run's seeded RNG (``minikubelet.go.Runtime.rng``), so a run is repeatable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from minikubelet import go
from minikubelet.container.runtime import ContainerID
from minikubelet.go import Chan, Second, make_chan, recv, select, send
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.api.core.v1 import Container, Pod, Probe
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.api.v1.pod.util import get_container_status
from minikubelet.prober.prober_manager import (
    ProbeType,
    _parse_container_id,
    liveness,
    startup,
    try_select,
)
from minikubelet.prober.results import results_manager as results

if TYPE_CHECKING:
    from minikubelet.prober.prober_manager import ProberManager


@dataclass(eq=False)
class Worker:
    """Periodically probes its container; its goroutine runs [`run`][].

    Go: pkg/kubelet/prober/worker.go type worker

    Container IDs come from the status manager's copy of the pod status, read on every probe.
    """

    #: Capacity 1, so that ``stop`` never blocks.
    stop_ch: Chan[None]
    #: Capacity 1: the manager triggers a probe without waiting (a second trigger is dropped).
    manual_trigger_ch: Chan[None]
    pod: Pod
    container: Container
    probe_type: ProbeType
    probe_manager: ProberManager = field(repr=False)
    spec: Probe = None  # type: ignore[assignment]  # set by new_worker
    #: Written when a new container is first seen, before any probe ran.
    initial_value: results.Result = results.Result.UNKNOWN
    results_manager: results.Manager = None  # type: ignore[assignment]  # set by new_worker
    #: Empty until the container first appears in the status.
    container_id: ContainerID = field(default_factory=ContainerID)
    #: Go's zero value of results.Result is Success, so that is where a worker starts.
    last_result: results.Result = results.Result.SUCCESS
    #: How many probes in a row gave ``last_result`` (compared with the thresholds).
    result_run: int = 0
    #: After a liveness or startup failure: no probing until a new container ID shows up.
    on_hold: bool = False

    async def run(self) -> None:
        """Probe the container periodically, until told to stop or the container is gone.

        Go: pkg/kubelet/prober/worker.go (*worker).run
        """
        probe_ticker_period = self.spec.period_seconds * Second

        # Right after kubelet starts, every pod's workers start at once: a random first delay
        # spreads their probes over one period.
        if probe_ticker_period > go.since(self.probe_manager.start):
            await go.sleep(go.current_runtime().rng.random() * probe_ticker_period)

        probe_ticker = go.new_ticker(probe_ticker_period)

        try:
            while await self.do_probe():
                match await select(
                    recv(self.stop_ch), recv(probe_ticker.c), recv(self.manual_trigger_ch)
                ):
                    # Go: case <-w.stopCh:
                    case 0, _:
                        break
                    # Go: case <-probeTicker.C:
                    case 1, _:
                        pass
                    # Go: case <-w.manualTriggerCh:
                    case 2, _:
                        pass  # continue
        finally:
            # Go: the deferred function
            probe_ticker.stop()
            if not self.container_id.is_empty():
                self.results_manager.remove(self.container_id)

            self.probe_manager.remove_worker(
                self.pod.metadata.uid, self.container.name, self.probe_type
            )
            # Ours: the fake probes forget what they remember about this probe (see prober.py).
            self.probe_manager.prober.fake.forget(
                self.pod.metadata.uid, self.container.name, self.probe_type
            )

    def stop(self) -> None:
        """Ask the worker to stop; it cleans up and leaves its manager by itself. Never blocks,
        so calling it twice is harmless.

        Go: pkg/kubelet/prober/worker.go (*worker).stop
        """
        match try_select(send(self.stop_ch, None)):
            # Go: case w.stopCh <- struct{}{}:
            case 0, _:
                pass
            # Go: default:
            case _:  # Non-blocking.
                pass

    async def do_probe(self) -> bool:
        """Probe the container once and record the result; return whether to keep going.

        Go: pkg/kubelet/prober/worker.go (*worker).doProbe
        """
        # Go eats panics here (`defer func() { recover() }()` after runtime.HandleCrash, which
        # logs them) and keeps the worker going: the `except` at the end does the same.
        try:
            # Go: status, ok := w.probeManager.statusManager.GetPodStatus(w.pod.UID)
            status, ok = self.probe_manager.status_manager.get_pod_status(self.pod.metadata.uid)
            # Go: if !ok {
            if not ok:
                klog.v(3).info_s("No status for pod", pod=klog.kobj(self.pod))
                return True

            # Go: if status.Phase == v1.PodFailed || status.Phase == v1.PodSucceeded {
            if status.phase == v1.PodFailed or status.phase == v1.PodSucceeded:
                klog.v(3).info_s(
                    "Pod is terminated, exiting probe worker",
                    pod=klog.kobj(self.pod),
                    phase=status.phase,
                )
                return False

            # Go: c, ok := podutil.GetContainerStatus(status.ContainerStatuses, w.container.Name)
            c, ok = get_container_status(status.container_statuses, self.container.name)
            # Go: if !ok || len(c.ContainerID) == 0 {
            if not ok or len(c.container_id) == 0:
                klog.v(3).info_s(
                    "Probe target container not found",
                    pod=klog.kobj(self.pod),
                    containerName=self.container.name,
                )
                return True

            # Go: if w.containerID.String() != c.ContainerID {
            if str(self.container_id) != c.container_id:
                if not self.container_id.is_empty():
                    self.results_manager.remove(self.container_id)
                self.container_id = _parse_container_id(c.container_id)
                await self.results_manager.set(self.container_id, self.initial_value, self.pod)
                self.on_hold = False

            # Go: if w.onHold {
            if self.on_hold:
                return True

            # Go: if c.State.Running == nil {
            if c.state.running is None:
                klog.v(3).info_s(
                    "Non-running container probed",
                    pod=klog.kobj(self.pod),
                    containerName=self.container.name,
                )
                if not self.container_id.is_empty():
                    await self.results_manager.set(
                        self.container_id, results.Result.FAILURE, self.pod
                    )
                return (
                    c.state.terminated is None
                    or self.pod.spec.restart_policy != v1.RestartPolicyNever
                )

            # A pod being deleted must not have its containers restarted by a failing probe.
            # Go: if w.pod.ObjectMeta.DeletionTimestamp != nil && (w.probeType == liveness || w.probeType == startup) {
            if self.pod.metadata.deletion_timestamp is not None and (
                self.probe_type == liveness or self.probe_type == startup
            ):
                klog.v(3).info_s(
                    "Pod deletion requested, setting probe result to success",
                    probeType=self.probe_type,
                    pod=klog.kobj(self.pod),
                    containerName=self.container.name,
                )
                if self.probe_type == startup:
                    klog.info_s(
                        "Pod deletion requested before container has fully started",
                        pod=klog.kobj(self.pod),
                        containerName=self.container.name,
                    )
                await self.results_manager.set(self.container_id, results.Result.SUCCESS, self.pod)
                return False

            # Go: if int32(time.Since(c.State.Running.StartedAt.Time).Seconds()) < w.spec.InitialDelaySeconds {
            if int(running_for(c.state.running.started_at)) < self.spec.initial_delay_seconds:
                return True

            # Startup probes run until the container has started, the others only after: a
            # startup worker idles (not exits) so that it is there for the next container.
            # Go: if c.Started != nil && *c.Started {
            if c.started:
                if self.probe_type == startup:
                    return True
            else:
                if self.probe_type != startup:
                    return True

            # Go: result, err := w.probeManager.prober.probe(w.probeType, w.pod, status, w.container, w.containerID)
            result, err = self.probe_manager.prober.probe(
                self.probe_type, self.pod, status, self.container, self.container_id
            )
            # Go: if err != nil {
            if err is not None:
                return True  # the probe could not run: no result, not a failure

            # Go omitted: case results.Success: -- counts the ProberResults metric; no metrics here
            # Go omitted: case results.Failure: -- counts the ProberResults metric; no metrics here
            # Go omitted: default: -- counts the ProberResults metric; no metrics here

            # Go: if w.lastResult == result {
            if self.last_result == result:
                self.result_run += 1
            else:
                self.last_result = result
                self.result_run = 1

            # Go: if (result == results.Failure && w.resultRun < int(w.spec.FailureThreshold)) ||
            if (
                result == results.Result.FAILURE and self.result_run < self.spec.failure_threshold
            ) or (
                result == results.Result.SUCCESS and self.result_run < self.spec.success_threshold
            ):
                return True

            # Go: w.resultsManager.Set(w.containerID, result, w.pod)
            await self.results_manager.set(self.container_id, result, self.pod)

            # Go: if (w.probeType == liveness || w.probeType == startup) && result == results.Failure {
            if (
                self.probe_type == liveness or self.probe_type == startup
            ) and result == results.Result.FAILURE:
                # kubelet will kill this container: probing it while it stops helps nobody (and an
                # exec probe into a stopping container used to corrupt it in Docker).
                self.on_hold = True
                self.result_run = 0

            return True
        except Exception as r:
            klog.error_s(r, "Observed a panic", probeType=self.probe_type, pod=klog.kobj(self.pod))
            return True


def new_worker(m: ProberManager, probe_type: ProbeType, pod: Pod, container: Container) -> Worker:
    """A new probe worker (not yet running: the manager starts ``run`` as a goroutine).

    Go: pkg/kubelet/prober/worker.go newWorker
    """
    w = Worker(
        stop_ch=make_chan(1, name="stopCh"),
        manual_trigger_ch=make_chan(1, name="manualTriggerCh"),
        pod=pod,
        container=container,
        probe_type=probe_type,
        probe_manager=m,
    )

    match probe_type:
        # Go: case readiness:
        case ProbeType.READINESS:
            w.spec = container.readiness_probe  # type: ignore[assignment]
            w.results_manager = m.readiness_manager
            w.initial_value = results.Result.FAILURE
        # Go: case liveness:
        case ProbeType.LIVENESS:
            w.spec = container.liveness_probe  # type: ignore[assignment]
            w.results_manager = m.liveness_manager
            w.initial_value = results.Result.SUCCESS
        # Go: case startup:
        case ProbeType.STARTUP:
            w.spec = container.startup_probe  # type: ignore[assignment]
            w.results_manager = m.startup_manager
            w.initial_value = results.Result.UNKNOWN

    return w


def running_for(started_at: float | None) -> float:
    """Seconds since ``started_at`` on the runtime's clock. Go: ``time.Since(startedAt)``.

    Not a Go function: ``started_at`` is a float of seconds since the epoch here (Go: a
    ``metav1.Time``), and an unset time counts from the epoch (Go's zero time is long ago, too).
    Rounded to the microsecond: two floats near 1.6e9 differ by up to ~0.2 µs of rounding, which
    must not turn 10 s into 9.9999998 s (and ``int()`` into 9).
    """
    return round(float(go.now()) - (started_at or 0.0), 6)
