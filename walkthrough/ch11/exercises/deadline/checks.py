"""What ch11/deadline checks in your ``past_active_deadline``."""

from __future__ import annotations

from typing import Any

from minikubelet.active_deadline import ActiveDeadlineHandler
from minikubelet.config.manifest import pod_from_dict
from minikubelet.go import VirtualClock
from minikubelet.k8s_io.api.core.v1 import Pod, PodStatus
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from walkthrough.expect import expect_equal

#: An arbitrary start: seconds since the epoch.
T0 = 1_626_307_200.0


class _StatusManager:
    """What the status manager would say: the status it holds for each pod UID."""

    def __init__(self, statuses: dict[str, PodStatus]) -> None:
        self.statuses = statuses

    def get_pod_status(self, uid: str) -> tuple[PodStatus, bool]:
        status = self.statuses.get(uid)
        return (status, True) if status is not None else (PodStatus(), False)


def make_pod(deadline: int | None = 15, own_start: float | None = None) -> Pod:
    spec: dict[str, Any] = {"containers": [{"name": "main", "image": "busybox:1.33"}]}
    if deadline is not None:
        spec["activeDeadlineSeconds"] = deadline
    pod = pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "report", "namespace": "jobs", "uid": "uid-report"},
            "spec": spec,
        }
    )
    pod.status = PodStatus(start_time=own_start)
    return pod


def past(pod: Pod, *, at: float, manager_start: float | None = None, known: bool = True) -> bool:
    statuses = {pod.metadata.uid: PodStatus(start_time=manager_start)} if known else {}
    # A virtual clock stands still at its epoch: ``at`` seconds after T0.
    handler = ActiveDeadlineHandler(_StatusManager(statuses), Recorder(), VirtualClock(T0 + at))
    return handler.past_active_deadline(pod)


def check_the_deadline_counts_from_the_start_time() -> None:
    pod = make_pod(deadline=15)
    got = [past(pod, at=t, manager_start=T0 + 1) for t in (10.0, 15.9, 16.0, 30.0)]
    expect_equal(
        got,
        [False, False, True, True],
        en="A pod started at 1 s with activeDeadlineSeconds 15 is past its deadline from 16 s "
        "on (it has then been active 15 s, which counts), not before.",
        zh="一个在 1 秒时开始、activeDeadlineSeconds 为 15 的 Pod，从 16 秒起就超过了期限"
        "（那时它已经活跃了 15 秒，这就算），在那之前没有。",
    )


def check_a_pod_without_a_start_time_is_not_past() -> None:
    pod = make_pod(deadline=15, own_start=None)
    expect_equal(
        past(pod, at=1000.0, manager_start=None),
        False,
        en="A pod with no start time yet (kubelet has not stored a status for it) is never past "
        "its deadline, however late it is.",
        zh="还没有开始时间的 Pod（kubelet 还没为它保存过状态），不管多晚都不算超过期限。",
    )


def check_the_status_manager_is_read_first() -> None:
    pod = make_pod(deadline=15, own_start=None)
    expect_equal(
        past(pod, at=20.0, manager_start=T0),
        True,
        en="The start time is in the status manager's status (kubelet's own, newer than the one "
        "the pod came with): at 20 s, a pod the status manager started at 0 s is past 15 s.",
        zh="开始时间在状态管理器的状态里（那是 kubelet 自己的，比 Pod 自带的更新）："
        "在 20 秒时，状态管理器记录为 0 秒开始的 Pod 已经超过了 15 秒。",
    )
    pod = make_pod(deadline=15, own_start=T0)
    expect_equal(
        past(pod, at=20.0, known=False),
        True,
        en="When the status manager has no status for the pod, the pod's own status is used.",
        zh="状态管理器里没有这个 Pod 的状态时，就用 Pod 自带的状态。",
    )


def check_no_deadline_never_passes() -> None:
    expect_equal(
        past(make_pod(deadline=None), at=1e6, manager_start=T0),
        False,
        en="A pod without activeDeadlineSeconds is never past a deadline.",
        zh="没有 activeDeadlineSeconds 的 Pod 永远不会超过期限。",
    )
