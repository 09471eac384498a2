"""Run the whole port (sources → syncLoop → pod workers → SyncPod → PLEG) for a scenario test."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minikubelet import go
from minikubelet.apis.config.types import KubeletConfiguration
from minikubelet.github_com.google.cadvisor.info.v1.machine import MachineInfo
from minikubelet.k8s_io.api.core.v1 import Pod, PodStatus
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kubelet import Kubelet, make_pod_source_config, new_main_kubelet
from minikubelet.sim.cgroup_fs import SimCgroupFS
from minikubelet.sim.container_runtime import new_fake_runtime
from minikubelet.sim.dependencies import new_dependencies
from minikubelet.types import ApiserverSource, PodOperation, PodUpdate

NODE = "node-1"


@dataclass
class Run:
    """What a run left behind: the log, each pod's phase history, the final state."""

    log: str
    phases: dict[str, list[tuple[float, str]]] = field(default_factory=dict)
    statuses: dict[str, PodStatus] = field(default_factory=dict)
    events: list[Any] = field(default_factory=list)
    running_containers: dict[str, list[str]] = field(default_factory=dict)
    #: pod name → how many containers (running or dead) the runtime still holds for it.
    runtime_containers: dict[str, int] = field(default_factory=dict)
    #: The node's cgroup tree at the end: path → the files written in it.
    cgroups: dict[str, dict[str, Any]] = field(default_factory=dict)

    def phase(self, name: str) -> str:
        return self.statuses[name].phase


def run_kubelet(
    *,
    manifests: Path | None = None,
    pods: list[Pod] | None = None,
    changes: list[tuple[float, list[Pod]]] | None = None,
    scenario: dict[str, Any] | None = None,
    until: float = 30.0,
    seed: int = 1,
    cpu: str = "4",
    memory: str = "8Gi",
    max_pods: int = 110,
    verbosity: int = 2,
    setup: Callable[[Kubelet], None] | None = None,
    keep_events: bool = True,
) -> Run:
    """Run kubelet for ``until`` virtual seconds.

    Pods come from a manifest directory, and/or are sent as the API source's pods: ``pods`` at
    0 s, then each ``(time, pods)`` of ``changes`` as the source's new full set. ``setup`` gets
    the Kubelet before it runs. ``keep_events=False`` keeps no events (``Run.events`` stays
    empty), as kubelet with no API server: for runs too long to hold them all.
    """
    log = io.StringIO()
    result = Run(log="")
    recorder = Recorder(keep=keep_events)
    runtime = new_fake_runtime(scenario=scenario, seed=seed, recorder=recorder)
    machine = MachineInfo(cpu=Quantity.parse(cpu), memory=Quantity.parse(memory))
    cgroup_fs = SimCgroupFS()
    cfg = KubeletConfiguration(
        static_pod_path=str(manifests) if manifests else "", max_pods=max_pods
    )
    holder: dict[str, Kubelet] = {}

    async def main() -> None:
        pod_cfg = make_pod_source_config(cfg, recorder, NODE, lambda: True, None)
        kl = new_main_kubelet(
            cfg,
            new_dependencies(runtime, machine, pod_cfg, None, cgroup_fs),
            hostname=NODE,
            node_name=NODE,
            machine_info=machine,
        )
        kl.start_garbage_collection()  # as kubelet's main does, before Run
        holder["kl"] = kl
        if setup is not None:
            setup(kl)
        start = go.now()

        def on_change(pod: Pod, new: PodStatus, old: PodStatus | None) -> None:
            history = result.phases.setdefault(pod.metadata.name, [])
            if not history or history[-1][1] != new.phase:
                history.append((round(go.now() - start, 3), str(new.phase)))

        kl.status_manager.on_status_change = on_change
        result.events = recorder.events
        if pods is not None or changes:

            async def feed() -> None:
                ch = pod_cfg.channel(ApiserverSource)
                await ch.send(PodUpdate(pods=list(pods or []), op=PodOperation.SET))
                for at, new_pods in changes or []:
                    await go.sleep(start + at - go.now())
                    await ch.send(PodUpdate(pods=list(new_pods), op=PodOperation.SET))

            go.go(feed)
        await kl.run(pod_cfg.updates())

    klog.configure(verbosity=verbosity, out=log)
    try:
        go.run(main, seed=seed, until=until)
    finally:
        klog.configure(verbosity=0, out=None)
    kl = holder["kl"]
    result.log = log.getvalue()
    result.cgroups = {p: dict(f) for p, f in cgroup_fs.cgroups.items()}
    for pod in kl.pod_manager.get_pods():
        status, ok = kl.status_manager.get_pod_status(pod.metadata.uid)
        result.statuses[pod.metadata.name] = status if ok else pod.status
    # The fake runtime marks containers exited lazily, on its next call: judge by the clock.
    end_ns = int(kl.clock.now() * 1e9)
    for c in runtime.runtime_service.containers.values():
        owner = c.config.labels.get("io.kubernetes.pod.name", "")
        result.runtime_containers[owner] = result.runtime_containers.get(owner, 0) + 1
        running = c.state == runtimeapi.ContainerState_CONTAINER_RUNNING
        if running and (c.end_at is None or c.end_at > end_ns):
            pod_name = c.config.labels.get("io.kubernetes.pod.name", "")
            result.running_containers.setdefault(pod_name, []).append(c.config.metadata.name)
    return result
