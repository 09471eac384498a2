"""What ch03/config-ops expects of your ``sync_loop_iteration``: one handler per operation."""

from __future__ import annotations

from typing import Any

from minikubelet.sim.go import make_chan
from minikubelet.types import FileSource, HTTPSource, PodOperation, PodUpdate
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import RecordingHandler, make_pod, new_kubelet, run_go


def one_update(ex: Any, op: PodOperation, *, source: str = FileSource, verbosity: int = 4):
    """Send one update of ``op`` through one iteration of the learner's loop."""
    handler = RecordingHandler()
    state: dict[str, Any] = {}

    async def main() -> None:
        kl = new_kubelet(ex.Kubelet, sources={FileSource})
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


def expect_routed(ex: Any, op: PodOperation, method: str, kind: str) -> None:
    handler, state, _ = one_update(ex, op)
    expect_equal(
        handler.calls,
        [(kind, ["web"])],
        en=f"{article(op.name).title()} {op.name} update must call handler.{method}(u.pods), "
        f"once; your loop called {called(handler, 'en')}.",
        zh=f"{op.name} 更新应当调用一次 handler.{method}(u.pods)；你的循环调用的是："
        f"{called(handler, 'zh')}。",
    )
    expect(
        state["result"] is True,
        en=f"After {article(op.name)} {op.name} update the iteration must return True (the loop goes on).",
        zh=f"处理完 {op.name} 更新后，这一轮应当返回 True（主循环继续）。",
    )


def test_add_goes_to_handle_pod_additions(ex: Any) -> None:
    expect_routed(ex, PodOperation.ADD, "handle_pod_additions", "additions")


def test_update_goes_to_handle_pod_updates(ex: Any) -> None:
    expect_routed(ex, PodOperation.UPDATE, "handle_pod_updates", "updates")


def test_remove_goes_to_handle_pod_removes(ex: Any) -> None:
    expect_routed(ex, PodOperation.REMOVE, "handle_pod_removes", "removes")


def test_reconcile_goes_to_handle_pod_reconcile(ex: Any) -> None:
    expect_routed(ex, PodOperation.RECONCILE, "handle_pod_reconcile", "reconcile")


def test_delete_is_handled_as_an_update(ex: Any) -> None:
    handler, _, _ = one_update(ex, PodOperation.DELETE)
    expect_equal(
        handler.calls,
        [("updates", ["web"])],
        en="A DELETE update must call handler.handle_pod_updates(u.pods): a deleted pod is "
        "stopped gracefully, which is an update of the pod (its deletion timestamp is set). "
        f"Your loop called {called(handler, 'en')}.",
        zh="DELETE 更新应当调用 handler.handle_pod_updates(u.pods)：被删除的 Pod 要优雅地停止，"
        "这对 Pod 来说是一次更新（它的 deletionTimestamp 被设置了）。"
        f"你的循环调用的是：{called(handler, 'zh')}。",
    )


def test_every_update_marks_its_source_seen(ex: Any) -> None:
    for op in (PodOperation.UPDATE, PodOperation.REMOVE, PodOperation.SET):
        _, state, _ = one_update(ex, op, source=HTTPSource)
        expect(
            HTTPSource in state["seen"],
            en=f"After any update, {op.name} included, the loop must record that its source "
            "has sent something: self.sources_ready.add_source(u.source). Housekeeping waits "
            "for every source, so that it never deletes the pods of a source that is late.",
            zh=f"处理任何更新之后（包括 {op.name}），主循环都要记下这个来源已经发来过消息："
            "self.sources_ready.add_source(u.source)。清理（housekeeping）要等所有来源都到齐，"
            "免得删掉还没来得及上报的来源的 Pod。",
        )


def test_each_operation_is_logged_as_kubelet_does(ex: Any) -> None:
    for op in (PodOperation.UPDATE, PodOperation.REMOVE, PodOperation.DELETE):
        _, _, log = one_update(ex, op, verbosity=2)
        line = f'"SyncLoop {op.name}" source="file" pods=[default/web]'
        expect(
            line in log,
            en=f"At verbosity 2 the log must have kubelet's line {line}: use "
            f'klog.v(2).info_s("SyncLoop {op.name}", source=u.source, pods=format.pods(u.pods)).',
            zh=f"在日志级别 2 下，日志里应当有 kubelet 的这一行：{line}。写法："
            f'klog.v(2).info_s("SyncLoop {op.name}", source=u.source, pods=format.pods(u.pods))。',
        )
    _, _, quiet = one_update(ex, PodOperation.RECONCILE, verbosity=2)
    _, _, loud = one_update(ex, PodOperation.RECONCILE, verbosity=4)
    line = '"SyncLoop RECONCILE" source="file" pods=[default/web]'
    expect(
        line in loud and line not in quiet,
        en=f"RECONCILE is logged at verbosity 4, not 2 (it happens often): {line}",
        zh=f"RECONCILE 的日志级别是 4 而不是 2（它很频繁）：{line}",
    )
