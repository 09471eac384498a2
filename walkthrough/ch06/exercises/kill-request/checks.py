"""What ch06/kill-request checks in your ``sync_pod``: a kill request, as the eviction manager
sends it through killPodNow."""

from __future__ import annotations

from typing import Any

from minikubelet import go
from minikubelet.k8s_io.api.core.v1 import PodPhase, PodStatus
from minikubelet.kubelet import Kubelet
from minikubelet.pod_workers import UpdatePodOptions, kill_pod_now
from minikubelet.types import SyncPodType
from walkthrough.ch06.syncs import Run, run_syncs
from walkthrough.expect import expect, expect_equal

SCRIPT = """
- at: 0s
  type: ADDED
  object:
    apiVersion: v1
    kind: Pod
    metadata:
      name: web
      uid: 5c1d0b1e-0000-4000-8000-0000000000eb
      annotations:
        minikubelet.dev/scenario: "web: {runFor: forever, stopTime: 20s}"
    spec:
      terminationGracePeriodSeconds: 30
      containers: [{name: web, image: "registry.example/shop/web:2.0"}]
"""

EVICTED = PodStatus(phase=PodPhase.FAILED, reason="Evicted", message="The node was low on memory.")


def web(kl: Kubelet) -> Any:
    """The pod web, as the pod manager has it."""
    return next(p for p in kl.pod_manager.get_pods() if p.metadata.name == "web")


def evicted_at_5s() -> tuple[Run, dict[str, Any]]:
    """The eviction manager kills web at 5 s, with a grace period of 1 s."""
    result: dict[str, Any] = {}

    def setup(kl: Kubelet) -> None:
        async def evict() -> None:
            await go.sleep(5.0)
            pod = web(kl)
            kill = kill_pod_now(kl.pod_workers, kl.recorder)
            try:
                await kill(pod, EVICTED, 1)
                result["error"] = None
            except Exception as err:
                result["error"] = str(err)

        go.go(evict, name="eviction manager")

    return run_syncs(SCRIPT, until=20.0, setup=setup), result


def check_the_kill_stops_the_container_with_the_grace_period_asked_for() -> None:
    run, result = evicted_at_5s()
    expect_equal(
        (run.stops, result.get("error", "no answer")),
        ([(5.0, "web", 1)], None),
        en="At 5 s the eviction manager kills web through killPodNow, with a grace period of 1 s "
        "(the pod's own is 30 s). The container must be stopped at once, with 1 s, and "
        "killPodNow must get its answer: no error. Containers stopped (time, name, grace "
        "period), and killPodNow's error:",
        zh="5 秒时，驱逐管理器经由 killPodNow 杀掉 web，宽限期为 1 秒（Pod 自己的是 30 秒）。容器必须立即以"
        " 1 秒的宽限期被停掉，killPodNow 也必须得到答复：没有错误。被停掉的容器（时间、名字、宽限期），以及 "
        "killPodNow 的错误：",
    )


def check_the_pod_gets_the_status_the_killer_gave() -> None:
    run, _ = evicted_at_5s()
    at_kill = [(phase, reason) for t, name, phase, reason in run.statuses if t == 5.0]
    expect(
        at_kill[-1:] == [("Failed", "Evicted")],
        en="The kill request carries the status the pod must have (here Failed, reason Evicted: "
        "what kubectl shows for an evicted pod). It goes to the status manager before the pod "
        "is killed, and nothing in the same sync may replace it with a status of its own. "
        f"Statuses given at 5 s, in order: {at_kill or 'none'}.",
        zh="kill 请求带着 Pod 应有的状态（这里是 Failed，原因 Evicted：kubectl 对被驱逐的 Pod 显示的就是它）。"
        "杀掉 Pod 之前要把它交给状态管理器，而同一次同步里的其他步骤不能再用自己算出的状态替换它。"
        f"5 秒时按顺序给出的状态：{at_kill or '没有'}。",
    )


def check_the_kill_does_nothing_else() -> None:
    run, _ = evicted_at_5s()
    kills = [s for s in run.of("web") if s.kind == "kill"]
    expect_equal(
        [(s.at, s.reached_runtime, s.error) for s in kills],
        [(5.0, False, None)],
        en="The sync of the kill request must only kill. It must not go on as a normal sync, as "
        "far as the runtime's SyncPod, whose plan would be made from the status read before the "
        "kill. The kill syncs (time, whether they reached the runtime's SyncPod, error):",
        zh="执行 kill 请求的那次同步只能杀。它不能再像普通同步那样一路走到运行时的 SyncPod：那里的计划是"
        "根据 kill 之前读到的状态做出的。kill 同步（时间、是否走到了运行时的 SyncPod、错误）：",
    )


def check_a_kill_without_options_is_refused_clearly() -> None:
    errors: list[str] = []

    def setup(kl: Kubelet) -> None:
        async def bad_kill() -> None:
            await go.sleep(5.0)
            pod = web(kl)

            def done(err: Exception | None) -> None:
                errors.append(str(err))

            await kl.pod_workers.update_pod(
                UpdatePodOptions(pod=pod, update_type=SyncPodType.KILL, on_complete_func=done)
            )

        go.go(bad_kill, name="a caller that forgot the options")

    run_syncs(SCRIPT, until=10.0, setup=setup)
    expect_equal(
        errors,
        ["kill pod options are required if update type is kill"],
        en="A kill request must carry its options (at least the function that gives the pod's "
        "status). Without them, the sync fails with a clear error, and kills nothing. The error "
        "the caller got:",
        zh="kill 请求必须带着它的选项（至少要有给出 Pod 状态的那个函数）。没有的话，这次同步要以一个清楚的错误"
        "失败，并且什么都不杀。调用者得到的错误：",
    )
