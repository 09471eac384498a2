"""syncLoop and syncLoopIteration: each select case, each operation, the close, the back-off."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from minikubelet import go
from minikubelet.config.sources import SourcesReady
from minikubelet.container.runtime import ContainerID
from minikubelet.go import Millisecond, Second, make_chan
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kubelet import Kubelet
from minikubelet.pleg.pleg import PodLifecycleEvent, PodLifeCycleEventType
from minikubelet.pod.mirror_client import BasicMirrorClient
from minikubelet.pod.pod_manager import BasicManager
from minikubelet.prober.results.results_manager import Result, ResultsManager
from minikubelet.runtime import new_runtime_state
from minikubelet.status.status_manager import new_manager
from minikubelet.types import FileSource, PodOperation, PodUpdate
from minikubelet.util.queue.work_queue import BasicWorkQueue
from tests.config.helpers import pod


@dataclass
class RecordingHandler:
    """A SyncHandler that records each call instead of syncing."""

    calls: list[tuple[str, list[str]]] = field(default_factory=list)
    cleanup_error: Exception | None = None

    async def handle_pod_additions(self, pods: list[Pod]) -> None:
        self.calls.append(("additions", [p.metadata.name for p in pods]))

    async def handle_pod_updates(self, pods: list[Pod]) -> None:
        self.calls.append(("updates", [p.metadata.name for p in pods]))

    async def handle_pod_removes(self, pods: list[Pod]) -> None:
        self.calls.append(("removes", [p.metadata.name for p in pods]))

    async def handle_pod_reconcile(self, pods: list[Pod]) -> None:
        self.calls.append(("reconcile", [p.metadata.name for p in pods]))

    async def handle_pod_syncs(self, pods: list[Pod]) -> None:
        self.calls.append(("syncs", [p.metadata.name for p in pods]))

    async def handle_pod_cleanups(self) -> None:
        self.calls.append(("cleanups", []))
        if self.cleanup_error is not None:
            raise self.cleanup_error


class FakePLEG:
    """A PLEG whose channel the test feeds directly."""

    def __init__(self) -> None:
        self.ch = make_chan(1000, name="plegCh")

    def watch(self) -> Any:
        return self.ch


def new_kubelet(sources: set[str] | None = None) -> Kubelet:
    """A Kubelet with the real loop-side components and nothing behind the handlers."""
    clock = go.current_runtime().clock
    pod_manager = BasicManager(BasicMirrorClient())
    return Kubelet(
        node_name="node-1",
        clock=clock,
        recorder=Recorder(),
        pod_manager=pod_manager,
        status_manager=new_manager(None, pod_manager),
        work_queue=BasicWorkQueue(clock),
        container_runtime=None,
        runtime_cache=None,
        pod_cache=None,
        pleg=FakePLEG(),
        runtime_state=new_runtime_state(clock, 30 * Second),
        sources_ready=SourcesReady(lambda seen: seen >= (sources or {FileSource})),
        liveness_manager=ResultsManager("liveness"),
        readiness_manager=ResultsManager("readiness"),
        startup_manager=ResultsManager("startup"),
        reason_cache=None,
        back_off=None,
    )


async def iterate(kl: Kubelet, handler: RecordingHandler, config_ch, sync_ch=None, hk_ch=None):
    """One syncLoopIteration with never-ready tickers unless given."""
    sync_ch = sync_ch or make_chan(1, name="syncCh")
    hk_ch = hk_ch or make_chan(1, name="housekeepingCh")
    return await kl.sync_loop_iteration(config_ch, handler, sync_ch, hk_ch, kl.pleg.watch())


def run(main, verbosity: int = 4, until: float | None = None) -> str:
    """Run ``main`` (seed 7, until ``until`` if given) and return what it logged."""
    log = io.StringIO()
    klog.configure(verbosity=verbosity, out=log)
    try:
        go.run(main, seed=7, until=until)
    finally:
        klog.configure(verbosity=0, out=None)
    return log.getvalue()


def test_each_config_op_goes_to_its_handler_and_marks_the_source_seen():
    handler = RecordingHandler()
    seen = []

    async def main() -> None:
        kl = new_kubelet()
        config_ch = make_chan(10, name="configCh")
        a = pod("a", "uid-a")
        for op in PodOperation:
            await config_ch.send(PodUpdate(pods=[a], op=op, source=FileSource))
            assert await iterate(kl, handler, config_ch) is True
        seen.append(kl.sources_ready.all_ready())

    log = run(main)
    assert handler.calls == [
        # SET is not supported by kubelet: logged, no handler called.
        ("additions", ["a"]),  # ADD
        ("updates", ["a"]),  # DELETE is treated as an UPDATE (graceful deletion)
        ("removes", ["a"]),  # REMOVE
        ("updates", ["a"]),  # UPDATE
        ("reconcile", ["a"]),  # RECONCILE
    ]
    assert seen == [True]
    assert "E0715 00:00:00.000000       1 kubelet.py:" in log
    assert '"Kubelet does not support snapshot update"' in log
    for line in (
        '"SyncLoop ADD" source="file" pods=[default/a]',
        '"SyncLoop DELETE" source="file" pods=[default/a]',
        '"SyncLoop REMOVE" source="file" pods=[default/a]',
        '"SyncLoop UPDATE" source="file" pods=[default/a]',
        '"SyncLoop RECONCILE" source="file" pods=[default/a]',
    ):
        assert line in log


def test_a_closed_config_channel_ends_the_loop():
    handler = RecordingHandler()
    results = []

    async def main() -> None:
        kl = new_kubelet()
        config_ch = make_chan(0, name="configCh")
        config_ch.close()
        results.append(await iterate(kl, handler, config_ch))

    log = run(main)
    assert results == [False]
    assert handler.calls == []
    assert '"Update channel is closed, exiting the sync loop"' in log


def test_pleg_events_sync_known_pods_and_skip_removed_containers_and_unknown_pods():
    handler = RecordingHandler()
    started = []

    async def main() -> None:
        kl = new_kubelet()
        kl.pod_manager.add_pod(pod("a", "uid-a"))
        ch = kl.pleg.watch()
        config_ch = make_chan(0, name="configCh")
        for event in (
            PodLifecycleEvent("uid-a", PodLifeCycleEventType.CONTAINER_STARTED, "c1"),
            PodLifecycleEvent("uid-a", PodLifeCycleEventType.CONTAINER_REMOVED, "c0"),
            PodLifecycleEvent("uid-gone", PodLifeCycleEventType.CONTAINER_DIED, "c9"),
        ):
            await ch.send(event)
            await iterate(kl, handler, config_ch)
        started.append(kl.last_container_started_time)

    kl_log = run(main)
    assert handler.calls == [("syncs", ["a"])]
    assert list(started[0]) == ["uid-a"]
    assert "SyncLoop (PLEG): pod does not exist, ignore irrelevant event" in kl_log


def test_sync_ticker_syncs_the_pods_whose_work_is_due():
    handler = RecordingHandler()

    async def main() -> None:
        kl = new_kubelet()
        for name in ("a", "b", "c"):
            kl.pod_manager.add_pod(pod(name, f"uid-{name}"))
        kl.work_queue.enqueue("uid-a", 0)
        kl.work_queue.enqueue("uid-c", 5 * Second)
        await go.sleep(1 * Millisecond)
        sync_ch, config_ch = make_chan(1), make_chan(0)
        await sync_ch.send(go.now())
        await iterate(kl, handler, config_ch, sync_ch=sync_ch)
        await sync_ch.send(go.now())  # nothing due: no handler call
        await iterate(kl, handler, config_ch, sync_ch=sync_ch)

    run(main)
    assert handler.calls == [("syncs", ["a"])]


def test_probe_updates():
    handler = RecordingHandler()

    async def main() -> None:
        kl = new_kubelet()
        a = pod("a", "uid-a")
        kl.pod_manager.add_pod(a)
        cid = ContainerID("fake", "c1")
        config_ch = make_chan(0)
        await kl.liveness_manager.set(cid, Result.SUCCESS, a)  # success: nothing to do
        await iterate(kl, handler, config_ch)
        await kl.liveness_manager.set(cid, Result.FAILURE, a)
        await iterate(kl, handler, config_ch)
        await kl.readiness_manager.set(cid, Result.SUCCESS, a)
        await iterate(kl, handler, config_ch)
        await kl.startup_manager.set(cid, Result.FAILURE, a)
        await iterate(kl, handler, config_ch)

    log = run(main, verbosity=1)
    assert handler.calls == [("syncs", ["a"])] * 3
    assert '"SyncLoop (probe)" probe="liveness" status="unhealthy" pod="default/a"' in log
    assert '"SyncLoop (probe)" probe="readiness" status="ready" pod="default/a"' in log
    assert '"SyncLoop (probe)" probe="startup" status="unhealthy" pod="default/a"' in log


def test_housekeeping_waits_for_every_source_and_logs_cleanup_errors():
    handler = RecordingHandler(cleanup_error=RuntimeError("boom"))

    async def main() -> None:
        kl = new_kubelet(sources={FileSource, "http"})
        hk, config_ch = make_chan(1), make_chan(0)
        await hk.send(go.now())
        await iterate(kl, handler, config_ch, hk_ch=hk)  # sources not ready: skipped
        kl.sources_ready.add_source(FileSource)
        kl.sources_ready.add_source("http")
        await hk.send(go.now())
        assert await iterate(kl, handler, config_ch, hk_ch=hk) is True

    log = run(main)
    assert handler.calls == [("cleanups", [])]
    assert "SyncLoop (housekeeping, skipped): sources aren't ready yet" in log
    assert '"Failed cleaning pods" err="boom"' in log


def test_when_several_channels_are_ready_the_choice_is_random_but_seeded():
    def order(seed: int) -> list[str]:
        handler = RecordingHandler()

        async def main() -> None:
            kl = new_kubelet()
            kl.sources_ready.add_source(FileSource)
            config_ch, sync_ch, hk = make_chan(10), make_chan(10), make_chan(10)
            for _ in range(6):
                await config_ch.send(PodUpdate(pods=[], op=PodOperation.ADD, source=FileSource))
                await hk.send(go.now())
            for _ in range(12):
                await iterate(kl, handler, config_ch, sync_ch=sync_ch, hk_ch=hk)

        klog.configure(verbosity=0, out=io.StringIO())
        try:
            go.run(main, seed=seed)
        finally:
            klog.configure(verbosity=0, out=None)
        return [name for name, _ in handler.calls]

    first = order(1)
    assert sorted(first) == ["additions"] * 6 + ["cleanups"] * 6
    assert first == order(1)  # the same seed, the same choices
    assert any(order(seed) != first for seed in range(2, 6))
    assert first != ["additions"] * 6 + ["cleanups"] * 6  # not config first, as a switch would


def test_sync_loop_backs_off_while_the_runtime_reports_errors():
    sleeps = []

    async def main() -> None:
        kl = new_kubelet()
        config_ch = make_chan(0)
        start = go.now()

        async def runtime_up_at_20s() -> None:
            await go.sleep(20 * Second)
            kl.runtime_state.set_runtime_sync(kl.clock.now())
            config_ch.close()

        go.go(runtime_up_at_20s)
        await kl.sync_loop(config_ch.recv_only(), RecordingHandler())
        sleeps.append(go.now() - start)

    log = run(main)
    skipped = [line for line in log.splitlines() if "Skipping pod synchronization" in line]
    stamps = [line.split()[1] for line in skipped]
    # 100 ms doubling up to 5 s: 0, 0.1, 0.3, 0.7, 1.5, 3.1, 6.3, 11.3, 16.3 s, then up at 20 s.
    assert stamps == [
        "00:00:00.000000",
        "00:00:00.100000",
        "00:00:00.300000",
        "00:00:00.700000",
        "00:00:01.500000",
        "00:00:03.100000",
        "00:00:06.300000",
        "00:00:11.300000",
        "00:00:16.300000",
    ]
    assert 'err="container runtime status check may not have completed yet"' in skipped[0]
    assert sleeps == [21.3]  # the last 5 s sleep ends at 21.3 s; then the closed channel ends it
