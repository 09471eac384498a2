"""What ch03/config-closed checks in your ``sync_loop_iteration``: a closed configCh ends the loop."""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

from minikubelet import go
from minikubelet.go import make_chan
from minikubelet.kubelet import Kubelet
from minikubelet.types import FileSource, PodOperation, PodUpdate
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import RecordingHandler, make_pod, new_kubelet, run_go

MESSAGE = "Update channel is closed, exiting the sync loop"


def one_iteration(closed: bool) -> dict[str, Any]:
    """One iteration with configCh closed (or holding an ADD): its result, or what it raised."""
    handler = RecordingHandler()
    state: dict[str, Any] = {"handler": handler}

    async def main() -> None:
        kl = new_kubelet(sources={FileSource})
        config_ch = make_chan(1, name="configCh")
        if closed:
            config_ch.close()
        else:
            await config_ch.send(PodUpdate(pods=[make_pod("web")], op=PodOperation.ADD))
        try:
            state["result"] = await kl.sync_loop_iteration(
                config_ch, handler, make_chan(1), make_chan(1), kl.pleg.watch()
            )
        except Exception as err:
            state["raised"] = f"{type(err).__name__}: {err}"

    state["log"] = run_go(main, verbosity=2)
    return state


def check_a_closed_channel_ends_the_iteration() -> None:
    state = one_iteration(closed=True)
    expect(
        "raised" not in state,
        en="A closed configCh gives no update (u is None): the iteration must see that the "
        f"channel is closed before it looks at the update. It raised {state.get('raised')}.",
        zh="已关闭的 configCh 不会给出任何更新（u 是 None）：迭代必须在查看更新之前就发现通道已经关闭。"
        f"它抛出了 {state.get('raised')}。",
    )
    expect_equal(
        state.get("result"),
        False,
        en="When configCh is closed, syncLoopIteration must return False: that is how it "
        "tells syncLoop to stop.",
        zh="configCh 关闭时，syncLoopIteration 必须返回 False：它就是这样告诉 syncLoop 停下来的。",
    )
    expect_equal(
        state["handler"].calls,
        [],
        en="A closed channel brings nothing to hand to the handler.",
        zh="已关闭的通道没有带来任何东西，不应调用 handler。",
    )


def check_an_open_channel_goes_on() -> None:
    state = one_iteration(closed=False)
    expect(
        state.get("result") is True and state["handler"].calls == [("additions", ["web"])],
        en="An update on an open configCh is handled and the loop goes on (the iteration "
        f"returns True); yours returned {state.get('result')} after {state['handler'].calls}.",
        zh="打开的 configCh 上的更新要得到处理，并且主循环继续（迭代返回 True）；"
        f"你的迭代在 {state['handler'].calls} 之后返回了 {state.get('result')}。",
    )


def check_the_end_is_logged_as_an_error() -> None:
    log = one_iteration(closed=True)["log"]
    line = next((x for x in log.splitlines() if MESSAGE in x), "")
    expect(
        line.startswith("E") and f'"{MESSAGE}"' in line,
        en=f'kubelet logs the end of its loop as an error: an E line "{MESSAGE}". Your log '
        f"had: {line or 'no such line'}",
        zh=f'kubelet 把主循环的结束记为一条错误日志：以 E 开头的 "{MESSAGE}"。'
        f"你的日志里是：{line or '没有这一行'}",
    )


def check_sync_loop_returns_when_configch_closes() -> None:
    state: dict[str, Any] = {"iterations": 0}
    real = Kubelet.sync_loop_iteration

    async def counted(self: Kubelet, *args: Any) -> bool:
        state["iterations"] += 1
        if state["iterations"] > 100:
            raise RuntimeError("still looping")
        return await real(self, *args)

    async def main() -> None:
        kl = new_kubelet(sources={FileSource})
        kl.runtime_state.set_runtime_sync(kl.clock.now())
        config_ch = make_chan(1, name="configCh")

        async def close_at_3s() -> None:
            await go.sleep(3)
            config_ch.close()

        go.go(close_at_3s)
        try:
            await kl.sync_loop(config_ch.recv_only(), RecordingHandler())
            state["returned"] = True
        except RuntimeError as err:
            state["raised"] = str(err)

    with patch.object(Kubelet, "sync_loop_iteration", counted):
        run_go(main, until=30)
    expect(
        "raised" not in state and state.get("returned"),
        en="syncLoop must return once configCh is closed (at 3 s). It went on for more than "
        "100 iterations: a closed channel is always ready, so a loop that does not stop spins "
        "on it forever.",
        zh="configCh 关闭（3 秒时）之后，syncLoop 必须返回。它却继续跑了 100 多轮：已关闭的通道永远是"
        "就绪的，不停下来的主循环会在它上面永远空转。",
    )
