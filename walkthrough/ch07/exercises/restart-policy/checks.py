"""What ch07/restart-policy checks in your ``should_container_be_restarted``, through the plans
``compute_pod_actions`` makes with it."""

from __future__ import annotations

from minikubelet.k8s_io.api.core import v1
from walkthrough.ch07.plans import exited, plan, pod
from walkthrough.expect import expect_equal


def after_exit(policy: str, exit_code: int, *, deleted: bool = False) -> str:
    """The plan for a pod whose one container "app" exited with ``exit_code``."""
    p = pod(["app"], restart_policy=policy, deleted=deleted)
    return plan(p, [exited(p, "app", exit_code)])


def check_always_restarts_a_container_whatever_its_exit_code() -> None:
    got = [after_exit(v1.RestartPolicyAlways, code) for code in (0, 1)]
    expect_equal(
        got,
        ["start app", "start app"],
        en="restartPolicy Always: a container that exited is started again, whether it "
        "succeeded (exit code 0) or failed (exit code 1). Plans for those two cases:",
        zh="restartPolicy 为 Always：退出的容器总会被再次启动，无论它是成功（退出码 0）还是失败（退出码 1）。"
        "这两种情况下的计划：",
    )


def check_on_failure_restarts_only_a_container_that_failed() -> None:
    got = [after_exit(v1.RestartPolicyOnFailure, code) for code in (1, 0)]
    expect_equal(
        got,
        ["start app", "kill the pod"],
        en="restartPolicy OnFailure: a container that failed (exit code 1) is started again; one "
        "that succeeded (exit code 0) is done, and with nothing left to run the pod is killed "
        "(its sandbox stopped). Plans for exit codes 1 and 0:",
        zh="restartPolicy 为 OnFailure：失败的容器（退出码 1）会被再次启动；成功的容器（退出码 0）已经完成，"
        "没有别的要运行了，Pod 就会被杀掉（停掉它的沙箱）。退出码为 1 和 0 时的计划：",
    )


def check_never_restarts_nothing() -> None:
    got = [after_exit(v1.RestartPolicyNever, code) for code in (1, 0)]
    expect_equal(
        got,
        ["kill the pod", "kill the pod"],
        en="restartPolicy Never: a container that ran is never started again, failed or not; "
        "the pod is done and its sandbox is stopped. Plans for exit codes 1 and 0:",
        zh="restartPolicy 为 Never：运行过的容器不会再启动，无论成败；Pod 已经结束，它的沙箱被停掉。"
        "退出码为 1 和 0 时的计划：",
    )


def check_a_pod_being_deleted_restarts_nothing() -> None:
    got = after_exit(v1.RestartPolicyAlways, 1, deleted=True)
    expect_equal(
        got,
        "kill the pod",
        en="The pod is being deleted (it has a deletion timestamp) and its container has exited. "
        "Even under restartPolicy Always it must not be started again: the pod is on its way "
        "out. Plan:",
        zh="Pod 正在被删除（带有删除时间戳），它的容器已经退出。即使 restartPolicy 是 Always，也不能再启动它："
        "这个 Pod 正在退场。计划：",
    )
