"""Pods and runtime views of them, and computePodActions' plan for them in a few words.

Chapter 7's example prints plans with :func:`describe`; its exercises' checks build a pod and
what the runtime reports about it (:func:`pod`, :func:`running`, :func:`exited` …) and read the
plan the port's ``compute_pod_actions`` (or the learner's, put in its place) makes for it.
"""

from __future__ import annotations

from typing import Any

from minikubelet.base.i18n import text
from minikubelet.config.manifest import pod_from_dict
from minikubelet.container.helpers import hash_container
from minikubelet.container.runtime import (
    ContainerID,
    ContainerStateExited,
    ContainerStateRunning,
    ContainerStateUnknown,
    PodStatus,
    State,
    Status,
)
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.kuberuntime.kuberuntime_manager import PodActions
from minikubelet.prober.results.results_manager import Result, ResultsManager
from minikubelet.sim.container_runtime import new_fake_runtime

#: When the containers of these pods started (seconds since the Unix epoch).
STARTED = 1_626_307_200.0


def describe(pod: v1.Pod, changes: PodActions, lang: str = "en") -> str:
    """A plan in a few words: "kill the pod; new sandbox (attempt 0); start app"."""
    parts = []
    if changes.kill_pod:
        parts.append(text("kill the pod", "杀掉整个 Pod", lang))
    if changes.create_sandbox:
        parts.append(
            text(
                f"new sandbox (attempt {changes.attempt})",
                f"新建沙箱（attempt {changes.attempt}）",
                lang,
            )
        )
    if changes.containers_to_kill:
        names = ", ".join(info.name for info in changes.containers_to_kill.values())
        parts.append(text(f"kill {names}", f"杀掉 {names}", lang))
    if changes.next_init_container_to_start is not None:
        name = changes.next_init_container_to_start.name
        parts.append(text(f"start init container {name}", f"启动 init 容器 {name}", lang))
    if changes.containers_to_start:
        names = ", ".join(pod.spec.containers[i].name for i in changes.containers_to_start)
        parts.append(text(f"start {names}", f"启动 {names}", lang))
    return "; ".join(parts) or text("nothing to do", "无事可做", lang)


def pod(
    containers: list[str],
    init_containers: list[str] | None = None,
    *,
    restart_policy: str = v1.RestartPolicyAlways,
    deleted: bool = False,
) -> v1.Pod:
    """A pod named "web" with containers of these names (images "busybox:1.33")."""
    metadata: dict[str, Any] = {"name": "web", "namespace": "default", "uid": "uid-web"}
    if deleted:
        metadata["deletionTimestamp"] = "2021-07-15T00:00:30Z"
    spec: dict[str, Any] = {
        "restartPolicy": restart_policy,
        "containers": [{"name": n, "image": "busybox:1.33"} for n in containers],
    }
    if init_containers:
        spec["initContainers"] = [{"name": n, "image": "busybox:1.33"} for n in init_containers]
    return pod_from_dict({"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec})


def _spec(p: v1.Pod, name: str) -> v1.Container:
    for c in [*p.spec.init_containers, *p.spec.containers]:
        if c.name == name:
            return c
    raise LookupError(name)


def _status(p: v1.Pod, name: str, state: State, exit_code: int = 0) -> Status:
    return Status(
        id=ContainerID("fake", f"id-{name}"),
        name=name,
        state=state,
        exit_code=exit_code,
        hash=hash_container(_spec(p, name)),
        created_at=STARTED,
        started_at=STARTED,
        finished_at=STARTED + 5 if state == ContainerStateExited else 0.0,
    )


def running(p: v1.Pod, name: str) -> Status:
    return _status(p, name, ContainerStateRunning)


def exited(p: v1.Pod, name: str, exit_code: int) -> Status:
    return _status(p, name, ContainerStateExited, exit_code)


def unknown(p: v1.Pod, name: str) -> Status:
    return _status(p, name, ContainerStateUnknown)


def changed(status: Status) -> Status:
    """``status`` as if its container had been created from another version of its spec."""
    status.hash += 1
    return status


def ready_sandbox() -> runtimeapi.PodSandboxStatus:
    """The pod's one sandbox, ready, with an IP."""
    return runtimeapi.PodSandboxStatus(
        id="sandbox-1",
        metadata=runtimeapi.PodSandboxMetadata(name="web", namespace="default", attempt=0),
        state=runtimeapi.PodSandboxState_SANDBOX_READY,
        created_at=1,
        network=runtimeapi.PodSandboxNetworkStatus(ip="10.88.0.2"),
        linux=runtimeapi.LinuxPodSandboxStatus(
            namespaces=runtimeapi.Namespace(
                options=runtimeapi.NamespaceOption(network=runtimeapi.NamespaceMode_POD)
            )
        ),
    )


def plan(
    p: v1.Pod,
    statuses: list[Status],
    *,
    liveness_failed: tuple[str, ...] = (),
    startup_failed: tuple[str, ...] = (),
) -> str:
    """The plan ``compute_pod_actions`` makes for ``p`` in its ready sandbox, where the runtime
    reports ``statuses``, and the named containers failed their liveness or startup probe."""
    return describe(
        p, actions(p, statuses, liveness_failed=liveness_failed, startup_failed=startup_failed)
    )


def actions(
    p: v1.Pod,
    statuses: list[Status],
    *,
    liveness_failed: tuple[str, ...] = (),
    startup_failed: tuple[str, ...] = (),
) -> PodActions:
    """The ``PodActions`` themselves, for the same arguments as :func:`plan`."""
    liveness, startup = ResultsManager("liveness"), ResultsManager("startup")
    manager = new_fake_runtime(liveness_manager=liveness, startup_manager=startup).manager
    for s in statuses:
        if s.name in liveness_failed:
            liveness.cache[s.id] = Result.FAILURE
        if s.name in startup_failed:
            startup.cache[s.id] = Result.FAILURE
    status = PodStatus(
        id=p.metadata.uid,
        name=p.metadata.name,
        namespace=p.metadata.namespace,
        sandbox_statuses=[ready_sandbox()],
        container_statuses=statuses,
    )
    return manager.compute_pod_actions(p, status)
