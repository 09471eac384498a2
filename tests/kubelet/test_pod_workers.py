"""Pod workers (classic, v1.21.3): one goroutine per pod, latest update wins while busy."""

from __future__ import annotations

from minikubelet import go
from minikubelet.events import ExceededGracePeriod
from minikubelet.go import Second
from minikubelet.k8s_io.api.core.v1 import PodStatus
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.pod_workers import PodWorkersImpl, SyncPodOptions, UpdatePodOptions, kill_pod_now
from minikubelet.types import SyncPodType
from minikubelet.util.queue.work_queue import BasicWorkQueue
from tests.config.helpers import pod


class InstantCache:
    """A pod cache that always has a fresh enough status."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, float]] = []

    async def get_newer_than(self, pod_uid: str, min_time: float) -> str:
        self.asked.append((pod_uid, min_time))
        return f"status of {pod_uid}"


def workers_run(script, sync_seconds: float = 5.0, fail: set[str] | None = None):
    """Run ``script(workers)``; each sync takes ``sync_seconds``; return syncs and the queue."""
    syncs: list[tuple[float, str, str, str]] = []
    out = {}

    async def main() -> None:
        start = go.now()

        async def sync_pod(o: SyncPodOptions) -> None:
            syncs.append((go.now() - start, o.pod.metadata.name, str(o.update_type), o.pod_status))
            await go.sleep(sync_seconds)
            if fail and o.pod.metadata.name in fail:
                raise RuntimeError("sync failed")

        queue = BasicWorkQueue(go.current_runtime().clock)
        cache = InstantCache()
        workers = PodWorkersImpl(sync_pod, Recorder(), queue, 60 * Second, 10 * Second, cache)
        await script(workers)
        await go.sleep(30 * Second)
        out["queue"] = {uid: due - start for uid, due in queue.queue.items()}
        out["cache"] = cache.asked
        for uid in list(workers.pod_updates):
            workers.forget_worker(uid)

    go.run(main, seed=11)
    return syncs, out


def test_updates_while_a_sync_runs_keep_only_the_latest():
    a = pod("a", "uid-a")

    async def script(workers: PodWorkersImpl) -> None:
        await workers.update_pod(UpdatePodOptions(pod=a, update_type=SyncPodType.CREATE))
        await go.sleep(1 * Second)
        await workers.update_pod(UpdatePodOptions(pod=a, update_type=SyncPodType.UPDATE))
        await workers.update_pod(UpdatePodOptions(pod=a, update_type=SyncPodType.SYNC))

    syncs, _ = workers_run(script)
    # The first sync runs 0–5 s; of the two updates that came meanwhile only the last runs.
    assert [(t, kind) for t, _, kind, _ in syncs] == [(0.0, "create"), (5.0, "sync")]


def test_a_pending_kill_is_not_overwritten():
    a = pod("a", "uid-a")

    async def script(workers: PodWorkersImpl) -> None:
        await workers.update_pod(UpdatePodOptions(pod=a, update_type=SyncPodType.CREATE))
        await workers.update_pod(UpdatePodOptions(pod=a, update_type=SyncPodType.KILL))
        await workers.update_pod(UpdatePodOptions(pod=a, update_type=SyncPodType.UPDATE))

    syncs, _ = workers_run(script)
    assert [kind for _, _, kind, _ in syncs] == ["create", "kill"]


def test_each_pod_has_its_own_worker():
    a, b = pod("a", "uid-a"), pod("b", "uid-b")

    async def script(workers: PodWorkersImpl) -> None:
        await workers.update_pod(UpdatePodOptions(pod=a, update_type=SyncPodType.CREATE))
        await workers.update_pod(UpdatePodOptions(pod=b, update_type=SyncPodType.CREATE))

    syncs, out = workers_run(script)
    assert sorted((t, name) for t, name, _, _ in syncs) == [(0.0, "a"), (0.0, "b")]
    # Each worker asks the cache for a status newer than its last sync (none yet: 0).
    assert sorted(out["cache"]) == [("uid-a", 0.0), ("uid-b", 0.0)]


def test_after_a_sync_the_pod_is_requeued_resync_or_backoff_with_jitter():
    a, b = pod("a", "uid-a"), pod("b", "uid-b")

    async def script(workers: PodWorkersImpl) -> None:
        await workers.update_pod(UpdatePodOptions(pod=a, update_type=SyncPodType.CREATE))
        await workers.update_pod(UpdatePodOptions(pod=b, update_type=SyncPodType.CREATE))

    _, out = workers_run(script, fail={"b"})
    # Done at 5 s; resync after 60 s × [1, 1.5); back-off after a failure 10 s × [1, 1.5).
    assert 65 <= out["queue"]["uid-a"] < 95
    assert 15 <= out["queue"]["uid-b"] < 20
    # Seeded jitter: the same run gives the same times.
    assert workers_run(script, fail={"b"})[1]["queue"] == out["queue"]


def _kill_now(sync_seconds: float, grace: int | None):
    """kill_pod_now on a worker whose syncs take ``sync_seconds``: (syncs, outcome, events)."""
    a = pod("a", "uid-a")
    a.spec.termination_grace_period_seconds = grace
    recorder = Recorder()
    out: dict[str, object] = {}

    async def script(workers: PodWorkersImpl) -> None:
        kill = kill_pod_now(workers, recorder)
        start = go.now()
        try:
            await kill(a, PodStatus(), None)
            out["outcome"] = ("killed", go.now() - start)
        except TimeoutError as err:
            out["outcome"] = (str(err), go.now() - start)

    syncs, _ = workers_run(script, sync_seconds=sync_seconds)
    return syncs, out["outcome"], [e.reason for e in recorder.events]


def test_kill_pod_now_waits_for_the_workers_kill_sync():
    syncs, outcome, events = _kill_now(sync_seconds=3.0, grace=30)
    assert [kind for _, _, kind, _ in syncs] == ["kill"]
    assert outcome == ("killed", 3.0)
    assert events == []


def test_kill_pod_now_gives_up_after_one_and_a_half_grace_periods():
    # Grace 30 s: kubelet waits 45 s for the worker, then gives up with an event.
    _, outcome, events = _kill_now(sync_seconds=50.0, grace=30)
    assert outcome == ("timeout waiting to kill pod", 45.0)
    assert events == [ExceededGracePeriod]
    # With no grace period the wait is at least 10 s.
    _, outcome, _ = _kill_now(sync_seconds=50.0, grace=None)
    assert outcome == ("timeout waiting to kill pod", 10.0)
