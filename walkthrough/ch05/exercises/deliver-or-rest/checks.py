"""What ch05/deliver-or-rest checks in your ``check_for_updates``: one update per sync, then idle."""

from __future__ import annotations

from minikubelet import go
from minikubelet.go import Second
from minikubelet.pod_workers import PodWorkersImpl
from minikubelet.types import SyncPodType
from walkthrough.ch05.workers_harness import Run, run_workers, update, version
from walkthrough.expect import expect_equal

CREATE, UPDATE = SyncPodType.CREATE, SyncPodType.UPDATE


def check_an_update_that_waited_is_synced_once_after_the_sync() -> None:
    async def script(workers: PodWorkersImpl, run: Run) -> None:
        await workers.update_pod(update(version("web", 1), CREATE))
        await go.sleep(1 * Second)
        await workers.update_pod(update(version("web", 2), UPDATE))

    run = run_workers(script)
    expect_equal(
        run.of("web"),
        ["create v1 at 0s", "update v2 at 5s"],
        en="Version 2 came at 1 s, during the first sync (0 to 5 s). When that sync is done the "
        "worker must sync version 2, once; then, with nothing more waiting, it has nothing to "
        "do. (Every sync takes 5 s here.)",
        zh="版本 2 在 1 秒时到来，正值第一次同步（0 到 5 秒）。那次同步结束后，worker 必须同步版本 2，"
        "而且只同步一次；之后没有别的更新在等，它就无事可做了。（这里每次同步耗时 5 秒。）",
    )


def check_after_its_last_sync_the_worker_takes_the_next_update_at_once() -> None:
    async def script(workers: PodWorkersImpl, run: Run) -> None:
        await workers.update_pod(update(version("web", 1), CREATE))
        await go.sleep(1 * Second)
        await workers.update_pod(update(version("web", 2), UPDATE))
        await go.sleep(20 * Second)
        await workers.update_pod(update(version("web", 3), UPDATE))

    run = run_workers(script)
    expect_equal(
        run.of("web"),
        ["create v1 at 0s", "update v2 at 5s", "update v3 at 21s"],
        en="After the syncs of versions 1 and 2 (0 to 10 s) the worker has nothing waiting: it "
        "must be idle then, so that version 3, coming at 21 s, is synced at once. A worker that "
        "stays busy keeps every later update waiting, and the pod is never synced again.",
        zh="版本 1 和版本 2 同步完之后（0 到 10 秒），worker 没有等待的更新：这时它必须是空闲的，这样 21 "
        "秒到来的版本 3 才会立即被同步。一个一直“忙碌”的 worker 会让之后的每个更新都等下去，Pod 再也"
        "不会被同步。",
    )


def check_while_it_syncs_a_delivered_update_the_worker_is_still_busy() -> None:
    async def script(workers: PodWorkersImpl, run: Run) -> None:
        await workers.update_pod(update(version("web", 1), CREATE))
        await go.sleep(1 * Second)
        await workers.update_pod(update(version("web", 2), UPDATE))
        await go.sleep(5 * Second)  # 6 s: version 2 is syncing (5 to 10 s)
        await workers.update_pod(update(version("web", 3), UPDATE))
        await workers.update_pod(update(version("web", 4), UPDATE))

    run = run_workers(script)
    expect_equal(
        run.of("web"),
        ["create v1 at 0s", "update v2 at 5s", "update v4 at 10s"],
        en="At 6 s the worker is syncing version 2, which waited during the first sync. It is "
        "busy: versions 3 and 4 must wait, the later replacing the earlier, and only version 4 "
        "is synced next. If the worker counts as idle while it syncs, version 3 is sent on its "
        "channel, which holds one update: the worker's own next send then has nowhere to go.",
        zh="6 秒时，worker 正在同步第一次同步期间等着的版本 2。它是忙碌的：版本 3 和 4 都要等待，后者替换"
        "前者，接下来只同步版本 4。如果 worker 在同步时被当作空闲，版本 3 就会被发到它的通道上，而通道只能"
        "容纳一个更新：worker 自己接下来的那次发送就无处可去了。",
    )
