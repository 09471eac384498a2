"""Watching Kubelet.syncPod on the port's whole kubelet: how each sync ended, what it stopped.

Chapter 6's example prints each sync as it ends (:func:`watch_syncs` with a printer); its
exercises' checks run a scenario with :func:`run_syncs` and look at what happened.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from minikubelet import go
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kubelet import Kubelet
from minikubelet.pod_workers import PodWorkersImpl, SyncPodOptions
from walkthrough.examples import run_kubelet


@dataclass
class Sync:
    """One call of syncPod: when, for which pod (name and last characters of its UID), the kind
    of update, and its error (None when it succeeded)."""

    at: float
    pod: str
    uid: str
    kind: str
    error: str | None
    #: the containers started during this sync (filled by :func:`run_syncs`)
    started: list[str] = field(default_factory=list)
    #: whether this sync went as far as the runtime's SyncPod (filled by :func:`run_syncs`)
    reached_runtime: bool = False


@dataclass
class Run:
    """What happened during a scenario."""

    syncs: list[Sync] = field(default_factory=list)
    #: (seconds, pod name, container name) of every container start
    starts: list[tuple[float, str, str]] = field(default_factory=list)
    #: the pod of every call of the runtime's SyncPod, in order
    runtime_syncs: list[str] = field(default_factory=list)
    #: (seconds, container name, grace period) of every request to stop a container
    stops: list[tuple[float, str, int]] = field(default_factory=list)
    #: (reason, message) of every event
    events: list[tuple[str, str]] = field(default_factory=list)
    #: (seconds, pod name, phase, reason) of every status the status manager was given
    statuses: list[tuple[float, str, str, str]] = field(default_factory=list)
    #: the kubelet, after the run
    kubelet: Kubelet | None = None

    def of(self, pod: str) -> list[Sync]:
        return [s for s in self.syncs if s.pod == pod]


def now() -> float:
    return round(go.current_runtime().clock.monotonic(), 3)


def watch_syncs(kl: Kubelet, on_sync: Callable[[Sync], None], run: Run | None = None) -> None:
    """Call ``on_sync`` with each finished syncPod of ``kl``'s pod workers (which run as before);
    with ``run`` (whose starts and runtime syncs fill as they happen), each sync also says what
    containers it started and whether it reached the runtime."""
    workers = kl.pod_workers
    assert isinstance(workers, PodWorkersImpl)  # kubelet's own workers, whose syncs this wraps
    sync_pod_fn = workers.sync_pod_fn

    async def watched(o: SyncPodOptions) -> None:
        at = now()
        meta = o.pod.metadata
        starts, runtime = (len(run.starts), len(run.runtime_syncs)) if run else (0, 0)
        sync = Sync(at, meta.name, meta.uid[-4:], str(o.update_type), None)
        try:
            await sync_pod_fn(o)
        except Exception as err:
            sync.error = str(err)
            raise
        finally:
            if run is not None:
                sync.started = [c for _, p, c in run.starts[starts:] if p == meta.name]
                sync.reached_runtime = meta.name in run.runtime_syncs[runtime:]
            on_sync(sync)

    workers.sync_pod_fn = watched


def _record(run: Run, kl: Kubelet) -> None:
    watch_syncs(kl, run.syncs.append, run)
    runtime: Any = kl.container_runtime
    runtime_sync_pod = runtime.sync_pod

    async def runtime_synced(pod: Any, *args: Any) -> Any:
        run.runtime_syncs.append(pod.metadata.name)
        return await runtime_sync_pod(pod, *args)

    runtime.sync_pod = runtime_synced
    service: Any = kl.container_runtime.runtime_service  # type: ignore[attr-defined]
    start_container, stop_container = service.start_container, service.stop_container
    names: dict[str, tuple[str, str]] = {}  # container ID → (pod name, container name)

    async def create_container(pod_sandbox_id: str, config: Any, sandbox_config: Any) -> str:
        container_id = await create(pod_sandbox_id, config, sandbox_config)
        names[container_id] = (sandbox_config.metadata.name, config.metadata.name)
        return container_id

    async def started(container_id: str) -> None:
        await start_container(container_id)
        run.starts.append((now(), *names.get(container_id, ("?", container_id))))

    async def stopped(container_id: str, timeout: int) -> None:
        run.stops.append((now(), names.get(container_id, ("?", container_id))[1], timeout))
        await stop_container(container_id, timeout)

    create = service.create_container
    service.create_container = create_container
    service.start_container = started
    service.stop_container = stopped

    set_pod_status = kl.status_manager.set_pod_status

    async def recorded_status(pod: Any, status: Any) -> None:
        run.statuses.append((now(), pod.metadata.name, str(status.phase), status.reason))
        await set_pod_status(pod, status)

    kl.status_manager.set_pod_status = recorded_status  # type: ignore[method-assign]
    recorder: Any = kl.recorder
    eventf = recorder.eventf

    def recorded_event(obj: Any, event_type: str, reason: str, message: str, *args: Any) -> None:
        run.events.append((reason, message % args if args else message))
        eventf(obj, event_type, reason, message, *args)

    recorder.eventf = recorded_event
    run.kubelet = kl


def run_syncs(script: str, *, until: float, setup: Callable[[Kubelet], None] | None = None) -> Run:
    """Run the kubelet on ``script`` (a scripted API server) for ``until`` virtual seconds;
    ``setup(kl)`` may change the kubelet before it runs."""
    run = Run()

    def prepare(kl: Kubelet) -> None:
        _record(run, kl)
        if setup is not None:
            setup(kl)

    klog.configure(verbosity=0, out=io.StringIO())
    try:
        run_kubelet(script, seed=1, until=until, out=io.StringIO(), setup=prepare)
    finally:
        klog.configure(verbosity=0, out=None)
    return run


def network_not_ready_until(kl: Kubelet, seconds: float) -> None:
    """Make the node's network plugin not ready for its first ``seconds`` (kubelet notices the
    change at its next runtime check, every 5 s)."""
    service: Any = kl.container_runtime.runtime_service  # type: ignore[attr-defined]
    service.network_ready = runtimeapi.RuntimeCondition(
        type=runtimeapi.NetworkReady,
        status=False,
        reason="NetworkPluginNotReady",
        message="cni config uninitialized",
    )

    async def comes_up() -> None:
        await go.sleep(seconds)
        service.network_ready = runtimeapi.RuntimeCondition(
            type=runtimeapi.NetworkReady, status=True
        )

    go.go(comes_up, name="the network plugin")
