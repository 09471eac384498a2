"""What ch02/loop-tickers expects of your ``sync_loop``: two tickers and the PLEG's channel."""

from __future__ import annotations

from typing import Any

from minikubelet.pleg.pleg import PodLifecycleEvent, PodLifeCycleEventType
from minikubelet.sim import go
from minikubelet.sim.go import Second, make_chan
from minikubelet.types import FileSource
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import RecordingHandler, make_pod, new_kubelet, run_go


def run_loop(ex: Any, seconds: float, setup: Any = None) -> dict[str, Any]:
    """Run the learner's sync_loop with a healthy runtime for ``seconds``, then close configCh."""
    handler = RecordingHandler()
    state: dict[str, Any] = {"handler": handler, "tickers": []}
    real_new_ticker = ex.new_ticker

    def spy(d: float) -> Any:
        ticker = real_new_ticker(d)
        record = {"period": d, "stopped": False}
        stop = ticker.stop

        def recorded_stop() -> None:
            record["stopped"] = True
            stop()

        ticker.stop = recorded_stop
        state["tickers"].append(record)
        return ticker

    async def main() -> None:
        kl = new_kubelet(ex.Kubelet)
        kl.runtime_state.set_runtime_sync(kl.clock.now())
        kl.sources_ready.add_source(FileSource)
        config_ch = make_chan(1, name="configCh")
        if setup is not None:
            await setup(kl)

        async def stop_later() -> None:
            await go.sleep(seconds)
            kl.runtime_state.set_runtime_sync(kl.clock.now())
            config_ch.close()

        go.go(stop_later)
        await kl.sync_loop(config_ch.recv_only(), handler)
        state["returned"] = True

    ex.new_ticker = spy
    try:
        run_go(main, until=seconds + 30)
    finally:
        ex.new_ticker = real_new_ticker
    return state


def test_housekeeping_runs_every_2_seconds(ex: Any) -> None:
    state = run_loop(ex, 6.5)
    cleanups = [
        t
        for (kind, _), t in zip(state["handler"].calls, state["handler"].times, strict=True)
        if kind == "cleanups"
    ]
    expect_equal(
        cleanups,
        [2.0, 4.0, 6.0],
        en="The housekeeping ticker ticks every housekeepingPeriod (2 s): in 6.5 s, the loop "
        "must run housekeeping (handler.handle_pod_cleanups) at 2, 4 and 6 s. Make it with "
        "new_ticker(housekeepingPeriod) and pass its channel, housekeeping_ticker.c.",
        zh="清理定时器每 housekeepingPeriod（2 秒）触发一次：6.5 秒内，主循环应当在 2、4、6 秒各做一次"
        "清理（handler.handle_pod_cleanups）。用 new_ticker(housekeepingPeriod) 创建它，并把它的通道 "
        "housekeeping_ticker.c 传下去。",
    )


def test_the_pleg_channel_reaches_the_loop(ex: Any) -> None:
    async def setup(kl: Any) -> None:
        kl.pod_manager.add_pod(make_pod("web", "uid-web"))

        async def event_at_1_5s() -> None:
            await go.sleep(1.5 * Second)
            event = PodLifecycleEvent("uid-web", PodLifeCycleEventType.CONTAINER_STARTED, "c1")
            await kl.pleg.watch().send(event)

        go.go(event_at_1_5s)

    state = run_loop(ex, 2.5, setup)
    syncs = [
        t
        for (kind, _), t in zip(state["handler"].calls, state["handler"].times, strict=True)
        if kind == "syncs"
    ]
    expect_equal(
        syncs,
        [1.5],
        en="An event the PLEG sends at 1.5 s must reach the loop at once (a sync of its pod): "
        "pass the PLEG's channel, pleg_ch = self.pleg.watch(), to the iteration.",
        zh="PLEG 在 1.5 秒发出的事件应当立刻到达主循环（同步它所属的 Pod）：把 PLEG 的通道 "
        "pleg_ch = self.pleg.watch() 传给每一轮迭代。",
    )


def test_the_sync_ticker_still_works(ex: Any) -> None:
    async def setup(kl: Any) -> None:
        kl.pod_manager.add_pod(make_pod("web", "uid-web"))
        kl.work_queue.enqueue("uid-web", 2.5 * Second)

    state = run_loop(ex, 3.5, setup)
    syncs = [
        t
        for (kind, _), t in zip(state["handler"].calls, state["handler"].times, strict=True)
        if kind == "syncs"
    ]
    expect_equal(
        syncs,
        [3.0],
        en="The sync ticker (every second) syncs the pods whose work is due: a pod due at 2.5 s "
        "is synced at the next tick, 3 s.",
        zh="同步定时器（每秒一次）会同步到期的 Pod：2.5 秒到期的 Pod 在下一次触发，即 3 秒时被同步。",
    )


def test_both_tickers_are_stopped_when_the_loop_ends(ex: Any) -> None:
    state = run_loop(ex, 1.5)
    periods = sorted(t["period"] for t in state["tickers"])
    expect_equal(
        periods,
        [1.0, 2.0],
        en="The loop makes two tickers: every second (sync) and every 2 s (housekeeping).",
        zh="主循环要创建两个定时器：每秒一次（同步）和每 2 秒一次（清理）。",
    )
    expect(
        state.get("returned") and all(t["stopped"] for t in state["tickers"]),
        en="When the loop returns, both tickers must be stopped, as Go's defer ticker.Stop() "
        "does: defer.callback(housekeeping_ticker.stop).",
        zh="主循环返回时，两个定时器都要停掉，就像 Go 里的 defer ticker.Stop()："
        "defer.callback(housekeeping_ticker.stop)。",
    )
