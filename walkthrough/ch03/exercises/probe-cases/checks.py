"""What ch03/probe-cases checks in the probe cases of your ``sync_loop_iteration``."""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

from minikubelet.container.runtime import ContainerID
from minikubelet.go import make_chan
from minikubelet.prober.results.results_manager import Result, Update
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import RecordingHandler, make_pod, new_kubelet, run_go

CID = ContainerID("containerd", "c1")


def probe(manager: str, result: Result) -> dict[str, Any]:
    """One result from the ``manager`` ("liveness", "readiness", "startup") for pod web."""
    handler = RecordingHandler()
    state: dict[str, Any] = {"handler": handler, "status": []}

    async def main() -> None:
        kl = new_kubelet()
        kl.pod_manager.add_pod(make_pod("web", "uid-web"))

        async def readiness(uid: str, cid: ContainerID, ready: bool) -> None:
            state["status"].append(("readiness", uid, cid.id, ready))

        async def startup(uid: str, cid: ContainerID, started: bool) -> None:
            state["status"].append(("startup", uid, cid.id, started))

        results = getattr(kl, f"{manager}_manager")
        await results._updates.send(Update(CID, result, "uid-web"))
        with (
            patch.object(kl.status_manager, "set_container_readiness", readiness),
            patch.object(kl.status_manager, "set_container_startup", startup),
        ):
            state["result"] = await kl.sync_loop_iteration(
                make_chan(1), handler, make_chan(1), make_chan(1), kl.pleg.watch()
            )

    state["log"] = run_go(main, verbosity=4)
    return state


def probe_line(state: dict[str, Any]) -> str:
    return next((x for x in state["log"].splitlines() if '"SyncLoop (probe)"' in x), "")


def check_a_failed_liveness_probe_syncs_the_pod() -> None:
    state = probe("liveness", Result.FAILURE)
    expect_equal(
        state["handler"].calls,
        [("syncs", ["web"])],
        en="A failed liveness probe must sync its pod (the pod worker then restarts the "
        "container).",
        zh="存活探针失败时，要同步它所属的 Pod（随后 Pod worker 会重启这个容器）。",
    )
    line = probe_line(state)
    expect(
        'probe="liveness" status="unhealthy" pod="default/web"' in line,
        en='The sync is logged as kubelet does: "SyncLoop (probe)" probe="liveness" '
        f'status="unhealthy" pod="default/web". Your log had: {line or "no such line"}',
        zh='这次同步要像 kubelet 那样记日志："SyncLoop (probe)" probe="liveness" '
        f'status="unhealthy" pod="default/web"。你的日志里是：{line or "没有这一行"}',
    )


def check_a_passing_liveness_probe_changes_nothing() -> None:
    state = probe("liveness", Result.SUCCESS)
    expect_equal(
        state["handler"].calls,
        [],
        en="A liveness probe that passes again needs nothing: no sync.",
        zh="存活探针重新通过时什么都不用做：不同步。",
    )


def check_readiness_is_recorded_then_the_pod_synced() -> None:
    for result, ready, status in ((Result.SUCCESS, True, "ready"), (Result.FAILURE, False, "")):
        state = probe("readiness", result)
        expect_equal(
            state["status"],
            [("readiness", "uid-web", "c1", ready)],
            en=f"A readiness {result} must be recorded in the pod's status first: the container "
            f"is {'ready' if ready else 'not ready'} (the status manager's readiness, with the "
            "pod's UID and the container's ID).",
            zh=f"就绪探针的结果 {result} 要先记进 Pod 的状态：这个容器{'已就绪' if ready else '未就绪'}"
            "（状态管理器的 readiness，带上 Pod 的 UID 和容器 ID）。",
        )
        line = probe_line(state)
        expect(
            state["handler"].calls == [("syncs", ["web"])]
            and f'probe="readiness" status="{status}"' in line,
            en=f'…then the pod is synced, logged with probe="readiness" status="{status}". '
            f"Your loop called {state['handler'].calls}; the log had: {line or 'no such line'}",
            zh=f'……然后同步这个 Pod，日志带上 probe="readiness" status="{status}"。'
            f"你的循环调用了 {state['handler'].calls}；日志里是：{line or '没有这一行'}",
        )


def check_startup_is_recorded_then_the_pod_synced() -> None:
    cases = ((Result.SUCCESS, True, "started"), (Result.FAILURE, False, "unhealthy"))
    for result, started, status in cases:
        state = probe("startup", result)
        expect_equal(
            state["status"],
            [("startup", "uid-web", "c1", started)],
            en=f"A startup {result} must be recorded in the pod's status first: the container "
            f"has {'started' if started else 'not started'}.",
            zh=f"启动探针的结果 {result} 要先记进 Pod 的状态：这个容器{'已经' if started else '还没有'}启动。",
        )
        line = probe_line(state)
        expect(
            state["handler"].calls == [("syncs", ["web"])]
            and f'probe="startup" status="{status}"' in line,
            en=f'…then the pod is synced, logged with probe="startup" status="{status}". '
            f"The log had: {line or 'no such line'}",
            zh=f'……然后同步这个 Pod，日志带上 probe="startup" status="{status}"。'
            f"日志里是：{line or '没有这一行'}",
        )
