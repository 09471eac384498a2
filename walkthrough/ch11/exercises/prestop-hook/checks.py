"""What ch11/prestop-hook checks in your ``execute_pre_stop_hook``."""

from __future__ import annotations

from typing import Any

from minikubelet import go
from minikubelet.config.manifest import pod_from_dict
from minikubelet.container.helpers import convert_pod_status_to_running_pod
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import new_back_off
from minikubelet.sim.container_runtime import new_fake_runtime
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import recorded_events, run_go


def make_pod(hook_seconds: float, grace: int = 10) -> Pod:
    """A pod whose container's preStop hook takes ``hook_seconds`` and which needs 60 s to stop
    after SIGTERM (so it is killed when its grace period is over)."""
    scenario = f"app: {{runFor: forever, stopTime: 60s, preStopTime: {hook_seconds}s}}"
    return pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": "web",
                "namespace": "default",
                "uid": "uid-web",
                "annotations": {"minikubelet.dev/scenario": scenario},
            },
            "spec": {
                "terminationGracePeriodSeconds": grace,
                "containers": [
                    {
                        "name": "app",
                        "image": "nginx:1.21",
                        "lifecycle": {"preStop": {"exec": {"command": ["nginx", "-s", "quit"]}}},
                    }
                ],
            },
        }
    )


class _FailingRunner:
    """A preStop hook that fails at once with some output."""

    async def run(self, container_id: Any, pod: Any, container: Any, handler: Any) -> Any:
        return "quit: no such process", RuntimeError("exit status 1")


def kill(pod: Pod, runner: Any = None) -> dict[str, Any]:
    """Start the pod on a fresh fake runtime, kill it; how long it took, the exit code, the
    hooks that ran, the events, kubelet's log."""
    out: dict[str, Any] = {}

    async def main() -> None:
        fake = new_fake_runtime()
        m = fake.manager
        if runner is not None:
            m.runner = runner
        uid, name, ns = pod.metadata.uid, pod.metadata.name, pod.metadata.namespace
        await m.sync_pod(pod, await m.get_pod_status(uid, name, ns), [], new_back_off(10, 300))
        running = convert_pod_status_to_running_pod("fake", await m.get_pod_status(uid, name, ns))
        start = go.now()
        await m.kill_pod(pod, running, None)
        out["took"] = round(go.now() - start, 3)
        status = await m.get_pod_status(uid, name, ns)
        out["exit"] = status.container_statuses[0].exit_code
        # The hook is an exec: kubelet runs it through the runtime's ExecSync.
        out["ran"] = fake.runtime_service.calls["exec_sync"]
        out["events"] = [(e.reason, e.message) for e in recorded_events(fake.recorder)]

    out["log"] = run_go(main, verbosity=3)
    return out


def check_a_short_hook_leaves_the_rest_of_the_grace_period() -> None:
    out = kill(make_pod(hook_seconds=3, grace=10))
    expect(
        out["ran"] == 1,
        en="The container's preStop hook must run (once) before the container is asked to stop.",
        zh="在让容器停止之前，必须运行（一次）容器的 preStop 钩子。",
    )
    expect_equal(
        out["took"],
        10.0,
        en="A hook that takes 3 s of a 10 s grace period leaves the container 7 s: killing the "
        "pod takes 10 s in all. executePreStopHook must return as soon as the hook is done, and "
        "say it took 3 s.",
        zh="钩子用掉 10 秒宽限期中的 3 秒，容器还剩 7 秒：杀掉这个 Pod 一共用 10 秒。"
        "executePreStopHook 必须在钩子一结束就返回，并说明它用了 3 秒。",
    )


def check_a_hook_never_outlasts_the_grace_period() -> None:
    out = kill(make_pod(hook_seconds=25, grace=10))
    expect_equal(
        out["took"],
        12.0,
        en="A hook that would take 25 s is given up at the end of the 10 s grace period; the "
        "container still gets the 2 s minimum: 12 s in all, not 25 s or more.",
        zh="一个要运行 25 秒的钩子在 10 秒宽限期结束时就不再等待；容器仍然有 2 秒的最小时间："
        "一共 12 秒，而不是 25 秒或更多。",
    )
    expect(
        "PreStop hook not completed in grace period" in out["log"],
        en='kubelet logs "PreStop hook not completed in grace period" (verbosity 2) when it stops '
        "waiting for a hook.",
        zh='kubelet 不再等待钩子时，会在日志级别 2 记录 "PreStop hook not completed in grace period"。',
    )


def check_the_time_taken_is_counted_in_whole_seconds() -> None:
    out = kill(make_pod(hook_seconds=4.7, grace=10))
    expect_equal(
        out["took"],
        10.7,
        en="A hook of 4.7 s counts as 4 whole seconds (Go converts the duration to an int64 of "
        "seconds): the container then gets 6 s, and the kill takes 4.7 + 6 = 10.7 s.",
        zh="4.7 秒的钩子按 4 个整秒计算（Go 把时长转换成以秒为单位的 int64）：于是容器得到 6 秒，"
        "杀掉 Pod 一共用 4.7 + 6 = 10.7 秒。",
    )


def check_a_failing_hook_leaves_an_event_and_the_kill_goes_on() -> None:
    out = kill(make_pod(hook_seconds=0, grace=10), runner=_FailingRunner())
    expect(
        ("FailedPreStopHook", "quit: no such process") in out["events"],
        en="A hook that fails must leave a Warning event FailedPreStopHook on the pod, with the "
        "hook's output as its message.",
        zh="失败的钩子必须在 Pod 上留下一个 Warning 事件 FailedPreStopHook，消息是钩子的输出。",
    )
    expect_equal(
        (out["took"], out["exit"]),
        (10.0, 137),
        en="A failed hook does not stop the kill: the container still gets its grace period, "
        "then SIGKILL.",
        zh="钩子失败不会中止杀容器的过程：容器仍然得到它的宽限期，然后是 SIGKILL。",
    )
