"""What ch05/requeue checks in your ``wrap_up``: the work queue's delay after each kind of sync."""

from __future__ import annotations

from minikubelet.pod_workers import PodWorkersImpl
from minikubelet.types import SyncPodType
from walkthrough.ch05.workers_harness import (
    NetworkNotReadyErrorMsg,
    Run,
    run_workers,
    update,
    version,
)
from walkthrough.expect import expect

PODS = [f"pod-{i:02}" for i in range(40)]


def requeued(errors: dict[str, str] | None = None, pods: list[str] | None = None) -> Run:
    """Each pod is created at 0 s; its sync takes 5 s and then fails with ``errors[pod]``."""

    async def script(workers: PodWorkersImpl, run: Run) -> None:
        for name in pods or ["web"]:
            await workers.update_pod(update(version(name, 1), SyncPodType.CREATE))

    return run_workers(script, errors=errors, until=30.0)


def due(run: Run, pod: str) -> str:
    t = run.due.get(f"uid-{pod}")
    return "not queued" if t is None else f"due at {t:g} s"


def check_after_a_sync_that_succeeded_the_pod_is_resynced_in_a_minute_or_so() -> None:
    run = requeued()
    t = run.due.get("uid-web")
    expect(
        t is not None and 65 <= t < 95,
        en="web's sync succeeded at 5 s. With no event at all it must still be synced again: at "
        f"the resync interval (1 minute) plus up to half of it, so between 65 s and 95 s. Yours: "
        f"{due(run, 'web')}.",
        zh="web 的同步在 5 秒时成功。即使没有任何事件，它也必须再被同步：在重新同步间隔（1 分钟）再加上最多"
        f"一半的抖动之后，也就是 65 秒到 95 秒之间。你的结果：{due(run, 'web')}。",
    )


def check_a_failed_sync_is_retried_after_ten_to_fifteen_seconds() -> None:
    run = requeued({"web": "failed to start container"})
    t = run.due.get("uid-web")
    expect(
        t is not None and 15 <= t < 20,
        en="web's sync failed at 5 s. It must be retried after the back-off period (10 s) plus "
        "up to half of it, between 15 s and 20 s: soon enough to recover, not so soon that a "
        f"broken pod keeps kubelet busy. Yours: {due(run, 'web')}.",
        zh="web 的同步在 5 秒时失败了。它必须在退避周期（10 秒）再加上最多一半的抖动之后重试，也就是 15 秒到"
        f" 20 秒之间：足够快，能尽早恢复；又不至于太快，让一个坏掉的 Pod 一直占着 kubelet。你的结果：{due(run, 'web')}。",
    )


def check_a_pod_waiting_for_the_network_is_retried_within_two_seconds() -> None:
    run = requeued({"web": f"{NetworkNotReadyErrorMsg}: cni config uninitialized"})
    t = run.due.get("uid-web")
    expect(
        t is not None and 6 <= t < 6.5,
        en="web's sync failed at 5 s because the node's network is not ready. That usually lasts "
        "seconds, so it must be retried after the short transient back-off (1 s) plus up to "
        f"half of it, between 6 s and 6.5 s. Yours: {due(run, 'web')}.",
        zh="web 的同步在 5 秒时失败，原因是节点的网络还没就绪。这通常只持续几秒，所以它必须在针对暂时性错误的"
        f"短暂退避（1 秒）再加上最多一半的抖动之后重试，也就是 6 秒到 6.5 秒之间。你的结果：{due(run, 'web')}。",
    )


def check_pods_synced_together_come_back_at_different_times() -> None:
    run = requeued(pods=PODS)
    times = sorted(run.due.get(f"uid-{p}", -1.0) for p in PODS)
    expect(
        all(65 <= t < 95 for t in times) and times[-1] - times[0] >= 15,
        en="40 pods were synced together and all succeeded at 5 s. Each must come back between "
        "65 s and 95 s, at a random moment (the jitter), so that they spread out instead of "
        "resyncing in the same second every minute. Yours: from "
        f"{times[0]:g} s to {times[-1]:g} s.",
        zh="40 个 Pod 一起同步，都在 5 秒时成功。每个都必须在 65 秒到 95 秒之间的一个随机时刻回来（抖动），"
        "这样它们会错开，而不是每分钟都在同一秒里重新同步。你的结果：从 "
        f"{times[0]:g} 秒到 {times[-1]:g} 秒。",
    )
