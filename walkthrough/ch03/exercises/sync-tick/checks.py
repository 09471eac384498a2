"""What ch03/sync-tick checks in the syncCh case of your ``sync_loop_iteration``."""

from __future__ import annotations

from typing import Any

from minikubelet.go import make_chan
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import RecordingHandler, make_pod, new_kubelet, run_go


def tick(due: list[str], pods: tuple[str, ...] = ("a", "b", "c"), verbosity: int = 4):
    """Pods ``pods`` are known; those in ``due`` are due now; one sync tick goes through."""
    handler = RecordingHandler()
    state: dict[str, Any] = {"handler": handler}

    async def main() -> None:
        kl = new_kubelet()
        for name in pods:
            kl.pod_manager.add_pod(make_pod(name))
        for name in due:
            kl.work_queue.enqueue(f"uid-{name}", -1)  # due a second ago
        kl.work_queue.enqueue("uid-b", 60)  # due in a minute: not now
        sync_ch = make_chan(1, name="syncCh")
        await sync_ch.send(0.0)
        state["result"] = await kl.sync_loop_iteration(
            make_chan(1), handler, sync_ch, make_chan(1), kl.pleg.watch()
        )

    state["log"] = run_go(main, verbosity=verbosity)
    return state


def check_the_pods_due_are_synced_in_one_call() -> None:
    state = tick(due=["a", "c"])
    expect_equal(
        state["handler"].calls,
        [("syncs", ["a", "c"])],
        en="On a sync tick, the pods whose sync is due (a and c; b is due in a minute) must go "
        "to the handler's sync, together, in one call.",
        zh="同步定时器触发时，到期需要同步的 Pod（a 和 c；b 要一分钟后才到期）要一起交给 handler "
        "同步，只调用一次。",
    )
    expect(
        state["result"] is True,
        en="After a sync tick the loop goes on (the iteration returns True).",
        zh="同步触发之后主循环继续（迭代返回 True）。",
    )


def check_nothing_due_nothing_done() -> None:
    state = tick(due=[])
    expect_equal(
        state["handler"].calls,
        [],
        en="When no pod is due, a sync tick does nothing: no call to the handler (it comes "
        "every second, for every pod that kubelet runs).",
        zh="没有 Pod 到期时，同步触发什么都不做：不调用 handler（它每秒都会来一次）。",
    )
    expect(
        "SyncLoop (SYNC)" not in state["log"],
        en="…and no log line either.",
        zh="……也不打印日志。",
    )


def check_the_tick_is_logged_as_kubelet_does() -> None:
    line = '"SyncLoop (SYNC) pods" total=2 pods=[default/a default/c]'
    loud, quiet = tick(due=["a", "c"])["log"], tick(due=["a", "c"], verbosity=2)["log"]
    expect(
        line in loud and line not in quiet,
        en=f"At verbosity 4 (not 2: it can come every second) the log must have kubelet's line "
        f"{line}.",
        zh=f"在日志级别 4（而不是 2：它可能每秒都出现）下，日志里应当有 kubelet 的这一行：{line}。",
    )
