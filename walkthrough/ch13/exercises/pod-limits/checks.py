"""What ch13/pod-limits checks in your ``resource_config_for_pod``: what a pod's cgroup is capped at."""

from __future__ import annotations

from functools import cache

from walkthrough.ch13.cgroups import SHOWN, Tree, run_cgroups
from walkthrough.expect import expect_equal


@cache
def pods() -> Tree:
    """A pod of each way to cap a pod cgroup (scripts/limits.yaml)."""
    return run_cgroups("limits", until=2.0)


def settings(name: str) -> dict[str, int | str] | None:
    """What kubelet wrote into the cgroup of pod ``name`` (the CPU and memory files), or None
    when it made no cgroup for it."""
    tree = pods()
    path = tree.pod_cgroup(f"{name}-13")
    if path is None:
        return None
    return {k: v for k, v in tree.written(path).items() if k in SHOWN}


def check_a_guaranteed_pod_is_capped_at_its_limits() -> None:
    expect_equal(
        settings("gold"),
        {
            "cpu.shares": 512,
            "cpu.cfs_quota_us": 50000,
            "cpu.cfs_period_us": 100000,
            "memory.limit_in_bytes": 256 << 20,
        },
        en="gold is Guaranteed (500m CPU and 256Mi, requested and limited). Its cgroup gets a CPU "
        "weight from its request (512 shares), a CFS quota from its CPU limit (50 ms of every "
        "100 ms period: both files are needed for the cap to mean anything) and its memory "
        "limit, so that the pod, all containers together, can never use more than it declared.",
        zh="gold 是 Guaranteed（请求并限制了 500m CPU 和 256Mi 内存）。它的 cgroup 从请求得到 CPU 权重（512 份），"
        "从 CPU 限制得到 CFS 配额（每 100 毫秒的周期里 50 毫秒：两个文件都要写，上限才有意义），还有内存上限，"
        "这样整个 Pod 的所有容器加起来，永远用不到比它声明的更多。",
    )


def check_a_best_effort_pod_gets_the_least_weight_and_no_cap() -> None:
    expect_equal(
        settings("best"),
        {"cpu.shares": 2},
        en="best is BestEffort: it asked for nothing, so its cgroup gets the least CPU weight "
        "there is (2 shares) and no cap at all. The cap of BestEffort pods as a whole is the "
        "node's: they share what the others leave.",
        zh="best 是 BestEffort：它什么都没有请求，所以它的 cgroup 只得到最小的 CPU 权重（2 份），没有任何上限。"
        "BestEffort Pod 整体的上限是节点本身：它们分享其他 Pod 剩下的资源。",
    )


def check_a_burstable_pod_is_capped_only_where_every_container_is() -> None:
    expect_equal(
        {"memcap": settings("memcap"), "cpucap": settings("cpucap")},
        {
            "memcap": {"cpu.shares": 358, "memory.limit_in_bytes": 192 << 20},
            "cpucap": {"cpu.shares": 204, "cpu.cfs_quota_us": 50000, "cpu.cfs_period_us": 100000},
        },
        en="Both pods are Burstable: their cgroups get the CPU weight of their requests, and a cap "
        "only for a resource that every container limits (a container without a limit may use "
        "the whole node, so the pod's sum of limits means nothing). memcap's containers all "
        "limit their memory (128Mi + 64Mi), but its api container does not limit its CPU; "
        "cpucap's containers all limit their CPU (200m + 300m), but its worker container does "
        "not limit its memory.",
        zh="两个 Pod 都是 Burstable：它们的 cgroup 得到与请求相应的 CPU 权重，只有当每个容器都限制了某种资源时，"
        "才为这种资源设上限（没有限制的容器可以用满整个节点，Pod 的限制总和也就没有意义）。memcap 的容器都限制了内存"
        "（128Mi + 64Mi），但它的 api 容器没有限制 CPU；cpucap 的容器都限制了 CPU（200m + 300m），但它的 worker "
        "容器没有限制内存。",
    )
