"""What ch02/loop-tickers checks in your ``sync_loop``: two tickers and the PLEG's channel."""

from __future__ import annotations

from typing import Any

from minikubelet import go
from minikubelet.go import Second, make_chan
from minikubelet.pleg.pleg import PodLifecycleEvent, PodLifeCycleEventType
from minikubelet.types import FileSource
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import RecordingHandler, make_pod, new_kubelet, replaced, run_go


def run_loop(seconds: float, setup: Any = None) -> dict[str, Any]:
    """Run the learner's sync_loop with a healthy runtime for ``seconds``, then close configCh."""
    handler = RecordingHandler()
    state: dict[str, Any] = {"handler": handler, "tickers": []}
    real_new_ticker = go.new_ticker

    def spy(d: float) -> Any:
        ticker = real_new_ticker(d)
        record = {"period": d, "stopped": False}
        stop = ticker.stop

        def recorded_stop() -> None:
            record["stopped"] = True
            stop()

        # The spy keeps the ticker and records its Stop (for the ticker's whole life).
        ticker.stop = recorded_stop  # type: ignore[method-assign]
        state["tickers"].append(record)
        return ticker

    async def main() -> None:
        kl = new_kubelet()
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
        # Now, not after the run: the runtime stops every ticker left when it shuts down.
        state["stopped_on_return"] = [t["stopped"] for t in state["tickers"]]

    with replaced(real_new_ticker, spy):
        run_go(main, until=seconds + 30)
    return state


def check_housekeeping_runs_every_2_seconds() -> None:
    state = run_loop(6.5)
    cleanups = [
        t
        for (kind, _), t in zip(state["handler"].calls, state["handler"].times, strict=True)
        if kind == "cleanups"
    ]
    expect_equal(
        cleanups,
        [2.0, 4.0, 6.0],
        en="The housekeeping ticker ticks every housekeepingPeriod (2 s), and each tick must "
        "reach the iteration: in 6.5 s the loop runs housekeeping (the handler's cleanups) at "
        "2, 4 and 6 s.",
        zh="清理定时器每 housekeepingPeriod（2 秒）触发一次，每次触发都要传到迭代里："
        "6.5 秒内，主循环应当在 2、4、6 秒各做一次清理（handler 的 cleanups）。",
    )


def check_the_pleg_channel_reaches_the_loop() -> None:
    async def setup(kl: Any) -> None:
        kl.pod_manager.add_pod(make_pod("web", "uid-web"))

        async def event_at_1_5s() -> None:
            await go.sleep(1.5 * Second)
            event = PodLifecycleEvent("uid-web", PodLifeCycleEventType.CONTAINER_STARTED, "c1")
            await kl.pleg.watch().send(event)

        go.go(event_at_1_5s)

    state = run_loop(2.5, setup)
    syncs = [
        t
        for (kind, _), t in zip(state["handler"].calls, state["handler"].times, strict=True)
        if kind == "syncs"
    ]
    expect_equal(
        syncs,
        [1.5],
        en="An event the PLEG sends at 1.5 s must reach the loop at once (a sync of its pod): "
        "every iteration waits on the PLEG's channel of events too.",
        zh="PLEG 在 1.5 秒发出的事件应当立刻到达主循环（同步它所属的 Pod）："
        "每一轮迭代也都要等待 PLEG 的事件通道。",
    )


def check_the_sync_ticker_still_works() -> None:
    async def setup(kl: Any) -> None:
        kl.pod_manager.add_pod(make_pod("web", "uid-web"))
        kl.work_queue.enqueue("uid-web", 2.5 * Second)

    state = run_loop(3.5, setup)
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


def check_both_tickers_are_stopped_when_the_loop_ends() -> None:
    state = run_loop(1.5)
    periods = sorted(t["period"] for t in state["tickers"])
    expect_equal(
        periods,
        [1.0, 2.0],
        en="The loop makes two tickers: every second (sync) and every 2 s (housekeeping).",
        zh="主循环要创建两个定时器：每秒一次（同步）和每 2 秒一次（清理）。",
    )
    expect(
        state.get("returned") and all(state["stopped_on_return"]),
        en="When the loop returns, both tickers must be stopped, as Go's deferred Stop() does: "
        "a ticker left running keeps a timer alive for nothing.",
        zh="主循环返回时，两个定时器都要停掉，就像 Go 里用 defer 调用的 Stop()："
        "没停掉的定时器会白白占着一个计时器。",
    )
