"""What ch09/newer-than checks in your ``get_if_newer_than`` and ``notify``: a pod cache written
as the PLEG writes it, and pod workers waiting in ``get_newer_than``."""

from __future__ import annotations

from minikubelet import go
from minikubelet.container.cache import CacheImpl, new_cache
from minikubelet.container.runtime import PodStatus
from walkthrough.expect import expect_equal
from walkthrough.fixtures import elapsed, run_go

UID = "uid-web"

#: What a waiter got: (when, which status: "inspected at T" or "empty"), or None if still waiting.
Answer = tuple[float, str] | None


def inspected(at: float) -> PodStatus:
    return PodStatus(id=UID, name=f"inspected at {at:g}")


def timeline(writes: list[tuple[str, float]], waiters: list[tuple[float, float]]) -> list[Answer]:
    """A pod cache written at the times given (each time a second of the run): ("set", t) writes
    the pod as the PLEG inspected it at t, ("relist", t) is the end of a relist that began at t.
    Each waiter (at, min_time) calls get_newer_than(min_time) at its time. What each one got
    by the end of the run (20 s)."""
    answers: list[Answer] = [None] * len(waiters)

    async def main() -> None:
        cache: CacheImpl = new_cache()

        async def wait(i: int, at: float, min_time: float) -> None:
            await go.sleep(at - elapsed())
            status = await cache.get_newer_than(UID, min_time)
            answers[i] = (elapsed(), status.name or "empty")

        for i, (at, min_time) in enumerate(waiters):
            go.go(wait, i, at, min_time)
        for kind, t in writes:
            await go.sleep(t - elapsed())
            if kind == "set":
                await cache.set(UID, inspected(t), None, t)
            else:
                await cache.update_time(t)
        await go.sleep(20 - elapsed())

    run_go(main)
    return answers


def check_a_status_inspected_after_the_last_sync_is_returned_at_once() -> None:
    expect_equal(
        timeline([("set", 1)], [(2, 0.5)]),
        [(2.0, "inspected at 1")],
        en="The PLEG inspected the pod at 1 s; a worker whose last sync ended at 0.5 s asks at "
        "2 s: that status is newer, and it gets it at once.",
        zh="PLEG 在 1 秒时查询了这个 Pod；一个上次同步结束于 0.5 秒的 worker 在 2 秒时来要："
        "那个状态更新，它立刻就拿到。",
    )


def check_a_status_as_old_as_the_last_sync_is_not_enough() -> None:
    expect_equal(
        timeline([("set", 1), ("set", 3)], [(2, 1)]),
        [(3.0, "inspected at 3")],
        en="A worker whose last sync ended at 1 s must not sync from a status inspected at 1 s "
        "(it may not show what that sync did): it waits for the next inspection, at 3 s.",
        zh="上次同步结束于 1 秒的 worker，不能依据 1 秒时查询到的状态去同步（它未必反映了那次同步做的事）："
        "它要等下一次查询，也就是 3 秒那次。",
    )


def check_a_relist_that_began_later_vouches_for_an_old_entry() -> None:
    expect_equal(
        timeline([("set", 1), ("relist", 5)], [(6, 3)]),
        [(6.0, "inspected at 1")],
        en="The pod's entry dates from 1 s, but a relist that began at 5 s has finished: it "
        "looked at every pod and found nothing new in this one, so the entry of 1 s is still "
        "true after 3 s. A worker asking for newer than 3 s gets it at once.",
        zh="这个 Pod 的条目来自 1 秒，但一次开始于 5 秒的 relist 已经完成：它查看了每一个 Pod，"
        "在这个 Pod 上没有发现新变化，所以 1 秒的条目在 3 秒之后依然成立。要求比 3 秒更新的 worker 立刻就能拿到。",
    )


def check_a_pod_with_no_entry_gets_the_empty_status_after_a_relist() -> None:
    expect_equal(
        timeline([("relist", 2)], [(3, 1)]),
        [(3.0, "empty")],
        en="A pod the PLEG has never written has nothing in the runtime. Once a relist that "
        "began after 1 s has finished, a worker asking for newer than 1 s gets the empty status "
        "at once (that is how a new pod's first sync starts).",
        zh="PLEG 从没写过的 Pod，在运行时里什么都没有。一旦有一次开始于 1 秒之后的 relist 完成，"
        "要求比 1 秒更新的 worker 立刻就能拿到空状态（新 Pod 的第一次同步就是这样开始的）。",
    )
    expect_equal(
        timeline([], [(3, 1)]),
        [None],
        en="Before any relist has finished, a pod with no entry is not known to have nothing: "
        "the worker waits.",
        zh="在任何一次 relist 完成之前，没有条目的 Pod 并不能说明它什么都没有：worker 要等待。",
    )


def check_a_waiting_worker_is_released_when_the_cache_reaches_its_time() -> None:
    expect_equal(
        timeline([("set", 2), ("set", 4), ("set", 6)], [(0, 4)]),
        [(4.0, "inspected at 4")],
        en="A worker waits from 0 s for a status newer than 4 s. The inspection of 2 s is too "
        "old; the one of 4 s releases it (a subscriber is released by the time it waits for), "
        "with that status.",
        zh="一个 worker 从 0 秒起等待比 4 秒更新的状态。2 秒的查询太旧；4 秒的那次放行了它"
        "（订阅者会被它所等待的那个时间放行），带着那个状态。",
    )


def check_each_waiter_is_released_at_its_own_time_once() -> None:
    expect_equal(
        timeline([("set", 2), ("relist", 6)], [(0, 1), (0, 5)]),
        [(2.0, "inspected at 2"), (6.0, "inspected at 2")],
        en="Two workers wait for the same pod, one for newer than 1 s, one for newer than 5 s. "
        "The inspection at 2 s releases the first only; the second is released when a relist "
        "that began at 6 s finishes, with the entry of 2 s, which that relist vouched for.",
        zh="两个 worker 在等同一个 Pod，一个要比 1 秒新，一个要比 5 秒新。2 秒的查询只放行第一个；"
        "第二个在一次开始于 6 秒的 relist 完成时被放行，拿到的是 2 秒的条目，那次 relist 为它作了保。",
    )
