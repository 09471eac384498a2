"""Pods and a tiny "kubelet" loop for the runtime tests: build pods, sync them every second."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from minikubelet import go
from minikubelet.container.runtime import PodStatus
from minikubelet.container.sync_result import PodSyncResult
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import Backoff, new_back_off
from minikubelet.kubelet import MaxContainerBackOff, backOffPeriod
from minikubelet.sim.container_runtime import FakeRuntime, new_fake_runtime


def container(name: str, image: str = "busybox:1.34", **kw: Any) -> v1.Container:
    """A container with an explicit pull policy (the API loader would default it)."""
    kw.setdefault("image_pull_policy", v1.PullIfNotPresent)
    return v1.Container(name=name, image=image, **kw)


def make_pod(
    name: str = "web",
    containers: list[v1.Container] | None = None,
    init_containers: list[v1.Container] | None = None,
    *,
    namespace: str = "default",
    uid: str | None = None,
    restart_policy: v1.RestartPolicy = v1.RestartPolicyAlways,
    scenario: str | None = None,
    images: str | None = None,
    grace: int | None = 30,
) -> v1.Pod:
    annotations = {}
    if scenario is not None:
        annotations["minikubelet.dev/scenario"] = scenario
    if images is not None:
        annotations["minikubelet.dev/images"] = images
    return v1.Pod(
        metadata=v1.ObjectMeta(
            name=name, namespace=namespace, uid=uid or f"uid-{name}", annotations=annotations
        ),
        spec=v1.PodSpec(
            containers=containers if containers is not None else [container("app")],
            init_containers=init_containers or [],
            restart_policy=restart_policy,
            termination_grace_period_seconds=grace,
        ),
    )


def rel(t: float) -> float:
    """Seconds since the start of a virtual run."""
    return round(float(t) - go.VIRTUAL_EPOCH, 3)


@dataclass
class Node:
    """The runtime manager on the fake runtime, and a loop that syncs pods like kubelet."""

    pods: list[v1.Pod]
    scenario: Any = None
    seed: int = 0
    fake: FakeRuntime = field(init=False)
    back_off: Backoff = field(init=False)
    #: (seconds since start, pod name, result) of every sync.
    results: list[tuple[float, str, PodSyncResult]] = field(default_factory=list)

    def __post_init__(self) -> None:
        by_uid = {p.metadata.uid: p for p in self.pods}
        self.fake = new_fake_runtime(scenario=self.scenario, seed=self.seed, pod_lookup=by_uid.get)
        self.back_off = new_back_off(backOffPeriod, MaxContainerBackOff)

    @property
    def manager(self):
        return self.fake.manager

    async def status(self, pod: v1.Pod) -> PodStatus:
        m = pod.metadata
        return await self.manager.get_pod_status(m.uid, m.name, m.namespace)

    async def sync(self, pod: v1.Pod) -> PodSyncResult:
        result = await self.manager.sync_pod(pod, await self.status(pod), [], self.back_off)
        self.results.append((rel(go.now()), pod.metadata.name, result))
        return result

    async def run(self, seconds: float, period: float = 1.0) -> None:
        """Sync every pod every ``period`` for ``seconds`` of virtual time."""
        end = float(go.now()) + seconds
        while float(go.now()) < end:
            for pod in self.pods:
                await self.sync(pod)
            await go.sleep(period)

    def reasons(self, pod_name: str | None = None) -> list[str]:
        """The error of each sync (its StartContainer/CreatePodSandbox reason), "" if none."""
        out = []
        for _, name, r in self.results:
            if pod_name is not None and name != pod_name:
                continue
            errs = [str(s.error) for s in r.sync_results if s.error is not None]
            out.append(",".join(errs))
        return out

    def events(self, reason: str | None = None) -> list[tuple[str, str]]:
        return [
            (e.reason, e.message)
            for e in self.fake.recorder.events
            if reason is None or e.reason == reason
        ]


def dedup(xs: list[str]) -> list[str]:
    """Consecutive duplicates removed."""
    out: list[str] = []
    for x in xs:
        if not out or out[-1] != x:
            out.append(x)
    return out
