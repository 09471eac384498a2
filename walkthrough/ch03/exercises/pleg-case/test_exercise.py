"""What ch03/pleg-case expects of the PLEG case of your ``sync_loop_iteration``."""

from __future__ import annotations

from typing import Any

from minikubelet.pleg.pleg import PodLifecycleEvent, PodLifeCycleEventType
from minikubelet.sim.go import make_chan
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import RecordingHandler, elapsed, make_pod, new_kubelet, run_go

Started = PodLifeCycleEventType.CONTAINER_STARTED
Died = PodLifeCycleEventType.CONTAINER_DIED
Removed = PodLifeCycleEventType.CONTAINER_REMOVED


def events_through(ex: Any, *events: PodLifecycleEvent, verbosity: int = 4):
    """Send each event through one iteration of the learner's loop; pod "web" is known."""
    handler = RecordingHandler()
    state: dict[str, Any] = {"cleaned": []}

    class Kubelet(ex.Kubelet):
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


def test_a_started_container_syncs_its_pod(ex: Any) -> None:
    handler, _, _ = events_through(ex, PodLifecycleEvent("uid-web", Started, "c1"))
    expect_equal(
        handler.calls,
        [("syncs", ["web"])],
        en="A ContainerStarted event for a known pod must sync that pod: look it up with "
        "self.pod_manager.get_pod_by_uid(e.id) and call handler.handle_pod_syncs([pod]).",
        zh="对已知 Pod 的 ContainerStarted 事件，要同步这个 Pod：用 "
        "self.pod_manager.get_pod_by_uid(e.id) 找到它，再调用 handler.handle_pod_syncs([pod])。",
    )


def test_a_started_container_is_timed(ex: Any) -> None:
    _, state, _ = events_through(ex, PodLifecycleEvent("uid-web", Started, "c1"))
    expect_equal(
        state["started"],
        {"uid-web": state["now"]},
        en="A ContainerStarted event must record when it happened, in "
        "self.last_container_started_time[e.id] (deletePod uses it).",
        zh="收到 ContainerStarted 事件时，要把时间记到 self.last_container_started_time[e.id]"
        "（deletePod 会用到）。",
    )


def test_a_died_container_syncs_and_is_cleaned_up(ex: Any) -> None:
    handler, state, _ = events_through(ex, PodLifecycleEvent("uid-web", Died, "c1"))
    expect_equal(
        handler.calls,
        [("syncs", ["web"])],
        en="A ContainerDied event is worth a sync too: kubelet must look at the pod again.",
        zh="ContainerDied 事件也值得同步一次：kubelet 需要重新看看这个 Pod。",
    )
    expect_equal(
        state["cleaned"],
        [("uid-web", "c1")],
        en="After a ContainerDied event whose data is the container's ID, the loop must call "
        "self.clean_up_containers_in_pod(e.id, e.data), once.",
        zh="ContainerDied 事件的 data 是容器 ID 时，主循环要调用一次 "
        "self.clean_up_containers_in_pod(e.id, e.data)。",
    )


def test_a_removed_container_is_not_worth_a_sync(ex: Any) -> None:
    handler, state, _ = events_through(ex, PodLifecycleEvent("uid-web", Removed, "c0"))
    expect_equal(
        handler.calls,
        [],
        en="A ContainerRemoved event does not change the pod's state: no sync "
        "(is_sync_pod_worthy(e) is False for it).",
        zh="ContainerRemoved 事件不会改变 Pod 的状态，所以不同步"
        "（对它 is_sync_pod_worthy(e) 返回 False）。",
    )
    expect(
        state["cleaned"] == [],
        en="Only a ContainerDied event leads to clean_up_containers_in_pod.",
        zh="只有 ContainerDied 事件才需要调用 clean_up_containers_in_pod。",
    )


def test_an_event_for_an_unknown_pod_is_ignored(ex: Any) -> None:
    handler, _, log = events_through(ex, PodLifecycleEvent("uid-gone", Started, "c9"))
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
        'event", with event=e.',
        zh='并在日志级别 4 下记一行："SyncLoop (PLEG): pod does not exist, ignore irrelevant '
        'event"，带上 event=e。',
    )


def test_the_sync_is_logged_as_kubelet_does(ex: Any) -> None:
    _, _, log = events_through(ex, PodLifecycleEvent("uid-web", Started, "c1"), verbosity=2)
    expect(
        '"SyncLoop (PLEG): event for pod" pod="default/web" event=' in log,
        en='At verbosity 2 the log must have "SyncLoop (PLEG): event for pod" with '
        "pod=klog.kobj(pod) and event=e.",
        zh='在日志级别 2 下，日志里应当有 "SyncLoop (PLEG): event for pod"，带上 '
        "pod=klog.kobj(pod) 和 event=e。",
    )
