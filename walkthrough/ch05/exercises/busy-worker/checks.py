"""What ch05/busy-worker checks in your ``update_pod``: while a pod syncs, one update waits."""

from __future__ import annotations

from minikubelet import go
from minikubelet.go import Second
from minikubelet.pod_workers import PodWorkersImpl
from minikubelet.types import SyncPodType
from walkthrough.ch05.workers_harness import Run, run_workers, update, version, with_callback
from walkthrough.expect import expect_equal

CREATE, UPDATE, SYNC, KILL = (
    SyncPodType.CREATE,
    SyncPodType.UPDATE,
    SyncPodType.SYNC,
    SyncPodType.KILL,
)


def check_an_update_that_comes_during_a_sync_is_synced_after_it() -> None:
    async def script(workers: PodWorkersImpl, run: Run) -> None:
        await workers.update_pod(update(version("web", 1), CREATE))
        await go.sleep(1 * Second)
        await workers.update_pod(update(version("web", 2), UPDATE))

    run = run_workers(script)
    expect_equal(
        run.of("web"),
        ["create v1 at 0s", "update v2 at 5s"],
        en="The first sync of web runs from 0 s to 5 s; an update that comes at 1 s must not be "
        "lost: the worker syncs it as soon as the first sync is done. (Every sync takes 5 s "
        "here.)",
        zh="web 的第一次同步从 0 秒持续到 5 秒；1 秒时来的更新不能丢：第一次同步一结束，worker "
        "就要同步它。（这里每次同步耗时 5 秒。）",
    )


def check_of_several_updates_during_a_sync_only_the_latest_is_synced() -> None:
    async def script(workers: PodWorkersImpl, run: Run) -> None:
        await workers.update_pod(update(version("web", 1), CREATE))
        await go.sleep(1 * Second)
        await workers.update_pod(update(version("web", 2), UPDATE))
        await go.sleep(1 * Second)
        await workers.update_pod(update(version("web", 3), SYNC))
        await go.sleep(1 * Second)
        await workers.update_pod(update(version("web", 4), UPDATE))

    run = run_workers(script)
    expect_equal(
        run.of("web"),
        ["create v1 at 0s", "update v4 at 5s"],
        en="Three updates come while the first sync runs (versions 2, 3, 4). Each carries the "
        "whole desired pod, so only the latest matters: one more sync follows, of version 4. "
        "Syncing an older version would run the pod as it no longer should be.",
        zh="第一次同步期间来了三个更新（版本 2、3、4）。每个更新带的都是完整的期望 Pod，所以只有最新"
        "的那个要紧：之后只再同步一次，同步的是版本 4。同步更旧的版本，就会按已经过时的样子运行这个 Pod。",
    )


def check_a_waiting_kill_is_not_replaced_by_later_updates() -> None:
    async def script(workers: PodWorkersImpl, run: Run) -> None:
        await workers.update_pod(update(version("web", 1), CREATE))
        await go.sleep(1 * Second)
        await workers.update_pod(update(version("web", 1), KILL))
        await go.sleep(1 * Second)
        await workers.update_pod(update(version("web", 2), UPDATE))
        await workers.update_pod(update(version("web", 2), SYNC))

    run = run_workers(script)
    expect_equal(
        run.of("web"),
        ["create v1 at 0s", "kill v1 at 5s"],
        en="A kill comes while the first sync runs, then an update and a resync. The kill must "
        "be what the worker does next: whoever asked for it (an eviction, a preemption) is "
        "waiting for the pod to die, and the updates that came after it must not take its "
        "place.",
        zh="第一次同步期间先来了一个 kill，然后是一个更新和一次重新同步。worker 接下来必须执行这个 "
        "kill：发起它的一方（驱逐、抢占）正等着 Pod 被杀死，之后来的更新不能取代它。",
    )


def check_a_kill_takes_the_place_of_a_waiting_update() -> None:
    async def script(workers: PodWorkersImpl, run: Run) -> None:
        await workers.update_pod(update(version("web", 1), CREATE))
        await go.sleep(1 * Second)
        await workers.update_pod(update(version("web", 2), UPDATE))
        await go.sleep(1 * Second)
        await workers.update_pod(update(version("web", 2), KILL))

    run = run_workers(script)
    expect_equal(
        run.of("web"),
        ["create v1 at 0s", "kill v2 at 5s"],
        en="An update waits, then a kill comes. The kill is now the latest update, and it must be "
        "carried out next; the update it replaced no longer matters for a pod being killed.",
        zh="一个更新正在等待，然后来了一个 kill。kill 现在是最新的更新，接下来必须执行它；对一个要被"
        "杀掉的 Pod 来说，被它替换掉的那个更新已经无关紧要了。",
    )


def check_a_second_kill_does_not_replace_the_first() -> None:
    async def script(workers: PodWorkersImpl, run: Run) -> None:
        await workers.update_pod(update(version("web", 1), CREATE))
        await go.sleep(1 * Second)
        await workers.update_pod(with_callback(update(version("web", 1), KILL), run, "eviction"))
        await workers.update_pod(with_callback(update(version("web", 1), KILL), run, "shutdown"))

    run = run_workers(script)
    expect_equal(
        run.completed,
        ["eviction"],
        en="Two kills come while the pod syncs, from the eviction manager then from the node "
        "shutdown manager. Once a kill waits nothing replaces it, not even another kill: the "
        "first one is carried out, and its sender is told so.",
        zh="Pod 同步期间先后来了两个 kill，一个来自驱逐管理器，一个来自节点关机管理器。一旦有 kill 在"
        "等待，什么都不能替换它，另一个 kill 也不行：执行的是第一个，并通知它的发送者。",
    )
