"""What ch03/config-ops checks in your ``sync_loop_iteration``: one handler per operation."""

from __future__ import annotations

from typing import Any

from minikubelet.go import make_chan
from minikubelet.types import FileSource, PodOperation, PodUpdate
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import RecordingHandler, make_pod, new_kubelet, run_go


def one_update(op: PodOperation, *, source: str = FileSource, verbosity: int = 4):
    """Send one update of ``op`` through one iteration of the learner's loop."""
    handler = RecordingHandler()
    state: dict[str, Any] = {}

    async def main() -> None:
        kl = new_kubelet(sources={FileSource})
        config_ch = make_chan(1, name="configCh")
        await config_ch.send(PodUpdate(pods=[make_pod("web")], op=op, source=source))
        never = make_chan(1)
        state["result"] = await kl.sync_loop_iteration(
            config_ch, handler, never, make_chan(1), kl.pleg.watch()
        )
        state["seen"] = set(kl.sources_ready.sources_seen)

    log = run_go(main, verbosity=verbosity)
    return handler, state, log


def called(handler: RecordingHandler, lang: str) -> str:
    calls = [f"handle_pod_{kind}({names})" for kind, names in handler.calls]
    return ", ".join(calls) or ("nothing" if lang == "en" else "没有调用任何方法")


def article(word: str) -> str:
    return "an" if word[0] in "AEIOU" else "a"


def expect_routed(op: PodOperation, kind: str, what: dict[str, str]) -> None:
    handler, state, _ = one_update(op)
    expect_equal(
        handler.calls,
        [(kind, ["web"])],
        en=f"{article(op.name).title()} {op.name} must reach the handler once, as "
        f"{what['en']}; your loop called {called(handler, 'en')}.",
        zh=f"{op.name} 应当交给 handler 一次，作为{what['zh']}；你的循环调用的是："
        f"{called(handler, 'zh')}。",
    )
    expect(
        state["result"] is True,
        en=f"After {article(op.name)} {op.name} update the iteration must return True (the loop goes on).",
        zh=f"处理完 {op.name} 更新后，这一轮应当返回 True（主循环继续）。",
    )


def check_an_add_reaches_the_handler_as_new_pods() -> None:
    expect_routed(PodOperation.ADD, "additions", {"en": "new pods", "zh": "新 Pod"})


def check_an_update_reaches_the_handler_as_changed_pods() -> None:
    expect_routed(PodOperation.UPDATE, "updates", {"en": "changed pods", "zh": "有变化的 Pod"})


def check_a_remove_reaches_the_handler_as_pods_gone() -> None:
    expect_routed(
        PodOperation.REMOVE,
        "removes",
        {"en": "pods gone from their source", "zh": "已从来源中消失的 Pod"},
    )


def check_a_reconcile_reaches_the_handler_as_status_only() -> None:
    expect_routed(
        PodOperation.RECONCILE,
        "reconcile",
        {"en": "pods whose status only changed", "zh": "只有状态变化的 Pod"},
    )


def check_a_delete_is_a_change_of_the_pod() -> None:
    handler, _, _ = one_update(PodOperation.DELETE)
    expect_equal(
        handler.calls,
        [("updates", ["web"])],
        en="A DELETE must reach the handler as a change of the pod: a deleted pod is stopped "
        "gracefully (its deletion timestamp is set, and its worker honours the grace period), "
        "it is not dropped at once as a pod gone from its source. "
        f"Your loop called {called(handler, 'en')}.",
        zh="DELETE 应当作为 Pod 的一次变化交给 handler：被删除的 Pod 要优雅地停止（它的删除时间戳"
        "被设置了，Pod worker 会等待宽限期），而不是像从来源消失的 Pod 那样被立即丢掉。"
        f"你的循环调用的是：{called(handler, 'zh')}。",
    )


def check_each_operation_is_logged_as_kubelet_does() -> None:
    for op in (PodOperation.UPDATE, PodOperation.REMOVE, PodOperation.DELETE):
        _, _, log = one_update(op, verbosity=2)
        line = f'"SyncLoop {op.name}" source="file" pods=[default/web]'
        expect(
            line in log,
            en=f"At verbosity 2 the log must have kubelet's line {line} (the message, then the "
            "source and the pods), as the ADD case logs its own.",
            zh=f"在日志级别 2 下，日志里应当有 kubelet 的这一行：{line}（先是消息，然后是来源和 Pod），"
            "就像 ADD 分支打印的那一行。",
        )
    _, _, quiet = one_update(PodOperation.RECONCILE, verbosity=2)
    _, _, loud = one_update(PodOperation.RECONCILE, verbosity=4)
    line = '"SyncLoop RECONCILE" source="file" pods=[default/web]'
    expect(
        line in loud and line not in quiet,
        en=f"RECONCILE is logged at verbosity 4, not 2 (it happens often): {line}",
        zh=f"RECONCILE 的日志级别是 4 而不是 2（它很频繁）：{line}",
    )
