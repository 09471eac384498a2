"""A probe worker: one goroutine probing one container periodically.

Go: pkg/kubelet/prober/worker.go

A worker runs until its container terminates for good (the pod finished, or the container
exited and will not be restarted) or until :meth:`Worker.stop` is called. It reads the pod's
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
* The ``ProberResults`` metric (and its labels, ``deepCopyPrometheusLabels``) is not ported.
* Times: ``time.Since(startedAt)`` is the runtime's clock minus ``state.running.started_at``
  (float seconds since the epoch, see :func:`running_for`); the initial random wait draws from the
  run's seeded RNG (:attr:`minikubelet.sim.go.Runtime.rng`), so a run is repeatable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from minikubelet.container.runtime import ContainerID
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.api.core.v1 import Container, Pod, Probe
from minikubelet.k8s_io.kubernetes.pkg.api.v1.pod.util import get_container_status
from minikubelet.prober.prober_manager import (
    ProbeType,
    _parse_container_id,
    liveness,
    startup,
    try_select,
)
from minikubelet.prober.results import results_manager as results
from minikubelet.sim import go, klog
from minikubelet.sim.go import Chan, Second, make_chan, recv, select, send

if TYPE_CHECKING:
    from minikubelet.prober.prober_manager import ProberManager


@dataclass(eq=False)
class Worker:
    """Periodically probes its container; its goroutine runs :meth:`run`.

    Go: pkg/kubelet/prober/worker.go type worker

    The worker uses the probe manager's status manager to get up-to-date container IDs.
    """

    #: Channel for stopping the probe.
    stop_ch: Chan[None]
    #: Channel for triggering the probe manually.
    manual_trigger_ch: Chan[None]
    #: The pod containing this probe (read-only)
    pod: Pod
    #: The container to probe (read-only)
    container: Container
    #: The type of the worker.
    probe_type: ProbeType
    probe_manager: ProberManager = field(repr=False)
    #: Describes the probe configuration (read-only)
    spec: Probe = None  # type: ignore[assignment]  # set by new_worker
    #: The probe value during the initial delay.
    initial_value: results.Result = results.Result.Unknown
    #: Where to store this workers results.
    results_manager: results.Manager = None  # type: ignore[assignment]  # set by new_worker
    #: The last known container ID for this worker.
    container_id: ContainerID = field(default_factory=ContainerID)
    #: The last probe result for this worker (Go's zero value of results.Result is Success).
    last_result: results.Result = results.Result.Success
    #: How many times in a row the probe has returned the same result.
    result_run: int = 0
    #: If set, skip probing.
    on_hold: bool = False

    async def run(self) -> None:
        """Probe the container periodically, until told to stop or the container is gone.

        Go: pkg/kubelet/prober/worker.go (*worker).run
        """
        probe_ticker_period = self.spec.period_seconds * Second

        # If kubelet restarted the probes could be started in rapid succession.
        # Let the worker wait for a random portion of tickerPeriod before probing.
        # Do it only if the kubelet has started recently.
        if probe_ticker_period > go.since(self.probe_manager.start):
            await go.sleep(go.current_runtime().rng.random() * probe_ticker_period)

        probe_ticker = go.new_ticker(probe_ticker_period)

        try:
            while await self.do_probe():
                # Wait for next probe tick.
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
            # Clean up (Go: the deferred function).
            probe_ticker.stop()
            if not self.container_id.is_empty():
                self.results_manager.remove(self.container_id)

            self.probe_manager.remove_worker(
                self.pod.metadata.uid, self.container.name, self.probe_type
            )
            # Go deletes the worker's ProberResults metrics here; there are none. Ours instead:
            # the fake probes forget what they remember about this probe (see prober.py).
            self.probe_manager.prober.fake.forget(
                self.pod.metadata.uid, self.container.name, self.probe_type
            )

    def stop(self) -> None:
        """Stop the probe worker. The worker handles cleanup and removes itself from its
        manager. It is safe to call stop multiple times.

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
            status, ok = self.probe_manager.status_manager.get_pod_status(self.pod.metadata.uid)
            if not ok:
                # Either the pod has not been created yet, or it was already deleted.
                klog.v(3).info_s("No status for pod", pod=klog.kobj(self.pod))
                return True

            # Worker should terminate if pod is terminated.
            if status.phase == v1.PodFailed or status.phase == v1.PodSucceeded:
                klog.v(3).info_s(
                    "Pod is terminated, exiting probe worker",
                    pod=klog.kobj(self.pod),
                    phase=status.phase,
                )
                return False

            c, ok = get_container_status(status.container_statuses, self.container.name)
            if not ok or len(c.container_id) == 0:
                # Either the container has not been created yet, or it was deleted.
                klog.v(3).info_s(
                    "Probe target container not found",
                    pod=klog.kobj(self.pod),
                    containerName=self.container.name,
                )
                return True  # Wait for more information.

            if str(self.container_id) != c.container_id:
                if not self.container_id.is_empty():
                    self.results_manager.remove(self.container_id)
                self.container_id = _parse_container_id(c.container_id)
                await self.results_manager.set(self.container_id, self.initial_value, self.pod)
                # We've got a new container; resume probing.
                self.on_hold = False

            if self.on_hold:
                # Worker is on hold until there is a new container.
                return True

            if c.state.running is None:
                klog.v(3).info_s(
                    "Non-running container probed",
                    pod=klog.kobj(self.pod),
                    containerName=self.container.name,
                )
                if not self.container_id.is_empty():
                    await self.results_manager.set(
                        self.container_id, results.Result.Failure, self.pod
                    )
                # Abort if the container will not be restarted.
                return (
                    c.state.terminated is None
                    or self.pod.spec.restart_policy != v1.RestartPolicyNever
                )

            # Graceful shutdown of the pod.
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
                # Set a last result to ensure quiet shutdown.
                await self.results_manager.set(self.container_id, results.Result.Success, self.pod)
                # Stop probing at this point.
                return False

            # Probe disabled for InitialDelaySeconds.
            if int(running_for(c.state.running.started_at)) < self.spec.initial_delay_seconds:
                return True

            if c.started:
                # Stop probing for startup once container has started.
                # we keep it running to make sure it will work for restarted container.
                if self.probe_type == startup:
                    return True
            else:
                # Disable other probes until container has started.
                if self.probe_type != startup:
                    return True

            # TODO (in Go): in order for exec probes to correctly handle downward API env, we
            # must be able to reconstruct the full container environment here, OR we must make a
            # call to the CRI in order to get those environment values from the running
            # container.
            result, err = self.probe_manager.prober.probe(
                self.probe_type, self.pod, status, self.container, self.container_id
            )
            if err is not None:
                # Prober error, throw away the result.
                return True

            # Go omitted: case results.Success: -- counts the ProberResults metric; no metrics here
            # Go omitted: case results.Failure: -- counts the ProberResults metric; no metrics here
            # Go omitted: default: -- counts the ProberResults metric; no metrics here

            if self.last_result == result:
                self.result_run += 1
            else:
                self.last_result = result
                self.result_run = 1

            if (
                result == results.Result.Failure and self.result_run < self.spec.failure_threshold
            ) or (
                result == results.Result.Success and self.result_run < self.spec.success_threshold
            ):
                # Success or failure is below threshold - leave the probe state unchanged.
                return True

            await self.results_manager.set(self.container_id, result, self.pod)

            if (
                self.probe_type == liveness or self.probe_type == startup
            ) and result == results.Result.Failure:
                # The container fails a liveness/startup check, it will need to be restarted.
                # Stop probing until we see a new container ID. This is to reduce the chance of
                # hitting #21751, where running `docker exec` when a container is being stopped
                # may lead to corrupted container state.
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
        stop_ch=make_chan(1, name="stopCh"),  # Buffer so stop() can be non-blocking.
        # Buffer so prober_manager can do non-blocking calls to doProbe.
        manual_trigger_ch=make_chan(1, name="manualTriggerCh"),
        pod=pod,
        container=container,
        probe_type=probe_type,
        probe_manager=m,
    )

    match probe_type:
        # Go: case readiness:
        case ProbeType.readiness:
            w.spec = container.readiness_probe  # type: ignore[assignment]
            w.results_manager = m.readiness_manager
            w.initial_value = results.Result.Failure
        # Go: case liveness:
        case ProbeType.liveness:
            w.spec = container.liveness_probe  # type: ignore[assignment]
            w.results_manager = m.liveness_manager
            w.initial_value = results.Result.Success
        # Go: case startup:
        case ProbeType.startup:
            w.spec = container.startup_probe  # type: ignore[assignment]
            w.results_manager = m.startup_manager
            w.initial_value = results.Result.Unknown

    # Go builds the ProberResults metric labels here; there are no metrics.
    return w


def running_for(started_at: float | None) -> float:
    """Seconds since ``started_at`` on the runtime's clock. Go: ``time.Since(startedAt)``.

    Not a Go function: ``started_at`` is a float of seconds since the epoch here (Go: a
    ``metav1.Time``), and an unset time counts from the epoch (Go's zero time is long ago, too).
    Rounded to the microsecond: two floats near 1.6e9 differ by up to ~0.2 µs of rounding, which
    must not turn 10 s into 9.9999998 s (and ``int()`` into 9).
    """
    return round(float(go.now()) - (started_at or 0.0), 6)
