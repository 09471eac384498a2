"""One sentence per step of a trace, in the reader's language. Ours, not kubelet's.

What the site's trace player says under its controls, and what ``minikubelet trace show``
prints for each step: ``select: 3 cases ready (configCh, plegCh, syncCh); chose plegCh``. Names
come from the Go (the channel a case reads, as the Go case writes it), values from the trace.
Log lines are kubelet's own and stay as printed, in both languages.
"""

from __future__ import annotations

from typing import Any

from minikubelet.go.duration import format_duration


def channel_of_case(case: str | None) -> str | None:
    """The channel a Go select case reads or writes, as the Go writes it:
    ``case u, open := <-configCh:`` → ``configCh``, ``case g.eventChannel <- events[i]:`` →
    ``g.eventChannel``; None for ``default:`` (or no case)."""
    if not case or not case.startswith("case "):
        return None
    body = case.removeprefix("case ").removesuffix(":").strip()
    for assign in (":=", "="):
        left, sep, right = body.partition(assign)
        if sep and not left.rstrip().endswith(("<", "!", ">")) and right.lstrip().startswith("<-"):
            body = right.strip()
            break
    if body.startswith("<-"):
        return body[2:].strip()
    channel, sep, _ = body.partition("<-")
    return channel.strip() if sep else None


def _list(items: list[str], lang: str) -> str:
    return ("、" if lang == "zh" else ", ").join(items)


def _t(lang: str, en: str, zh: str) -> str:
    return zh if lang == "zh" else en


def explain(step: dict[str, Any], ctx: Any, lang: str) -> str:
    """The sentence for ``step``; ``ctx`` names channels (``ctx.chan(id)``), the cases of the
    step's select (``ctx.case_names(step)``), goroutines (``ctx.goroutine(id)``) and knows a
    pod worker's state before the step (``ctx.worker_before(pod)``)."""
    k = step["k"]
    if k == "select":
        return _select(step, ctx, lang)
    if k == "wait":
        names = [n for n in ctx.case_names(step) if n]
        if len(names) > 3:
            return _t(
                lang,
                f"select: no case is ready; the goroutine blocks until one of its {len(names)} "
                "cases is ready",
                f"select：没有就绪的 case，goroutine 阻塞，直到 {len(names)} 个 case 中有一个就绪",
            )
        return _t(
            lang,
            f"select: no case is ready; the goroutine blocks on {_list(names, lang)}",
            f"select：没有就绪的 case，goroutine 阻塞在 {_list(names, lang)} 上",
        )
    if k == "send":
        ch = ctx.chan(step["ch"])
        after = _buffered(step, ctx, lang)
        return _t(lang, f"send {step['v']} on {ch}{after}", f"向 {ch} 发送 {step['v']}{after}")
    if k == "recv":
        ch = ctx.chan(step["ch"])
        if not step.get("ok", True):
            return _t(
                lang,
                f"{ch} is closed: the receive gets ok = false",
                f"{ch} 已关闭：接收得到 ok = false",
            )
        return _t(lang, f"receive {step['v']} from {ch}", f"从 {ch} 接收 {step['v']}")
    if k == "close":
        ch = ctx.chan(step["ch"])
        return _t(lang, f"close {ch}", f"关闭 {ch}")
    if k == "sleep":
        d = format_duration(step["d"] / 1e9)
        return _t(lang, f"sleep {d}", f"休眠 {d}")
    if k == "go":
        return _t(
            lang,
            f"start goroutine {step['id']}: {step['name']}",
            f"启动 goroutine {step['id']}：{step['name']}",
        )
    if k == "exit":
        g, name = step["g"], ctx.goroutine(step["g"])
        how = {"returned": "返回", "panicked": "panic", "cancelled": "被取消"}
        return _t(
            lang,
            f"goroutine {g} ({name}) ends: {step['how']}",
            f"goroutine {g}（{name}）结束：{how.get(step['how'], step['how'])}",
        )
    if k == "worker":
        return _worker(step, ctx.worker_before(step["pod"]), lang)
    if k == "cri":
        on = f" {step['on']}" if step.get("on") else ""
        return _t(
            lang,
            f"container runtime: {step['op']}{on} for {step['pod']}",
            f"容器运行时：为 {step['pod']} 执行 {step['op']}{on}",
        )
    if k == "cgroup":
        return _cgroup(step, lang)
    if k == "status":
        return _status(step, lang)
    if k == "log":
        kv = f" {step['kv']}" if step.get("kv") else ""
        return _t(lang, "log: ", "日志：") + f'"{step["msg"]}"{kv}'
    return k


