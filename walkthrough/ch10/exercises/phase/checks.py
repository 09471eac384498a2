"""What ch10/phase checks in your ``get_phase``."""

from __future__ import annotations

from minikubelet import kubelet_pods
from minikubelet.config.manifest import pod_from_dict
from minikubelet.k8s_io.api.core.v1 import (
    ContainerState,
    ContainerStateRunning,
    ContainerStateTerminated,
    ContainerStateWaiting,
    ContainerStatus,
)
from walkthrough.expect import expect_equal


def running(name: str) -> ContainerStatus:
    return ContainerStatus(name=name, state=ContainerState(running=ContainerStateRunning()))


def exited(name: str, code: int) -> ContainerStatus:
    state = ContainerState(terminated=ContainerStateTerminated(exit_code=code))
    return ContainerStatus(name=name, state=state)


def creating(name: str) -> ContainerStatus:
    waiting = ContainerStateWaiting(reason="ContainerCreating")
    return ContainerStatus(name=name, state=ContainerState(waiting=waiting))


def back_off(name: str, code: int = 1) -> ContainerStatus:
    """Waiting to be restarted after a run that ended with ``code`` (CrashLoopBackOff)."""
    return ContainerStatus(
        name=name,
        state=ContainerState(waiting=ContainerStateWaiting(reason="CrashLoopBackOff")),
        last_state=ContainerState(terminated=ContainerStateTerminated(exit_code=code)),
    )


def phase(policy: str, statuses: list[ContainerStatus], init: list[str] | None = None) -> str:
    names = [s.name for s in statuses if s.name not in (init or [])]
    pod = pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "p", "namespace": "default"},
            "spec": {
                "restartPolicy": policy,
                "initContainers": [{"name": n, "image": "busybox:1.33"} for n in init or []],
                "containers": [{"name": n, "image": "busybox:1.33"} for n in names],
            },
        }
    )
    return str(kubelet_pods.get_phase(pod.spec, statuses))


def check_a_crash_looping_container_is_stopped_not_waiting() -> None:
    expect_equal(
        phase("Always", [running("web"), back_off("sidecar")]),
        "Running",
        en="One container running, one in back-off between two runs (CrashLoopBackOff): the pod "
        "is Running. A container waiting after a termination counts as stopped; only a container "
        "that has never run counts as waiting (which would make the pod Pending).",
        zh="一个容器在运行，另一个处于两次运行之间的退避（CrashLoopBackOff）：Pod 是 Running。"
        "终止之后又在等待的容器算作已停止；只有从未运行过的容器才算在等待（那会让 Pod 变成 Pending）。",
    )
    expect_equal(
        phase("Always", [running("web"), creating("sidecar")]),
        "Pending",
        en="A container that has never run yet (ContainerCreating) keeps the pod Pending.",
        zh="还从未运行过的容器（ContainerCreating）会让 Pod 保持 Pending。",
    )


def check_all_stopped_depends_on_the_restart_policy() -> None:
    cases = [
        ("Always", [exited("a", 0), exited("b", 0)], "Running"),
        ("Always", [back_off("a")], "Running"),
        ("OnFailure", [exited("a", 0), exited("b", 0)], "Succeeded"),
        ("OnFailure", [exited("a", 0), exited("b", 2)], "Running"),
        ("Never", [exited("a", 0), exited("b", 0)], "Succeeded"),
        ("Never", [exited("a", 0), exited("b", 2)], "Failed"),
    ]
    got = [(policy, phase(policy, statuses)) for policy, statuses, _ in cases]
    want = [(policy, expected) for policy, _, expected in cases]
    expect_equal(
        got,
        want,
        en="When every container has stopped, the restart policy decides: Always means they "
        "will all run again (Running); otherwise all succeeded means Succeeded, and a failure "
        "means Failed under Never but Running under OnFailure (it will be restarted).",
        zh="所有容器都停止时，由重启策略决定：Always 表示它们都会再次运行（Running）；否则全部成功就是 "
        "Succeeded，有失败的话，在 Never 下是 Failed，在 OnFailure 下是 Running（它会被重启）。",
    )


def check_a_failed_init_container_fails_a_pod_that_never_restarts() -> None:
    statuses = [exited("setup", 1), creating("app")]
    expect_equal(
        [phase(p, statuses, init=["setup"]) for p in ("Never", "OnFailure")],
        ["Failed", "Pending"],
        en="An init container that failed under restartPolicy Never fails the pod at once: its "
        "app containers will never start. Under OnFailure it will be retried, so the pod is "
        "still Pending.",
        zh="在 restartPolicy 为 Never 时失败的 init 容器会让 Pod 立即失败：它的应用容器永远不会启动。"
        "在 OnFailure 下它会被重试，所以 Pod 仍然是 Pending。",
    )
