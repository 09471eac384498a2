"""What ch06/kill-if-not-running checks in your ``sync_pod``: deleted, failed, not runnable."""

from __future__ import annotations

from minikubelet.kubelet import Kubelet
from minikubelet.lifecycle.interfaces import PodAdmitAttributes, PodAdmitResult
from walkthrough.ch06.syncs import run_syncs
from walkthrough.expect import expect, expect_equal

POD = """
    apiVersion: v1
    kind: Pod
    metadata:
      name: {name}
      uid: 7a4e0c2d-0000-4000-8000-00000000{uid}
      {extra_metadata}
      annotations:
        minikubelet.dev/scenario: "app: {{runFor: forever, stopTime: 2s}}"
    spec:
      {extra_spec}
      terminationGracePeriodSeconds: 30
      containers: [{{name: app, image: "registry.example/shop/app:1.0"}}]
"""


def event(
    at: str, kind: str, name: str, uid: str, extra_metadata: str = "", extra_spec: str = ""
) -> str:
    body = POD.format(name=name, uid=uid, extra_metadata=extra_metadata, extra_spec=extra_spec)
    return f"- at: {at}\n  type: {kind}\n  object:\n" + body


class NoAppArmor:
    """A soft admit handler that refuses the pod named "guarded", as AppArmor's does when the
    profile a pod asks for is not loaded on the node."""

    async def admit(self, attrs: PodAdmitAttributes) -> PodAdmitResult:
        if attrs.pod.metadata.name != "guarded":
            return PodAdmitResult(admit=True)
        return PodAdmitResult(
            admit=False,
            reason="AppArmor",
            message='Cannot enforce AppArmor: profile "k8s-web" is not loaded',
        )


def check_a_pod_being_deleted_is_stopped() -> None:
    script = event("0s", "ADDED", "web", "0001") + event(
        "5s",
        "MODIFIED",
        "web",
        "0001",
        extra_metadata='deletionTimestamp: "2021-07-15T00:00:35Z"\n      deletionGracePeriodSeconds: 30',
    )
    run = run_syncs(script, until=20.0)
    # Once the container has exited, the status manager deletes the pod from the API server and
    # the pod killer stops what the runtime cache still lists: only the first stop is the sync's.
    expect_equal(
        [(t, name, grace) for t, name, grace in run.stops][:1],
        [(5.0, "app", 30)],
        en="web is deleted gracefully at 5 s (a deletion timestamp and 30 s of grace). Its sync "
        "must stop its container then, with the pod's grace period, and not start it again. "
        "Containers stopped (time, name, grace period):",
        zh="web 在 5 秒时被优雅删除（带有删除时间戳和 30 秒的宽限期）。它的同步必须在那时以 Pod 的宽限期停掉"
        "它的容器，并且不再启动它。被停掉的容器（时间、名字、宽限期）：",
    )
    expect(
        all(s.error is None for s in run.of("web")) and len(run.starts) == 1,
        en="Stopping a deleted pod is what its syncs are for now: they end without an error, and "
        f"start nothing. Syncs with an error: {[s.error for s in run.of('web') if s.error]}; "
        f"containers started: {len(run.starts)}.",
        zh="停掉被删除的 Pod，正是它现在的同步该做的事：这些同步不返回错误，也不启动任何东西。出错的同步："
        f"{[s.error for s in run.of('web') if s.error]}；启动的容器：{len(run.starts)} 个。",
    )


def check_a_failed_pod_is_stopped() -> None:
    script = event(
        "0s",
        "ADDED",
        "batch",
        "0002",
        extra_spec="activeDeadlineSeconds: 10\n      restartPolicy: Never",
    )
    run = run_syncs(script, until=20.0)
    failed_at = [t for t, name, phase, _ in run.statuses if phase == "Failed"][:1]
    expect(
        bool(failed_at) and [t for t, _, _ in run.stops][:1] == failed_at,
        en="batch runs past its activeDeadlineSeconds (10 s): its status says Failed "
        "(DeadlineExceeded), and the same sync must stop its container. Failed at: "
        f"{failed_at or 'never'}; containers stopped at: {[t for t, _, _ in run.stops] or 'never'}.",
        zh="batch 运行超过了它的 activeDeadlineSeconds（10 秒）：它的状态变为 Failed（DeadlineExceeded），"
        f"同一次同步必须停掉它的容器。变为 Failed 的时间：{failed_at or '从未'}；容器被停掉的时间："
        f"{[t for t, _, _ in run.stops] or '从未'}。",
    )


def check_a_pod_that_may_not_run_is_not_started_and_its_sync_fails() -> None:
    def setup(kl: Kubelet) -> None:
        kl.soft_admit_handlers.append(NoAppArmor())

    run = run_syncs(event("0s", "ADDED", "guarded", "0003"), until=30.0, setup=setup)
    syncs = run.of("guarded")
    errors = sorted({s.error or "" for s in syncs})
    expect_equal(
        (len(run.starts), errors),
        (0, ['pod cannot be run: Cannot enforce AppArmor: profile "k8s-web" is not loaded']),
        en="A soft admit handler refuses guarded: it may not run on this node (its AppArmor "
        "profile is not loaded). It must not be started, and each of its syncs must fail with "
        '"pod cannot be run: " and the handler\'s message, so that its worker backs off and '
        "asks again. Containers started, and the errors of its syncs:",
        zh="一个软准入处理器拒绝了 guarded：它不能在这个节点上运行（它的 AppArmor 配置文件没有加载）。它不能被启动，"
        '而且它的每次同步都必须以 "pod cannot be run: " 加上处理器的消息失败，让它的 worker 退避之后再来问。'
        "启动的容器数，以及它的同步的错误：",
    )