def _cgroup(step: dict[str, Any], lang: str) -> str:
    path, op = step["path"], step["op"]
    if op == "mkdir":
        return _t(lang, f"cgroup made: {path}", f"创建 cgroup：{path}")
    if op == "rmdir":
        return _t(lang, f"cgroup removed: {path}", f"删除 cgroup：{path}")
    files = " ".join(f"{k}={v}" for k, v in sorted((step.get("set") or {}).items()))
    return _t(lang, f"cgroup {path}: {files}", f"cgroup {path}：{files}")


def _buffered(step: dict[str, Any], ctx: Any, lang: str) -> str:
    n = ctx.buffered(step["ch"])
    if n is None:
        return ""
    return _t(lang, f" ({n} now buffered)", f"（缓冲区现有 {n} 个）")


def _select(step: dict[str, Any], ctx: Any, lang: str) -> str:
    names = ctx.case_names(step)
    chosen = step["chosen"]
    if chosen < 0:
        return _t(
            lang,
            "select: no case is ready; it takes default",
            "select：没有就绪的 case，执行 default",
        )
    pick = names[chosen] or f"case {chosen}"
    value = (_t(lang, f" ({step['v']})", f"（{step['v']}）")) if step.get("v") else ""
    if step["cases"][chosen][0] == "s":
        others = len(step["ready"]) - 1
        extra = (
            _t(lang, f"; {others} other cases ready", f"；另有 {others} 个 case 就绪")
            if others
            else ""
        )
        return _t(
            lang,
            f"select: the send to {pick} can proceed: it sends {step['v']}{extra}",
            f"select：向 {pick} 的发送可以进行，发送 {step['v']}{extra}",
        )
    if step.get("waited"):
        return _t(
            lang,
            f"select wakes up: {pick} is ready{value}",
            f"select 被唤醒：{pick} 就绪了{value}",
        )
    ready = [names[i] or f"case {i}" for i in step["ready"]]
    if len(ready) == 1:
        return _t(
            lang,
            f"select: only {pick} is ready; it takes it{value}",
            f"select：只有 {pick} 就绪，执行它{value}",
        )
    return _t(
        lang,
        f"select: {len(ready)} cases ready ({_list(ready, lang)}); chose {pick}{value}",
        f"select：{len(ready)} 个 case 就绪（{_list(ready, lang)}），随机选中 {pick}{value}",
    )


def _worker(step: dict[str, Any], before: list[Any] | None, lang: str) -> str:
    pod = step["pod"]
    if step.get("working") and not step.get("pending") and before and before[0] and before[1]:
        return _t(
            lang,
            f"the pod worker of {pod} finished a sync and takes the update that was waiting in "
            "lastUndeliveredWorkUpdate",
            f"{pod} 的 pod worker 完成一次同步，接着处理在 lastUndeliveredWorkUpdate 中等待的更新",
        )
    if step.get("pending") and before and before[0] and before[1]:
        return _t(
            lang,
            f"the pod worker of {pod} is busy: this update replaces the one waiting in "
            f"lastUndeliveredWorkUpdate ({step['pending']})",
            f"{pod} 的 pod worker 正忙：这次更新替换掉 lastUndeliveredWorkUpdate 中原先等待的那次（{step['pending']}）",
        )
    if step.get("pending"):
        return _t(
            lang,
            f"the pod worker of {pod} is busy: the update waits in lastUndeliveredWorkUpdate "
            f"({step['pending']})",
            f"{pod} 的 pod worker 正忙：这次更新先存进 lastUndeliveredWorkUpdate（{step['pending']}）",
        )
    if step.get("working"):
        return _t(
            lang,
            f"the pod worker of {pod} gets work: isWorking = true",
            f"{pod} 的 pod worker 接到任务：isWorking = true",
        )
    return _t(
        lang,
        f"the pod worker of {pod} is idle again: isWorking = false",
        f"{pod} 的 pod worker 重新空闲：isWorking = false",
    )


def _status(step: dict[str, Any], lang: str) -> str:
    containers = ", ".join(f"{name} {state}" for name, state, _ in step.get("containers", []))
    reason = f" {step['reason']}" if step.get("reason") else ""
    phase = step.get("phase") or "?"
    detail = f" ({containers})" if containers else ""
    return _t(
        lang,
        f"status of {step['pod']}: {phase}{reason}{detail}",
        f"{step['pod']} 的状态：{phase}{reason}{detail}",
    )
