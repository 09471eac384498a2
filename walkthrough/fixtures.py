"""What the exercises' tests build on: pods, a Kubelet with the loop-side parts, recorders.

A test plugs the learner's class (a subclass of the port's, with one method rewritten) into
these, runs it under the virtual clock with :func:`run_go`, and states what it expects.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Awaitable, Callable, Iterator
from collections.abc import Container as ContainerSet
from dataclasses import dataclass, field
from typing import Any

from minikubelet import go
from minikubelet.config.manifest import pod_from_dict
from minikubelet.config.sources import SourcesReady
from minikubelet.container.cache import new_cache
from minikubelet.container.runtime_cache import new_runtime_cache
from minikubelet.go import Chan, Second, make_chan
from minikubelet.k8s_io.api.core.v1 import Pod, PodStatus
from minikubelet.k8s_io.client_go.tools.record.event import Event, EventRecorder, Recorder
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import new_back_off
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kubelet import Kubelet, MaxContainerBackOff, backOffPeriod
from minikubelet.lifecycle.admission_failure_handler_stub import new_admission_failure_handler_stub
from minikubelet.lifecycle.predicate import new_predicate_admit_handler
from minikubelet.pleg.pleg import PodLifecycleEvent
from minikubelet.pod.mirror_client import BasicMirrorClient
from minikubelet.pod.pod_manager import BasicManager
from minikubelet.pod_workers import UpdatePodOptions
from minikubelet.prober.results.results_manager import ResultsManager
from minikubelet.reason_cache import ReasonCache
from minikubelet.runtime import new_runtime_state
from minikubelet.sim.container_runtime import new_fake_runtime
from minikubelet.sim.node import new_node
from minikubelet.status.status_manager import new_manager
from minikubelet.types import ConfigMirrorAnnotationKey, ConfigSourceAnnotationKey, FileSource
from minikubelet.util.queue.work_queue import BasicWorkQueue


def replace_everywhere(old: object, new: object) -> list[tuple[dict[str, Any], str]]:
    """Make every module-level name bound to ``old`` (in any loaded module) refer to ``new``.

    A port function is imported by name into many modules (and into the learner's file): this
    is how a check's spy, or the learner's function, takes its place for everyone. Returns the
    (namespace, name) pairs changed.
    """
    changed = []
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for key, value in list(namespace.items()):
            if value is old:
                namespace[key] = new
                changed.append((namespace, key))
    return changed


@contextlib.contextmanager
def replaced(old: object, new: object) -> Iterator[None]:
    """:func:`replace_everywhere` for the duration of a ``with`` block."""
    changed = replace_everywhere(old, new)
    try:
        yield
    finally:
        for namespace, key in changed:
            namespace[key] = old


def run_go(
    main: Callable[[], Awaitable[Any]],
    *,
    seed: int = 1,
    until: float | None = 60 * Second,
    verbosity: int = 4,
) -> str:
    """Run ``main`` under the virtual clock (bounded by ``until``); return kubelet's log."""
    log = io.StringIO()
    klog.configure(verbosity=verbosity, out=log)
    try:
        go.run(main, seed=seed, until=until)
    finally:
        klog.configure(verbosity=0, out=None)
    return log.getvalue()


def elapsed() -> float:
    """Seconds of virtual time since the run started, rounded to the microsecond."""
    return round(go.current_runtime().clock.monotonic(), 6)


def make_pod(
    name: str,
    uid: str | None = None,
    *,
    namespace: str = "default",
    created: float | None = None,
    cpu: str | None = None,
    source: str | None = None,
    mirror: bool = False,
    labels: dict[str, str] | None = None,
) -> Pod:
    """A one-container pod; ``created`` is seconds after the virtual epoch."""
    container: dict[str, Any] = {"name": "main", "image": "nginx:1.21"}
    if cpu is not None:
        container["resources"] = {"requests": {"cpu": cpu}}
    annotations: dict[str, str] = {}
    if source is not None:
        annotations[ConfigSourceAnnotationKey] = source
    if mirror:
        annotations[ConfigMirrorAnnotationKey] = "mirror"
    metadata: dict[str, Any] = {"name": name, "namespace": namespace, "uid": uid or f"uid-{name}"}
    if labels:
        metadata["labels"] = labels
    if annotations:
        metadata["annotations"] = annotations
    pod = pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": metadata,
            "spec": {"containers": [container]},
        }
    )
    if created is not None:
        pod.metadata.creation_timestamp = go.VIRTUAL_EPOCH + created
    return pod


