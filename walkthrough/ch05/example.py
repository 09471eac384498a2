"""Chapter 5 example: a pod worker coalesces the updates that come while it syncs.

A pod from a scripted API server whose image takes 20 s to pull, so its first sync runs from
0.1 s to 20.1 s. Meanwhile the PLEG reports its sandbox (1 s) and its labels change twice (5 s,
8 s): every one of those updates waits in lastUndeliveredWorkUpdate, replacing the one before,
and the worker syncs once more, with the last. The example prints each UpdatePod (what the worker
did with it) and each sync. Seed 1, virtual clock.

    python walkthrough/ch05/example.py                          # run it (30 s of kubelet time)
    python walkthrough/ch05/example.py --breakpoints            # where to stop, as pdb commands
    python walkthrough/ch05/example.py --break coalesce         # stop in pdb when one is replaced
    python -m pdb walkthrough/ch05/example.py                   # drive pdb yourself

Named breakpoint spots (see SPOTS): update-pod, coalesce, sync, check-for-updates, wrap-up.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from minikubelet import go
from minikubelet.base.i18n import text
from minikubelet.go.duration import format_duration
from minikubelet.kubelet import Kubelet
from minikubelet.pod_workers import PodWorkersImpl, SyncPodOptions, UpdatePodOptions
from minikubelet.types import SyncPodType
from walkthrough.examples import Spot, example_main, run_kubelet

#: The same script as the page's (chapter 5 runs it with minikubelet run).
SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "api" / "updates-during-a-sync.yaml"

SPOTS = [
    Spot(
        "update-pod",
        "minikubelet.pod_workers:PodWorkersImpl.update_pod",
        None,
        "an update for a pod: `p str(options.update_type), options.pod.metadata.labels, "
        "self.is_working.get(options.pod.metadata.uid)`; to stop only while the worker is busy: "
        "`condition 1 self.is_working.get(options.pod.metadata.uid, False)`, `c`",
        "一个更新：`p str(options.update_type), options.pod.metadata.labels, "
        "self.is_working.get(options.pod.metadata.uid)`；只想在 worker 正忙时停下："
        "`condition 1 self.is_working.get(options.pod.metadata.uid, False)`、`c`",
    ),
    Spot(
        "coalesce",
        "minikubelet.pod_workers:PodWorkersImpl.update_pod",
        "self.last_undelivered_work_update[uid] = options",
        "the worker is busy: `p update` (what waits now: None at 1 s); `c` to 5 s and "
        "`p update.update_type, update.pod.metadata.labels`, the event about to be replaced; "
        "`n` and `p self.last_undelivered_work_update[uid].pod.metadata.labels`",
        "worker 正忙：`p update`（现在等着的是什么：1 秒时是 None）；`c` 继续到 5 秒，"
        "`p update.update_type, update.pod.metadata.labels`，即将被替换的那个事件；"
        "`n`，再 `p self.last_undelivered_work_update[uid].pod.metadata.labels`",
    ),
    Spot(
        "sync",
        "minikubelet.pod_workers:PodWorkersImpl.manage_pod_loop",
        "await self.sync_pod_fn(",
        "in the pod's goroutine, about to sync: `p str(update.update_type), "
        "update.pod.metadata.labels, last_sync_time`",
        "在 Pod 自己的 goroutine 里，即将同步：`p str(update.update_type), update.pod.metadata.labels, "
        "last_sync_time`",
    ),
    Spot(
        "check-for-updates",
        "minikubelet.pod_workers:PodWorkersImpl.check_for_updates",
        None,
        "after a sync: `p self.last_undelivered_work_update.get(uid)` (delivered next, or None: "
        "the worker goes idle)",
        "一次同步之后：`p self.last_undelivered_work_update.get(uid)`（接下来送出的更新，或 None：worker 变为空闲）",
    ),
    Spot(
        "wrap-up",
        "minikubelet.pod_workers:PodWorkersImpl.wrap_up",
        None,
        "requeue: `p sync_err`; `n` until the enqueue, `n` over it, and `p self.work_queue.queue`",
        "重新入队：`p sync_err`；`n` 到 enqueue，再 `n` 越过它，`p self.work_queue.queue`",
    ),
]


def watch(kl: Kubelet, lang: str) -> None:
    """Print each UpdatePod (and what the worker did with it) and each sync of the pod workers.

    Wraps the two entry points of the pod workers; the wrapped code runs unchanged.
    """
    workers = kl.pod_workers
    assert isinstance(workers, PodWorkersImpl)  # kubelet's own workers, whose calls this wraps
    update_pod = workers.update_pod
    sync_pod_fn = workers.sync_pod_fn

    def at() -> str:
        return format_duration(go.current_runtime().clock.monotonic())

    def describe(pod: Any, kind: SyncPodType) -> str:
        return f"{kind!s:<6} {pod.metadata.name} version={pod.metadata.labels.get('version')}"

    async def watched_update_pod(options: UpdatePodOptions) -> None:
        uid = options.pod.metadata.uid
        waiting = workers.last_undelivered_work_update.get(uid)
        if not workers.is_working.get(uid, False):
            what = text("worker idle: sent on its channel", "worker 空闲：发到通道上", lang)
        elif waiting is None:
            what = text("worker busy: waits", "worker 忙：存起来等待", lang)
        elif waiting.update_type == SyncPodType.KILL:
            what = text("worker busy, a kill waits: dropped", "worker 忙且有 kill 在等：丢弃", lang)
        else:
            what = text(
                f"worker busy: replaces the waiting {waiting.update_type}",
                f"worker 忙：替换等待中的 {waiting.update_type}",
                lang,
            )
        print(f"{at():>8}  UpdatePod  {describe(options.pod, options.update_type)}  → {what}")
        await update_pod(options)

    async def watched_sync(o: SyncPodOptions) -> None:
        print(f"{at():>8}  syncPod    {describe(o.pod, o.update_type)}")
        await sync_pod_fn(o)

    workers.update_pod = watched_update_pod  # type: ignore[method-assign]
    workers.sync_pod_fn = watched_sync


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(
        SCRIPT,
        seed=args.seed,
        until=args.until,
        lang=lang,
        setup=lambda kl: watch(kl, lang),
    )


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv, until="30s")


if __name__ == "__main__":
    sys.exit(main())
