"""What ch02/runtime-backoff checks in your ``sync_loop``: wait, doubling, while the runtime is down."""

from __future__ import annotations

from minikubelet import go
from minikubelet.go import Second, make_chan
from minikubelet.types import FileSource, PodOperation, PodUpdate
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import RecordingHandler, make_pod, new_kubelet, run_go


def skipped_at(log: str) -> list[float]:
    """When (seconds into the run) the loop logged "Skipping pod synchronization"."""
    stamps = []
    for line in log.splitlines():
        if "Skipping pod synchronization" in line:
            h, m, s = line.split()[1].split(":")
            stamps.append(round(int(h) * 3600 + int(m) * 60 + float(s), 6))
    return stamps


def runtime_up_at_20s() -> tuple[RecordingHandler, str]:
    """The runtime's first status check succeeds at 20 s; an ADD waits from 0 s."""
    handler = RecordingHandler()

    async def main() -> None:
        kl = new_kubelet()
        config_ch = make_chan(1, name="configCh")
        await config_ch.send(
            PodUpdate(pods=[make_pod("web")], op=PodOperation.ADD, source=FileSource)
        )

        async def runtime() -> None:
            await go.sleep(20 * Second)
            kl.runtime_state.set_runtime_sync(kl.clock.now())
            await go.sleep(5 * Second)
            config_ch.close()

        go.go(runtime)
        await kl.sync_loop(config_ch.recv_only(), handler)

    log = run_go(main, until=60 * Second)
    return handler, log


def check_the_loop_waits_doubling_from_100ms_up_to_5s() -> None:
    _, log = runtime_up_at_20s()
    expect_equal(
        skipped_at(log),
        [0.0, 0.1, 0.3, 0.7, 1.5, 3.1, 6.3, 11.3, 16.3],
        en='While the runtime is down, each turn of the loop must log "Skipping pod '
        'synchronization" and sleep: 100 ms, then twice as long each time, never more than '
        "5 s. So the log lines come at 0 s, 0.1 s, 0.3 s, 0.7 s, 1.5 s, 3.1 s, 6.3 s, 11.3 s "
        "and 16.3 s.",
        zh='运行时出故障期间，主循环每一轮都要记一行 "Skipping pod synchronization" 并睡一会儿：'
        "先睡 100 毫秒，之后每次翻倍，但最多 5 秒。所以这些日志出现在 0、0.1、0.3、0.7、1.5、3.1、"
        "6.3、11.3 和 16.3 秒。",
    )


def check_the_error_is_in_the_log() -> None:
    _, log = runtime_up_at_20s()
    line = next((x for x in log.splitlines() if "Skipping pod synchronization" in x), "")
    expect(
        line.startswith("E") and 'err="' in line,
        en='"Skipping pod synchronization" is logged as an error (an E line), with the error '
        'itself (err="...") so that whoever reads the log knows what is wrong.',
        zh='"Skipping pod synchronization" 要以错误级别记录（E 开头的一行），并带上错误本身'
        '（err="..."），让读日志的人知道出了什么问题。',
    )


def check_no_pod_is_synced_until_the_runtime_is_up() -> None:
    handler, _ = runtime_up_at_20s()
    first = handler.times[0] if handler.times else None
    expect(
        first is not None and first >= 20,
        en="No handler may run while the runtime is down: the ADD sent at 0 s must wait until "
        f"the runtime is up (20 s). Your loop handled it at {first} s.",
        zh="运行时出故障期间不能调用任何 handler：0 秒发出的 ADD 必须等到运行时恢复（20 秒）。"
        f"你的循环在 {first} 秒就处理了它。",
    )
    expect_equal(
        handler.calls[:1],
        [("additions", ["web"])],
        en="Once the runtime is up, the loop goes on and the ADD is handled.",
        zh="运行时恢复后，主循环继续运行，ADD 得到处理。",
    )
    expect_equal(
        first,
        21.3,
        en="The loop notices the runtime is back when its last wait (5 s, from 16.3 s) is "
        "over: at 21.3 s.",
        zh="主循环在最后一次等待（从 16.3 秒起等 5 秒）结束时，也就是 21.3 秒，才发现运行时已恢复。",
    )


def check_the_back_off_starts_over_after_a_success() -> None:
    handler = RecordingHandler()

    async def main() -> None:
        kl = new_kubelet()
        kl.runtime_state.set_runtime_sync(kl.clock.now())
        kl.runtime_state.set_runtime_state(RuntimeError("runtime not ready"))
        config_ch = make_chan(1, name="configCh")

        async def script() -> None:
            await go.sleep(1 * Second)
            kl.runtime_state.set_runtime_state(None)  # up again, the loop runs from 1.5 s
            await go.sleep(2.05 * Second)
            kl.runtime_state.set_runtime_state(RuntimeError("runtime not ready"))  # down at 3.05 s
            await config_ch.send(PodUpdate(pods=[], op=PodOperation.ADD, source=FileSource))
            await go.sleep(0.85 * Second)
            kl.runtime_state.set_runtime_state(None)  # up at 3.9 s
            await go.sleep(2 * Second)
            config_ch.close()

        go.go(script)
        await kl.sync_loop(config_ch.recv_only(), handler)

    log = run_go(main, until=60 * Second)
    expect_equal(
        skipped_at(log),
        [0.0, 0.1, 0.3, 0.7, 3.05, 3.15, 3.35, 3.75],
        en="After a turn with no runtime error, the next back-off must start again from "
        "100 ms: down from 0 s to 1 s, the loop waits 0.1, 0.2, 0.4 s…; down again at 3.05 s, "
        "it waits 0.1, 0.2, 0.4 s again, not 1.6 s.",
        zh="只要有一轮运行时没出错，下一次退避就要从 100 毫秒重新开始：0 到 1 秒出故障时等待 0.1、0.2、"
        "0.4 秒……；3.05 秒再次出故障时，应当再从 0.1、0.2、0.4 秒等起，而不是 1.6 秒。",
    )