@dataclass
class RecordingHandler:
    """A SyncHandler that records each call (and its virtual time) instead of syncing."""

    calls: list[tuple[str, list[str]]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    cleanup_error: Exception | None = None

    def _record(self, what: str, pods: list[Pod]) -> None:
        self.calls.append((what, [p.metadata.name for p in pods]))
        rt = go.current_runtime_or_none()
        self.times.append(round(rt.clock.monotonic(), 6) if rt is not None else 0.0)

    async def handle_pod_additions(self, pods: list[Pod]) -> None:
        self._record("additions", pods)

    async def handle_pod_updates(self, pods: list[Pod]) -> None:
        self._record("updates", pods)

    async def handle_pod_removes(self, pods: list[Pod]) -> None:
        self._record("removes", pods)

    async def handle_pod_reconcile(self, pods: list[Pod]) -> None:
        self._record("reconcile", pods)

    async def handle_pod_syncs(self, pods: list[Pod]) -> None:
        self._record("syncs", pods)

    async def handle_pod_cleanups(self) -> None:
        self._record("cleanups", [])
        if self.cleanup_error is not None:
            raise self.cleanup_error


class FakePLEG:
    """A PLEG whose channel the test feeds directly."""

    def __init__(self) -> None:
        self.ch: Chan[PodLifecycleEvent] = make_chan(1000, name="plegCh")

    def start(self) -> None:
        """Nothing relists: the test sends the events itself."""

    def watch(self) -> Chan[PodLifecycleEvent]:
        return self.ch

    def healthy(self) -> tuple[bool, Exception | None]:
        return True, None


@dataclass
class RecordingPodWorkers:
    """Pod workers that record what they are asked to do: (pod name, sync type)."""

    updates: list[tuple[str, str]] = field(default_factory=list)
    options: list[UpdatePodOptions] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)

    async def update_pod(self, options: UpdatePodOptions) -> None:
        self.updates.append((options.pod.metadata.name, str(options.update_type)))
        self.options.append(options)

    def forget_non_existing_pod_workers(self, desired_pods: set[str]) -> None:
        """Forget, as kubelet's workers do, each pod updated here that is no longer desired."""
        for uid in dict.fromkeys(o.pod.metadata.uid for o in self.options):
            if uid not in desired_pods and uid not in self.forgotten:
                self.forget_worker(uid)

    def forget_worker(self, uid: str) -> None:
        self.forgotten.append(uid)


@dataclass
class RecordingProbeManager:
    """A probe manager that records the pods added to it."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def add_pod(self, pod: Pod) -> None:
        self.added.append(pod.metadata.name)

    def remove_pod(self, pod: Pod) -> None:
        self.removed.append(pod.metadata.name)

    def cleanup_pods(self, desired_pods: ContainerSet[str]) -> None:
        """No probe workers run here: none to stop."""

    def update_pod_status(self, pod_uid: str, pod_status: PodStatus) -> None:
        """No probes run here: the statuses keep what the runtime reported."""


def recorders(kl: Kubelet) -> tuple[RecordingPodWorkers, RecordingProbeManager]:
    """The recording pod workers and probe manager [`new_kubelet`][] put behind ``kl``."""
    assert isinstance(kl.pod_workers, RecordingPodWorkers)
    assert isinstance(kl.probe_manager, RecordingProbeManager)
    return kl.pod_workers, kl.probe_manager


def recorded_events(recorder: EventRecorder) -> list[Event]:
    """The events kept by ``recorder``: the walkthrough's kubelets and fake runtimes record
    with a [`Recorder`][minikubelet.k8s_io.client_go.tools.record.event.Recorder]."""
    assert isinstance(recorder, Recorder)
    return recorder.events


def new_kubelet(
    cls: type[Kubelet] = Kubelet,
    *,
    sources: set[str] | None = None,
    max_pods: int | None = None,
    cpu: str = "4",
) -> Kubelet:
    """A ``cls`` with the real loop-side parts and recorders behind the handlers.

    Call it inside :func:`run_go`. With ``max_pods``, admission checks pods against a node of
    that many pods and ``cpu`` CPUs, as kubelet's predicate admit handler does.
    """
    clock = go.current_runtime().clock
    pod_manager = BasicManager(BasicMirrorClient())
    # The handlers under test do not reach the runtime; it is a fresh fake all the same.
    runtime = new_fake_runtime(clock).manager
    kl = cls(
        node_name="node-1",
        clock=clock,
        recorder=Recorder(),
        pod_manager=pod_manager,
        status_manager=new_manager(None, pod_manager),
        work_queue=BasicWorkQueue(clock),
        container_runtime=runtime,
        runtime_cache=new_runtime_cache(runtime, clock),
        pod_cache=new_cache(),
        pleg=FakePLEG(),
        runtime_state=new_runtime_state(clock, 30 * Second),
        sources_ready=SourcesReady(lambda seen: seen >= (sources or {FileSource})),
        liveness_manager=ResultsManager("liveness"),
        readiness_manager=ResultsManager("readiness"),
        startup_manager=ResultsManager("startup"),
        reason_cache=ReasonCache(),
        back_off=new_back_off(backOffPeriod, MaxContainerBackOff),
    )
    # Made after the Kubelet in kubelet too (new_main_kubelet): not constructor arguments.
    kl.pod_workers = RecordingPodWorkers()
    kl.probe_manager = RecordingProbeManager()
    if max_pods is not None:
        node = new_node("node-1", cpu=cpu, memory="8Gi", pods=max_pods)
        kl.admit_handlers.append(
            new_predicate_admit_handler(
                lambda: node, new_admission_failure_handler_stub(), lambda node_info, attrs: None
            )
        )
    return kl
