"""What ch11/grace-period checks in your ``kill_container``."""

from __future__ import annotations

from typing import Any

from minikubelet import go
from minikubelet.config.manifest import pod_from_dict
from minikubelet.container.helpers import convert_pod_status_to_running_pod
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import new_back_off
from minikubelet.sim.container_runtime import new_fake_runtime
from walkthrough.expect import expect_equal
from walkthrough.fixtures import run_go

#: The container needs 60 s to stop after SIGTERM: how long it gets is what kubelet chose.
SLOW = "app: {runFor: forever, stopTime: 60s}"


def make_pod(grace: int | None = 10, deletion: int | None = None) -> Pod:
    metadata: dict[str, Any] = {
        "name": "web",
        "namespace": "default",
        "uid": "uid-web",
        "annotations": {"minikubelet.dev/scenario": SLOW},
    }
    if deletion is not None:
        metadata["deletionTimestamp"] = "2021-07-15T00:00:00Z"
        metadata["deletionGracePeriodSeconds"] = deletion
    pod = pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": metadata,
            "spec": {"containers": [{"name": "app", "image": "nginx:1.21"}]},
        }
    )
    pod.spec.termination_grace_period_seconds = grace
    return pod


def stop(pod: Pod, override: int | None = None) -> tuple[float, int]:
    """Start the pod's container on a fresh fake runtime, kill the pod; return how long the
    kill took and the container's exit code."""
    out: dict[str, Any] = {}

    async def main() -> None:
        m = new_fake_runtime().manager
        uid, name, ns = pod.metadata.uid, pod.metadata.name, pod.metadata.namespace
        await m.sync_pod(pod, await m.get_pod_status(uid, name, ns), [], new_back_off(10, 300))
        running = convert_pod_status_to_running_pod("fake", await m.get_pod_status(uid, name, ns))
        start = go.now()
        await m.kill_pod(pod, running, override)
        out["took"] = round(go.now() - start, 3)
        status = await m.get_pod_status(uid, name, ns)
        out["exit"] = status.container_statuses[0].exit_code

    run_go(main)
    return out["took"], out["exit"]


def check_a_pod_gets_its_termination_grace_period() -> None:
    expect_equal(
        stop(make_pod(grace=10)),
        (10.0, 137),
        en="A pod that is not being deleted gives its containers its terminationGracePeriodSeconds "
        "(here 10 s) to stop; this container needs longer, so the runtime kills it after 10 s "
        "(exit code 137).",
        zh="没有在删除的 Pod 给容器的停止时间是它的 terminationGracePeriodSeconds（这里是 10 秒）；"
        "这个容器需要更久，所以运行时在 10 秒后杀掉它（退出码 137）。",
    )


def check_a_deletion_brings_its_own_grace_period() -> None:
    expect_equal(
        stop(make_pod(grace=10, deletion=4)),
        (4.0, 137),
        en="A pod being deleted with deletionGracePeriodSeconds 4 gets 4 s, not its spec's 10 s: "
        "the deletion's grace period comes first (kubectl delete --grace-period sets it).",
        zh="以 deletionGracePeriodSeconds 为 4 删除的 Pod 只有 4 秒，而不是 spec 里的 10 秒："
        "删除的宽限期优先（kubectl delete --grace-period 设置的就是它）。",
    )


def check_no_container_gets_less_than_the_minimum() -> None:
    expect_equal(
        stop(make_pod(grace=10, deletion=0)),
        (2.0, 137),
        en="A deletion grace period of 0 still leaves the container the minimum of 2 s between "
        "SIGTERM and SIGKILL.",
        zh="删除宽限期为 0 时，容器在 SIGTERM 和 SIGKILL 之间仍然有最少 2 秒。",
    )
    expect_equal(
        stop(make_pod(grace=None)),
        (2.0, 137),
        en="A pod with no grace period anywhere gets the minimum, 2 s.",
        zh="哪里都没有宽限期的 Pod 得到最小值 2 秒。",
    )


def check_the_minimum_is_a_floor_not_a_ceiling() -> None:
    expect_equal(
        stop(make_pod(grace=30)),
        (30.0, 137),
        en="A pod that allows 30 s gets 30 s: the minimum only raises grace periods that are "
        "shorter than it.",
        zh="允许 30 秒的 Pod 就得到 30 秒：最小值只会抬高比它更短的宽限期。",
    )


def check_an_override_wins_even_below_the_minimum() -> None:
    expect_equal(
        stop(make_pod(grace=10), override=1),
        (1.0, 137),
        en="When kubelet kills with an override (1 s here, as an eviction may), the override "
        "wins over the spec and over the 2 s minimum.",
        zh="kubelet 带着覆盖值杀容器时（这里是 1 秒，驱逐时可能这样），覆盖值胜过 spec，也胜过 2 秒的最小值。",
    )
