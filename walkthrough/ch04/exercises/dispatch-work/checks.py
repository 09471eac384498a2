"""What ch04/dispatch-work checks in your ``dispatch_work``."""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

from minikubelet.k8s_io.api.core.v1 import (
    ContainerState,
    ContainerStateRunning,
    ContainerStateTerminated,
    ContainerStatus,
    Pod,
    PodPhase,
    PodStatus,
)
from minikubelet.types import SyncPodType
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import make_pod, new_kubelet, recorders, run_go


def running() -> list[ContainerStatus]:
    return [ContainerStatus(name="main", state=ContainerState(running=ContainerStateRunning()))]


def exited() -> list[ContainerStatus]:
    state = ContainerState(terminated=ContainerStateTerminated(exit_code=0))
    return [ContainerStatus(name="main", state=state)]


def dispatch(pod: Pod, sync_type: SyncPodType, mirror: Pod | None = None):
    state: dict[str, Any] = {"terminated": []}

    async def main() -> None:
        kl = new_kubelet()

        async def terminate_pod(p: Pod) -> None:
            state["terminated"].append(p.metadata.name)

        kl.pod_manager.add_pod(pod)
        with patch.object(kl.status_manager, "terminate_pod", terminate_pod):
            await kl.dispatch_work(pod, sync_type, mirror, kl.clock.now())
        state["options"] = recorders(kl)[0].options

    log = run_go(main)
    return state, log


def check_a_live_pod_goes_to_its_worker() -> None:
    pod = make_pod("web")
    pod.status = PodStatus(phase=PodPhase.RUNNING, container_statuses=running())
    mirror = make_pod("web-mirror", mirror=True)
    state, _ = dispatch(pod, SyncPodType.CREATE, mirror)
    got = [(o.pod.metadata.name, o.update_type, o.mirror_pod) for o in state["options"]]
    expect_equal(
        [(name, str(kind)) for name, kind, _ in got],
        [("web", "create")],
        en="A pod that is alive must be handed to its pod worker, once, with the sync type "
        "the handler asked for: the worker syncs it in a goroutine of its own.",
        zh="仍然存活的 Pod 要交给它的 Pod worker，只交一次，并带上 handler 要求的同步类型："
        "worker 会在它自己的 goroutine 里同步这个 Pod。",
    )
    expect(
        got[0][2] is mirror,
        en="The worker needs the mirror pod too (it keeps a static pod's mirror in step).",
        zh="worker 也需要镜像 Pod（它要让静态 Pod 的镜像 Pod 保持同步）。",
    )


def check_the_sync_type_is_passed_on() -> None:
    for kind in (SyncPodType.UPDATE, SyncPodType.SYNC):
        pod = make_pod("web")
        state, _ = dispatch(pod, kind)
        got = [str(o.update_type) for o in state["options"]]
        expect_equal(
            got,
            [str(kind)],
            en="The worker must get the sync type dispatch_work was given.",
            zh="worker 收到的同步类型应当就是传给 dispatch_work 的那个。",
        )


def check_a_deleted_pod_whose_containers_stopped_is_terminated() -> None:
    pod = make_pod("web")
    pod.metadata.deletion_timestamp = pod.metadata.creation_timestamp or 0.0
    pod.status = PodStatus(phase=PodPhase.RUNNING, container_statuses=exited())
    state, log = dispatch(pod, SyncPodType.UPDATE)
    expect_equal(
        state["terminated"],
        ["web"],
        en="A pod with a deletion timestamp whose containers are all terminal is done: the "
        "status manager must hear that it terminated, so that the pod can be deleted from "
        "the API server.",
        zh="带删除时间戳、且所有容器都已结束的 Pod 已经完成了：要让状态管理器知道它已经终止，"
        "这样这个 Pod 才能从 API Server 删除。",
    )
    expect_equal(
        state["options"],
        [],
        en="…and that is all: such a pod is not handed to its worker.",
        zh="……仅此而已：这样的 Pod 不再交给 worker。",
    )
    expect(
        "Pod has completed execution and should be deleted from the API server" in log,
        en='Say so at verbosity 4: "Pod has completed execution and should be deleted from '
        'the API server", with the pod and the sync type.',
        zh='在日志级别 4 下记一行："Pod has completed execution and should be deleted from '
        'the API server"，带上 Pod 和同步类型。',
    )


def check_a_deleted_pod_still_running_goes_to_its_worker() -> None:
    pod = make_pod("web")
    pod.metadata.deletion_timestamp = pod.metadata.creation_timestamp or 0.0
    pod.status = PodStatus(phase=PodPhase.RUNNING, container_statuses=running())
    state, _ = dispatch(pod, SyncPodType.UPDATE)
    expect(
        state["terminated"] == [] and len(state["options"]) == 1,
        en="A deleted pod whose containers still run must go to its worker (which stops "
        "them); it has not terminated yet.",
        zh="已被删除但容器还在运行的 Pod，要交给它的 worker（由 worker 停止容器）；它还没有终止。",
    )


def check_a_finished_pod_is_left_alone() -> None:
    pod = make_pod("job")
    pod.status = PodStatus(phase=PodPhase.SUCCEEDED, container_statuses=exited())
    state, _ = dispatch(pod, SyncPodType.SYNC)
    expect(
        state["options"] == [] and state["terminated"] == [],
        en="A pod that Succeeded (or Failed) and whose containers are terminated needs no more "
        "work: nothing goes to its worker.",
        zh="已经 Succeeded（或 Failed）且容器都已结束的 Pod 不需要再做任何事：不交给它的 worker。",
    )
