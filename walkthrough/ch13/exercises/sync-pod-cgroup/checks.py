"""What ch13/sync-pod-cgroup checks in your ``sync_pod``: the pod cgroup made before the runtime."""

from __future__ import annotations

from typing import Any

from minikubelet import go
from walkthrough.ch13.cgroups import Change, Tree, run_cgroups
from walkthrough.expect import expect_equal

PODS = {"web": "/kubepods/burstable/podweb-13", "job": "/kubepods/burstable/podjob-13"}


def first_minute() -> Tree:
    """web and job start; the run stops before the QoS cgroups' update of every minute."""
    return run_cgroups("sync", until=59.5)


def cgroups_removed_at_5s() -> Tree:
    """web and job start; at 5 s their cgroups disappear, as if kubelet had been restarted with
    --cgroups-per-qos after they started; the run goes on past their next syncs."""

    def setup(kl: Any) -> None:
        fs = kl.container_manager.subsystems

        async def remove() -> None:
            await go.sleep(5)
            for path in PODS.values():
                fs.remove(path)

        go.go(remove, name="the node before --cgroups-per-qos")

    return run_cgroups("sync", until=80.0, setup=setup)


def index(changes: list[Change], op: str, path: str, after: float = -1.0) -> int | None:
    return next(
        (i for i, c in enumerate(changes) if c.op == op and c.path == path and c.at > after),
        None,
    )


def check_a_new_pod_gets_its_cgroup_before_the_runtime() -> None:
    tree = first_minute()
    order = {}
    for name, path in PODS.items():
        made, runtime = index(tree.changes, "mkdir", path), index(tree.changes, "runtime", name)
        order[name] = (
            "never made"
            if made is None
            else "made before the runtime"
            if runtime is None or made < runtime
            else "made after the runtime"
        )
    expect_equal(
        order,
        {"web": "made before the runtime", "job": "made before the runtime"},
        en="web and job are new pods. syncPod must make each one's cgroup before it hands the pod "
        "to the runtime: the runtime puts the sandbox and the containers into that cgroup "
        "(its path is the sandbox's cgroup parent), and a container started elsewhere escapes "
        "the pod's limits. (Each pod: when its cgroup was made.)",
        zh="web 和 job 是新 Pod。syncPod 必须在把 Pod 交给运行时之前创建它的 cgroup：运行时把沙箱和容器放进这个 cgroup"
        "（它的路径就是沙箱的 cgroup 父路径），在别处启动的容器就逃出了 Pod 的限制。（每个 Pod：它的 cgroup 何时创建。）",
    )


def check_the_burstable_weight_grows_before_a_pod_cgroup_is_made() -> None:
    tree = first_minute()
    weights = {}
    for name, path in PODS.items():
        made = index(tree.changes, "mkdir", path)
        before = tree.changes[:made] if made is not None else []
        written = [
            c.files["cpu.shares"]
            for c in before
            if c.op == "write" and c.path == "/kubepods/burstable" and "cpu.shares" in c.files
        ]
        weights[name] = written[-1] if written else None
    expect_equal(
        weights,
        {"web": 358, "job": 358},
        en="Before a pod's cgroup is made, kubelet updates the QoS cgroups: the CPU weight of "
        "kubepods/burstable is the sum of the CPU requests of the Burstable pods it has (web "
        "250m + job 100m = 358 shares), so that the new pod's share is there when its containers "
        "start. (Each pod: the weight of kubepods/burstable just before its cgroup was made.)",
        zh="创建 Pod 的 cgroup 之前，kubelet 先更新 QoS cgroup：kubepods/burstable 的 CPU 权重是它所有 Burstable Pod 的 "
        "CPU 请求之和（web 250m + job 100m = 358 份），这样新 Pod 的容器启动时，它的份额已经在了。"
        "（每个 Pod：它的 cgroup 创建之前，kubepods/burstable 的权重。）",
    )


def check_the_qos_cgroups_are_updated_only_for_a_new_pod_cgroup() -> None:
    tree = first_minute()
    later = [
        c.at
        for c in tree.changes
        if c.op == "write" and c.path == "/kubepods/burstable" and 0.2 < c.at < 59.5
    ]
    expect_equal(
        later,
        [],
        en="web and job are synced again after their containers start (at 1 s and 2 s), but "
        "their cgroups exist by then: syncPod has nothing to make, and the QoS cgroups are not "
        "written again (they are also written once a minute, at 60 s, and when a pod is "
        "killed). (When kubepods/burstable was written after 200 ms.)",
        zh="web 和 job 的容器启动后（1 秒和 2 秒）它们又被同步了，但那时它们的 cgroup 已经存在：syncPod 没有什么要创建的，"
        "QoS cgroup 也不会再写一次（它们另外每分钟写一次，在 60 秒，以及有 Pod 被杀掉时）。"
        "（200 毫秒之后 kubepods/burstable 被写入的时间。）",
    )


def check_a_pod_running_outside_its_cgroup_is_restarted_inside_it() -> None:
    tree = cgroups_removed_at_5s()
    assert tree.run is not None
    stopped = {name for _, name, _ in tree.run.stops}
    restarted = {pod for t, pod, _ in tree.run.starts if t > 5}
    remade = {
        name for name, path in PODS.items() if index(tree.changes, "mkdir", path, 5) is not None
    }
    expect_equal(
        {
            "killed": sorted({"web": "nginx" in stopped, "job": "report" in stopped}.items()),
            "started again": sorted(restarted),
            "cgroup made again": sorted(remade),
        },
        {
            "killed": [("job", True), ("web", True)],
            "started again": ["web"],
            "cgroup made again": ["web"],
        },
        en="At 5 s the cgroups of web and job disappear, while their containers run: as on a "
        "node where kubelet was restarted with --cgroups-per-qos. At each pod's next sync, a pod "
        "that has run before and has no cgroup is killed, so that it starts again inside one. "
        "web (restartPolicy Always) gets a new cgroup and its container starts again; job "
        "(restartPolicy Never) must not run again, so it gets no cgroup either.",
        zh="5 秒时，web 和 job 的 cgroup 消失了，而它们的容器还在运行：就像一个 kubelet 带着 --cgroups-per-qos 重启过的"
        "节点。每个 Pod 下一次同步时，一个已经运行过却没有 cgroup 的 Pod 会被杀掉，好在 cgroup 里重新启动。web"
        "（restartPolicy Always）得到一个新的 cgroup，容器重新启动；job（restartPolicy Never）不能再运行，所以也不会"
        "得到 cgroup。",
    )
