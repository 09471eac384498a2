"""A small stand-in for kubelet around the probe manager, for the prober tests.

It owns what kubelet would give the manager (a status manager, three results managers, an event
recorder), records every results update and event with its time, and can play kubelet's part in
``syncLoopIteration``: when a startup or readiness result changes, recompute ``started``/``ready``
with ``UpdatePodStatus``. Times are seconds since :meth:`Harness.add`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from minikubelet import go
from minikubelet.k8s_io.api.core.v1 import (
    Container,
    ContainerPort,
    ContainerState,
    ContainerStateRunning,
    ContainerStatus,
    HTTPGetAction,
    Pod,
    PodSpec,
    PodStatus,
    Probe,
)
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.k8s_io.client_go.tools.record.event import Event, Recorder
from minikubelet.prober.prober import MinikubeletProbesAnnotation
from minikubelet.prober.prober_manager import ProberManager, new_manager
from minikubelet.prober.results.results_manager import Result, ResultsManager, Update

POD_IP = "10.0.0.5"


def http_probe(port: int | str = 8080, path: str = "/healthz", **timings: int) -> Probe:
    """An HTTP probe with the given timings (period_seconds=…, failure_threshold=…)."""
    return Probe(http_get=HTTPGetAction(port=port, path=path), **timings)


def make_pod(
    name: str = "web",
    uid: str = "uid-web",
    scripts: str | None = None,
    *,
    liveness: Probe | None = None,
    readiness: Probe | None = None,
    startup: Probe | None = None,
    container: str = "nginx",
    **spec: Any,
) -> Pod:
    """A pod with one container carrying the given probes, and probe scripts if any."""
    annotations = {} if scripts is None else {MinikubeletProbesAnnotation: scripts}
    c = Container(
        name=container,
        image="nginx:1.21",
        ports=[ContainerPort(container_port=8080, name="http")],
        liveness_probe=liveness,
        readiness_probe=readiness,
        startup_probe=startup,
    )
    return Pod(
        metadata=ObjectMeta(name=name, namespace="default", uid=uid, annotations=annotations),
        spec=PodSpec(containers=[c], **spec),
    )


def running(
    name: str, container_id: str, started_at: float, started: bool | None = None
) -> ContainerStatus:
    """The status of a running container."""
    return ContainerStatus(
        name=name,
        state=ContainerState(running=ContainerStateRunning(started_at=started_at)),
        container_id=container_id,
        started=started,
    )


class FakeStatusManager:
    """The one method of the status manager that the probe workers call."""

    def __init__(self) -> None:
        self.statuses: dict[str, PodStatus] = {}

    def get_pod_status(self, uid: str) -> tuple[PodStatus, bool]:
        status = self.statuses.get(uid)
        return (status, True) if status is not None else (PodStatus(), False)


class TimedRecorder(Recorder):
    """A recorder that also notes when each event happened."""

    def __init__(self, harness: Harness) -> None:
        super().__init__()
        self.harness = harness
        self.timed: list[tuple[float, Event]] = []

    def eventf(self, obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None:
        super().eventf(obj, event_type, reason, message_fmt, *args)
        self.timed.append((self.harness.now(), self.events[-1]))


@dataclass
class Harness:
    """The manager and everything around it. Make it inside ``go.run``."""

    kubelet: bool = True  # play kubelet's part: recompute started/ready on updates
    status_manager: FakeStatusManager = field(default_factory=FakeStatusManager)
    liveness_manager: ResultsManager = field(default_factory=lambda: ResultsManager("liveness"))
    readiness_manager: ResultsManager = field(default_factory=lambda: ResultsManager("readiness"))
    startup_manager: ResultsManager = field(default_factory=lambda: ResultsManager("startup"))
    #: (time, kind, update) of every results update, in order.
    updates: list[tuple[float, str, Update]] = field(default_factory=list)
    t_add: go.Time | None = None

    def __post_init__(self) -> None:
        self.recorder = TimedRecorder(self)
        self.manager: ProberManager = new_manager(
            self.status_manager,
            self.liveness_manager,
            self.readiness_manager,
            self.startup_manager,
            None,
            self.recorder,
        )
        for kind, m in (
            ("liveness", self.liveness_manager),
            ("readiness", self.readiness_manager),
            ("startup", self.startup_manager),
        ):
            go.go(self._collect, kind, m, name=f"collect {kind}")

    def now(self) -> float:
        """Seconds since the pod was added (or since the start, before)."""
        return round(go.since(self.t_add if self.t_add is not None else self.manager.start), 6)

    async def _collect(self, kind: str, m: ResultsManager) -> None:
        async for u in m.updates():
            self.updates.append((self.now(), kind, u))
            if self.kubelet and kind in ("startup", "readiness"):
                status, ok = self.status_manager.get_pod_status(u.pod_uid)
                if ok:
                    self.manager.update_pod_status(u.pod_uid, status)

    def add(self, pod: Pod, *, container_id: str = "containerd://nginx-1", age: float = 0.0):
        """Give the pod a running container (running for ``age`` s) and add it to the manager."""
        self.t_add = go.now()
        if container_id:
            c = pod.spec.containers[0]
            started_at = float(go.now()) - age
            self.status_manager.statuses[pod.metadata.uid] = PodStatus(
                pod_ip=POD_IP, container_statuses=[running(c.name, container_id, started_at)]
            )
        self.manager.add_pod(pod)
        # kubelet's pod worker computes the status (UpdatePodStatus) after AddPod, before any
        # probe result exists.
        if container_id and self.kubelet:
            self.manager.update_pod_status(
                pod.metadata.uid, self.status_manager.statuses[pod.metadata.uid]
            )

    def restart(self, pod: Pod, container_id: str) -> None:
        """The container was restarted: a new ID, running since now."""
        status = self.status_manager.statuses[pod.metadata.uid]
        old = status.container_statuses[0]
        status.container_statuses = [running(old.name, container_id, float(go.now()), started=None)]
        status.container_statuses[0].restart_count = old.restart_count + 1
        if self.kubelet:
            self.manager.update_pod_status(pod.metadata.uid, status)

    def of(self, kind: str) -> list[tuple[float, Result, str]]:
        """(time, result, container ID) of the updates of one results manager."""
        return [(t, u.result, str(u.container_id)) for t, k, u in self.updates if k == kind]

    def events(self, reason: str | None = None) -> list[tuple[float, str]]:
        """(time, message) of the recorded events (of one reason)."""
        return [(t, e.message) for t, e in self.recorder.timed if reason in (None, e.reason)]
