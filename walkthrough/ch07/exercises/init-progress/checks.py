"""What ch07/init-progress checks in your ``compute_pod_actions``: the plan while init runs."""

from __future__ import annotations

from minikubelet.k8s_io.api.core import v1
from walkthrough.ch07.plans import exited, plan, pod, running, unknown
from walkthrough.expect import expect_equal


def with_inits(policy: str = v1.RestartPolicyAlways) -> v1.Pod:
    """A pod with init containers init1 and init2, and the app container app."""
    return pod(["app"], ["init1", "init2"], restart_policy=policy)


def check_while_an_init_container_runs_nothing_else_starts() -> None:
    p = with_inits()
    got = plan(p, [running(p, "init1")])
    expect_equal(
        got,
        "nothing to do",
        en="init1 is running. Nothing else may start until it has succeeded: not init2, and "
        "certainly not the app container. Plan:",
        zh="init1 正在运行。在它成功之前，别的什么都不能启动：init2 不行，应用容器更不行。计划：",
    )


def check_when_an_init_container_succeeded_the_next_one_starts() -> None:
    p = with_inits()
    got = plan(p, [exited(p, "init1", 0)])
    expect_equal(
        got,
        "start init container init2",
        en="init1 exited with code 0. The next init container starts now, alone: the app "
        "container still waits for init2. Plan:",
        zh="init1 以退出码 0 退出。现在启动下一个 init 容器，只启动它一个：应用容器还要等 init2。计划：",
    )


def check_a_failed_init_container_runs_again_under_always_and_on_failure() -> None:
    got = []
    for policy in (v1.RestartPolicyAlways, v1.RestartPolicyOnFailure):
        p = with_inits(policy)
        got.append(plan(p, [exited(p, "init1", 1)]))
    expect_equal(
        got,
        ["start init container init1", "start init container init1"],
        en="init1 failed (exit code 1). Under restartPolicy Always and OnFailure it is run again, "
        "and the pod waits for it. Plans for Always and OnFailure:",
        zh="init1 失败了（退出码 1）。在 restartPolicy 为 Always 和 OnFailure 时，它会再运行一次，Pod 等着它。"
        "Always 和 OnFailure 下的计划：",
    )


def check_a_failed_init_container_under_never_kills_the_pod() -> None:
    p = with_inits(v1.RestartPolicyNever)
    got = plan(p, [exited(p, "init1", 1)])
    expect_equal(
        got,
        "kill the pod",
        en="init1 failed, and the pod's restartPolicy is Never: it cannot be run again, so the pod "
        "can never be initialized. The pod is killed (it will be Failed). Plan:",
        zh="init1 失败了，而 Pod 的 restartPolicy 是 Never：它不能再运行，这个 Pod 也就永远无法完成初始化。"
        "于是整个 Pod 被杀掉（它的阶段会是 Failed）。计划：",
    )


def check_an_init_container_in_an_unknown_state_is_stopped_before_it_runs_again() -> None:
    p = with_inits()
    got = plan(p, [unknown(p, "init1")])
    expect_equal(
        got,
        "kill init1; start init container init1",
        en="The runtime cannot tell whether init1 is running (its state is unknown). Before it is "
        "run again, its old copy is stopped, so that two copies never run at once. Plan:",
        zh="运行时说不清 init1 是否在运行（它的状态未知）。再次运行它之前，要先停掉旧的那份，这样就不会"
        "同时有两份在运行。计划：",
    )
