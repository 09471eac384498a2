"""What ch03/housekeeping-sources checks in your ``sync_loop_iteration``."""

from __future__ import annotations

from typing import Any

from minikubelet.go import make_chan
from minikubelet.types import FileSource, HTTPSource, PodOperation, PodUpdate
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import RecordingHandler, make_pod, new_kubelet, run_go

SKIPPED = "SyncLoop (housekeeping, skipped): sources aren't ready yet"


def run_steps(*steps: Any, cleanup_error: Exception | None = None) -> dict[str, Any]:
    """One iteration per step: ("tick",) is a housekeeping tick, else (op, source) an update.

    kubelet waits for two sources, file and http. Returns the handler, what each iteration
    returned or raised, the sources seen after each step, and the log (verbosity 4).
    """
    handler = RecordingHandler(cleanup_error=cleanup_error)
    state: dict[str, Any] = {"handler": handler, "results": [], "seen": []}

    async def main() -> None:
        kl = new_kubelet(sources={FileSource, HTTPSource})
        for step in steps:
            config_ch = make_chan(1, name="configCh")
            housekeeping_ch = make_chan(1, name="housekeepingCh")
            if step[0] == "tick":
                await housekeeping_ch.send(0.0)
            else:
                op, source = step
                await config_ch.send(PodUpdate(pods=[make_pod("web")], op=op, source=source))
            try:
                result = await kl.sync_loop_iteration(
                    config_ch, handler, make_chan(1), housekeeping_ch, kl.pleg.watch()
                )
                state["results"].append(result)
            except Exception as err:
                state["results"].append(f"{type(err).__name__}: {err}")
            state["seen"].append(sorted(kl.sources_ready.sources_seen))

    state["log"] = run_go(main, verbosity=4)
    return state


def cleanups(state: dict[str, Any]) -> int:
    return sum(kind == "cleanups" for kind, _ in state["handler"].calls)


def check_housekeeping_cleans_up_once_every_source_is_seen() -> None:
    state = run_steps((PodOperation.ADD, FileSource), (PodOperation.ADD, HTTPSource), ("tick",))
    expect_equal(
        cleanups(state),
        1,
        en="Once both sources (file and http) have sent an update, a housekeeping tick must "
        "have the handler clean up, once.",
        zh="两个配置源（file 和 http）都发来更新之后，清理定时器触发时要让 handler 清理一次。",
    )
    expect(
        '"SyncLoop (housekeeping)"' in state["log"],
        en='Housekeeping logs "SyncLoop (housekeeping)" at verbosity 4 before it cleans up.',
        zh='清理之前要在日志级别 4 打印 "SyncLoop (housekeeping)"。',
    )


def check_every_operation_marks_its_source_seen() -> None:
    for op in (PodOperation.UPDATE, PodOperation.REMOVE, PodOperation.SET):
        state = run_steps((op, HTTPSource))
        expect(
            state["seen"][-1] == [HTTPSource],
            en=f"After any update, {op.name} included, the loop must record that its source "
            "has sent something: a source that sends only removals or a SET is ready too.",
            zh=f"处理任何更新之后（包括 {op.name}），主循环都要记下这个来源已经发过东西了："
            "只发送移除或 SET 的来源也是已就绪的。",
        )


def check_housekeeping_waits_for_every_source() -> None:
    state = run_steps((PodOperation.ADD, HTTPSource), ("tick",))
    expect_equal(
        cleanups(state),
        0,
        en="With http seen but not file, a housekeeping tick must not clean up: the file "
        "source has not reported, and all its pods would look gone.",
        zh="只见过 http、还没见过 file 时，清理定时器触发也不能清理：file 来源还没上报，"
        "它的 Pod 看起来会像是全都没了。",
    )
    expect(
        SKIPPED in state["log"],
        en=f'A skipped tick says so at verbosity 4: "{SKIPPED}".',
        zh=f'跳过的触发要在日志级别 4 说明："{SKIPPED}"。',
    )
    state = run_steps(("tick",), (PodOperation.ADD, FileSource), ("tick",))
    expect_equal(
        cleanups(state),
        0,
        en="Before any source has reported, and with only one of the two, housekeeping "
        "must skip its ticks.",
        zh="在任何来源上报之前，以及两个来源中只有一个上报时，清理都必须跳过。",
    )


def check_a_failing_cleanup_does_not_stop_the_loop() -> None:
    state = run_steps(
        (PodOperation.ADD, FileSource),
        (PodOperation.ADD, HTTPSource),
        ("tick",),
        cleanup_error=RuntimeError("cleanup broke"),
    )
    expect_equal(
        state["results"][-1],
        True,
        en="A cleanup that fails must not stop kubelet: the error is logged and the loop goes "
        "on (the iteration returns True).",
        zh="清理失败不能让 kubelet 停下来：记下错误，主循环继续（迭代返回 True）。",
    )
    line = next((x for x in state["log"].splitlines() if "Failed cleaning pods" in x), "")
    expect(
        line.startswith("E") and 'err="cleanup broke"' in line,
        en='The failure is logged as an error with the error itself: "Failed cleaning pods" '
        'err="cleanup broke".',
        zh='失败要记成一条带上错误本身的错误日志："Failed cleaning pods" err="cleanup broke"。',
    )
