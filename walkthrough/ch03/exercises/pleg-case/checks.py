"""What ch03/pleg-case checks in the PLEG case of your ``sync_loop_iteration``."""

from __future__ import annotations

from typing import Any

from minikubelet.go import make_chan
from minikubelet.kubelet import Kubelet as PortKubelet
from minikubelet.pleg.pleg import PodLifecycleEvent, PodLifeCycleEventType
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import RecordingHandler, elapsed, make_pod, new_kubelet, run_go

Started = PodLifeCycleEventType.CONTAINER_STARTED
Died = PodLifeCycleEventType.CONTAINER_DIED
Removed = PodLifeCycleEventType.CONTAINER_REMOVED


def events_through(*events: PodLifecycleEvent, verbosity: int = 4):
    """Send each event through one iteration of the learner's loop; pod "web" is known."""
    handler = RecordingHandler()
    state: dict[str, Any] = {"cleaned": []}

    class Kubelet(PortKubelet):
        async def clean_up_containers_in_pod(self, pod_id: str, exited_container_id: str) -> None:
            state["cleaned"].append((pod_id, exited_container_id))

    async def main() -> None:
        kl = new_kubelet(Kubelet)
        kl.pod_manager.add_pod(make_pod("web", "uid-web"))
        config_ch = make_chan(0, name="configCh")
        for event in events:
            await kl.pleg.watch().send(event)
            await kl.sync_loop_iteration(
                config_ch, handler, make_chan(1), make_chan(1), kl.pleg.watch()
            )
        state["started"] = dict(kl.last_container_started_time)
        state["now"] = kl.clock.now()
        state["elapsed"] = elapsed()

    log = run_go(main, verbosity=verbosity)
    return handler, state, log


def check_a_started_container_syncs_its_pod() -> None:
    handler, _, _ = events_through(PodLifecycleEvent("uid-web", Started, "c1"))
    expect_equal(
        handler.calls,
        [("syncs", ["web"])],
        en="A ContainerStarted event for a pod kubelet knows must sync that pod, once: the "
        "pod worker then compares what runs with what should run.",
        zh="对 kubelet 认识的 Pod，ContainerStarted 事件要让这个 Pod 同步一次："
        "Pod worker 随后会比较正在运行的和应当运行的。",
    )


def check_a_started_container_is_timed() -> None:
    _, state, _ = events_through(PodLifecycleEvent("uid-web", Started, "c1"))
    expect_equal(
        state["started"],
        {"uid-web": state["now"]},
        en="A ContainerStarted event must record, for its pod's UID, when a container of the "
        "pod last started: deletePod refreshes the runtime cache up to that time.",
        zh="收到 ContainerStarted 事件时，要按 Pod 的 UID 记下这个 Pod 的容器最近一次启动的时间："
        "deletePod 会把运行时缓存刷新到这个时间为止。",
    )


def check_a_died_container_syncs_and_is_cleaned_up() -> None:
    handler, state, _ = events_through(PodLifecycleEvent("uid-web", Died, "c1"))
    expect_equal(
        handler.calls,
        [("syncs", ["web"])],
        en="A ContainerDied event is worth a sync too: kubelet must look at the pod again.",
        zh="ContainerDied 事件也值得同步一次：kubelet 需要重新看看这个 Pod。",
    )
    expect_equal(
        state["cleaned"],
        [("uid-web", "c1")],
        en="After a ContainerDied event that carries the container's ID, the loop must clean "
        "up the dead containers of that pod, once, given the pod's UID and that ID.",
        zh="ContainerDied 事件带着容器 ID 时，主循环要清理这个 Pod 已经退出的容器，只清理一次，"
        "传入 Pod 的 UID 和这个容器 ID。",
    )


def check_a_removed_container_is_not_worth_a_sync() -> None:
    handler, state, _ = events_through(PodLifecycleEvent("uid-web", Removed, "c0"))
    expect_equal(
        handler.calls,
        [],
        en="A ContainerRemoved event does not change the pod's state: it is not worth a sync.",
        zh="ContainerRemoved 事件不会改变 Pod 的状态，不值得同步。",
    )
    expect(
        state["cleaned"] == [],
        en="Only a ContainerDied event leads to cleaning up dead containers.",
        zh="只有 ContainerDied 事件才会清理已退出的容器。",
    )


def check_an_event_for_an_unknown_pod_is_ignored() -> None:
    handler, _, log = events_through(PodLifecycleEvent("uid-gone", Started, "c9"))
    expect_equal(
        handler.calls,
        [],
        en="An event for a pod the pod manager does not know (it was deleted) must be "
        "ignored: no handler call.",
        zh="如果 pod manager 里没有这个 Pod（它已被删除），就忽略这个事件，不调用任何 handler 方法。",
    )
    expect(
        "SyncLoop (PLEG): pod does not exist, ignore irrelevant event" in log,
        en='Say so at verbosity 4: "SyncLoop (PLEG): pod does not exist, ignore irrelevant '
        'event", with the event.',
        zh='并在日志级别 4 下记一行："SyncLoop (PLEG): pod does not exist, ignore irrelevant '
        'event"，带上这个事件。',
    )


def check_the_sync_is_logged_as_kubelet_does() -> None:
    _, _, log = events_through(PodLifecycleEvent("uid-web", Started, "c1"), verbosity=2)
    expect(
        '"SyncLoop (PLEG): event for pod" pod="default/web" event=' in log,
        en='At verbosity 2 the log must have kubelet\'s line "SyncLoop (PLEG): event for pod" '
        'with the pod (as namespace/name, pod="default/web") and the event.',
        zh='在日志级别 2 下，日志里应当有 kubelet 的这一行 "SyncLoop (PLEG): event for pod"，'
        '带上 Pod（写成 namespace/name，即 pod="default/web"）和这个事件。',
    )


def check_dead_containers_are_cleaned_up_even_for_a_pod_kubelet_forgot() -> None:
    _, state, _ = events_through(PodLifecycleEvent("uid-gone", Died, "c7"))
    expect_equal(
        state["cleaned"],
        [("uid-gone", "c7")],
        en="Dead containers are cleaned up even when kubelet no longer knows their pod: the "
        "containers are still on the node, whatever happened to the pod.",
        zh="即使 kubelet 已经不认识这个 Pod，也要清理它已经退出的容器：不管 Pod 怎样了，"
        "这些容器还留在节点上。",
    )


def check_a_died_event_without_a_container_id_cleans_nothing() -> None:
    _, state, _ = events_through(PodLifecycleEvent("uid-web", Died, None))
    expect_equal(
        state["cleaned"],
        [],
        en="A ContainerDied event whose data is not a container ID (Go checks that it is a "
        "string) has nothing to clean up.",
        zh="如果 ContainerDied 事件的 data 不是容器 ID（Go 会检查它是不是字符串），就没有什么可清理的。",
    )
