"""What ch07/running-container checks in your ``compute_pod_actions``: running containers."""

from __future__ import annotations

from minikubelet.k8s_io.api.core import v1
from walkthrough.ch07.plans import actions, changed, exited, plan, pod, running
from walkthrough.expect import expect_equal


def two(policy: str = v1.RestartPolicyAlways) -> v1.Pod:
    """A pod with the containers app and sidecar."""
    return pod(["app", "sidecar"], restart_policy=policy)


def check_a_running_container_that_is_fine_is_kept() -> None:
    p = two()
    got = plan(p, [running(p, "app"), running(p, "sidecar")])
    expect_equal(
        got,
        "nothing to do",
        en="app and sidecar both run, from the current spec, and no probe failed: both are kept "
        "and there is nothing to do. Plan:",
        zh="app 和 sidecar 都在运行，用的都是当前的 spec，也没有探针失败：两个都保留，无事可做。计划：",
    )


def check_a_container_whose_spec_changed_is_replaced_even_under_never() -> None:
    p = two(v1.RestartPolicyNever)
    got = plan(p, [changed(running(p, "app")), running(p, "sidecar")])
    expect_equal(
        got,
        "kill app; start app",
        en="app runs, but it was created from another version of its spec. It is killed and "
        "started again from the current spec, even under restartPolicy Never: the restart "
        "policy is about containers that exit, not about a spec that changed. Plan:",
        zh="app 在运行，但它是用另一个版本的 spec 创建的。它会被杀掉，并用当前的 spec 重新启动，即使 "
        "restartPolicy 是 Never：重启策略管的是退出的容器，而不是变了的 spec。计划：",
    )


def check_a_liveness_failure_restarts_the_container_unless_never() -> None:
    got = []
    for policy in (v1.RestartPolicyAlways, v1.RestartPolicyOnFailure, v1.RestartPolicyNever):
        p = two(policy)
        got.append(plan(p, [running(p, "app"), running(p, "sidecar")], liveness_failed=("app",)))
    expect_equal(
        got,
        ["kill app; start app", "kill app; start app", "kill app"],
        en="app runs but failed its liveness probe (sidecar is fine). It is killed. It is started "
        "again under Always and OnFailure (it did not exit, so there is no exit code to spare "
        "it), and not under Never. Plans for Always, OnFailure and Never:",
        zh="app 在运行，但存活探针失败了（sidecar 正常）。它会被杀掉。在 Always 和 OnFailure 下它会被重新"
        "启动（它并没有退出，也就没有退出码可以让它免于重启），在 Never 下则不会。Always、OnFailure 和 "
        "Never 下的计划：",
    )


def check_a_startup_failure_restarts_the_container_too() -> None:
    p = two()
    got = plan(p, [running(p, "app"), running(p, "sidecar")], startup_failed=("app",))
    expect_equal(
        got,
        "kill app; start app",
        en="app runs but failed its startup probe: like a liveness failure, it is killed and, "
        "under Always, started again. Plan:",
        zh="app 在运行，但启动探针失败了：和存活探针失败一样，它会被杀掉，在 Always 下再重新启动。计划：",
    )


def check_the_killing_event_says_why() -> None:
    p = two()
    got: list[str] = []
    for kwargs, statuses in (
        ({}, [changed(running(p, "app")), running(p, "sidecar")]),
        ({"liveness_failed": ("app",)}, [running(p, "app"), running(p, "sidecar")]),
        ({"startup_failed": ("app",)}, [running(p, "app"), running(p, "sidecar")]),
    ):
        a = actions(p, statuses, **kwargs)
        got.extend(info.message for info in a.containers_to_kill.values())
    expect_equal(
        got,
        [
            "Container app definition changed, will be restarted",
            "Container app failed liveness probe, will be restarted",
            "Container app failed startup probe, will be restarted",
        ],
        en="The message of each kill is what `kubectl describe pod` shows in the Killing event: "
        "it must say why (spec changed, liveness probe, startup probe). Messages for the three "
        "cases:",
        zh="每次 kill 的消息，就是 `kubectl describe pod` 在 Killing 事件里显示的内容：它必须说明原因（spec "
        "变了、存活探针、启动探针）。三种情况下的消息：",
    )


def check_a_pod_with_nothing_left_to_run_is_killed() -> None:
    p = two(v1.RestartPolicyOnFailure)
    done = plan(p, [exited(p, "app", 0), exited(p, "sidecar", 0)])
    half = plan(p, [running(p, "app"), exited(p, "sidecar", 0)])
    expect_equal(
        [done, half],
        ["kill the pod", "nothing to do"],
        en="restartPolicy OnFailure. When both containers have succeeded, nothing is kept and "
        "nothing is to start: the pod is killed (its sandbox stopped). When app still runs and "
        "only sidecar has succeeded, app is kept and the pod stays. Plans for the two cases:",
        zh="restartPolicy 为 OnFailure。两个容器都成功退出时，一个都没保留、也没有要启动的：整个 Pod 被杀掉"
        "（沙箱被停掉）。app 还在运行、只有 sidecar 成功退出时，app 被保留，Pod 继续存在。两种情况下的计划：",
    )
