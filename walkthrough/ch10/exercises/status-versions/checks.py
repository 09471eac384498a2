"""What ch10/status-versions checks in your ``update_status_internal``."""

from __future__ import annotations

from typing import Any

from minikubelet import go
from minikubelet.config.manifest import pod_from_dict
from minikubelet.k8s_io.api.core.v1 import (
    ContainerState,
    ContainerStateRunning,
    ContainerStatus,
    Pod,
    PodPhase,
    PodStatus,
)
from minikubelet.pod.mirror_client import BasicMirrorClient
from minikubelet.pod.pod_manager import BasicManager
from minikubelet.status.status_manager import new_manager
from walkthrough.expect import expect_equal
from walkthrough.fixtures import run_go


def make_pod(deleted: bool = False) -> Pod:
    metadata: dict[str, Any] = {"name": "web", "namespace": "default", "uid": "uid-web"}
    if deleted:
        metadata["deletionTimestamp"] = "2021-07-15T00:00:00Z"
    return pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": metadata,
            "spec": {"containers": [{"name": "main", "image": "nginx:1.21"}]},
        }
    )


def status(phase: PodPhase, ready: bool = False) -> PodStatus:
    c = ContainerStatus(
        name="main", ready=ready, state=ContainerState(running=ContainerStateRunning())
    )
    return PodStatus(phase=phase, container_statuses=[c])


def play(steps: list[tuple[float, Pod, PodStatus]]) -> list[tuple[int, float | None, bool]]:
    """Set each status at its time (seconds after the start); after each, the cached version,
    its start time (seconds after the start) and whether an update was queued."""
    out: list[tuple[int, float | None, bool]] = []

    async def main() -> None:
        m = new_manager(None, BasicManager(BasicMirrorClient(None)))
        t0 = go.now().unix()
        for at, pod, s in steps:
            await go.sleep(at - (go.now().unix() - t0))
            queued = await m.update_status_internal(
                pod, s, pod.metadata.deletion_timestamp is not None
            )
            cached = m.pod_statuses[pod.metadata.uid]
            start = cached.status.start_time
            out.append((cached.version, None if start is None else round(start - t0, 3), queued))

    run_go(main)
    return out


def check_each_new_status_is_the_next_version() -> None:
    pod = make_pod()
    got = play(
        [
            (0.0, pod, status(PodPhase.PENDING)),
            (1.0, pod, status(PodPhase.RUNNING)),
            (2.0, pod, status(PodPhase.RUNNING, ready=True)),
        ]
    )
    expect_equal(
        [(v, q) for v, _, q in got],
        [(1, True), (2, True), (3, True)],
        en="The first status of a pod is version 1, each new one the next version, and each is "
        "queued for the API server: the sync goroutine sends a version only if it is newer than "
        "the last one it sent.",
        zh="Pod 的第一个状态是版本 1，之后每个新状态都是下一个版本，并且每个都会排队发往 API Server："
        "同步 goroutine 只发送比它上次发送的版本更新的版本。",
    )


def check_the_start_time_is_fixed_by_the_first_status() -> None:
    pod = make_pod()
    got = play(
        [
            (3.0, pod, status(PodPhase.PENDING)),
            (7.0, pod, status(PodPhase.RUNNING)),
        ]
    )
    expect_equal(
        [s for _, s, _ in got],
        [3.0, 3.0],
        en="The pod's startTime is set by its first status (here at 3 s) and never moves after: "
        "activeDeadlineSeconds counts from it.",
        zh="Pod 的 startTime 由它的第一个状态确定（这里是 3 秒），之后再也不变：activeDeadlineSeconds 就从它算起。",
    )


def check_an_unchanged_status_is_not_a_new_version() -> None:
    pod = make_pod()
    got = play(
        [
            (0.0, pod, status(PodPhase.RUNNING)),
            (1.0, pod, status(PodPhase.RUNNING)),
        ]
    )
    expect_equal(
        [(v, q) for v, _, q in got],
        [(1, True), (1, False)],
        en="The same status a second time is not a new version and is not queued: every sync "
        "of a pod computes its status, and most change nothing.",
        zh="同一个状态第二次到来，不是新版本，也不会排队：每次同步都会计算状态，而大多数什么也没改变。",
    )


def check_a_pod_being_deleted_always_gets_a_new_version() -> None:
    pod = make_pod(deleted=True)
    got = play(
        [
            (0.0, pod, status(PodPhase.RUNNING)),
            (1.0, pod, status(PodPhase.RUNNING)),
        ]
    )
    expect_equal(
        [(v, q) for v, _, q in got],
        [(1, True), (2, True)],
        en="For a pod being deleted the update is forced: even an unchanged status becomes a new "
        "version, so that the status manager looks again at whether it may delete the pod.",
        zh="对正在删除的 Pod，更新是强制的：即使状态没变也会成为一个新版本，这样状态管理器才会再看一次能否删除这个 Pod。",
    )
