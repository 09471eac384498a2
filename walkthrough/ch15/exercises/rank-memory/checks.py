"""What ch15/rank-memory checks in your ``rank_memory_pressure`` and ``memory``.

The pods and expected orders are those of kubelet's TestOrderedByMemory,
TestOrderedByPriorityMemory and TestMemoryPressure (pkg/kubelet/eviction), restated.
"""

from __future__ import annotations

from minikubelet.eviction import helpers
from minikubelet.k8s_io.api.core.v1 import Container, Pod, PodSpec, ResourceRequirements
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1 import MemoryStats, PodReference, PodStats
from walkthrough.expect import expect_equal

LOW, HIGH = -1, 1


def pod(name: str, priority: int, request: str = "", limit: str = "") -> Pod:
    requests = {"memory": Quantity.parse(request)} if request else {}
    limits = {"memory": Quantity.parse(limit)} if limit else {}
    return Pod(
        metadata=ObjectMeta(name=name, namespace="default", uid=name),
        spec=PodSpec(
            priority=priority,
            containers=[
                Container(
                    name=name,
                    image="busybox",
                    resources=ResourceRequirements(requests=requests, limits=limits),
                )
            ],
        ),
    )


def rank(table: list[tuple[str, int, str, str]], order: list[str]) -> list[str]:
    """Rank the pods of ``table`` (name, priority, request, working set), given in ``order``."""
    pods = {name: pod(name, prio, req) for name, prio, req, _ in table}
    usage = {name: Quantity.parse(ws).value() for name, _, _, ws in table}

    def stats(p: Pod) -> tuple[PodStats | None, bool]:
        name = p.metadata.name
        ref = PodReference(name=name, namespace="default", uid=name)
        return PodStats(pod_ref=ref, memory=MemoryStats(working_set_bytes=usage[name])), True

    ranked = [pods[n] for n in order]
    helpers.rank_memory_pressure(ranked, stats)
    return [p.metadata.name for p in ranked]


def check_the_largest_use_beyond_its_request_goes_first() -> None:
    table = [
        ("burstable-high", 0, "100Mi", "800Mi"),  # 700Mi above its request
        ("best-effort-high", 0, "", "500Mi"),  # 500Mi above
        ("best-effort-low", 0, "", "300Mi"),  # 300Mi above
        ("burstable-low", 0, "100Mi", "300Mi"),  # 200Mi above
    ]
    expect_equal(
        rank(table, ["best-effort-low", "burstable-low", "best-effort-high", "burstable-high"]),
        [name for name, *_ in table],
        en="Four pods above their requests, all of the same priority: the one using the most "
        "memory beyond its request is evicted first (a Burstable pod 700Mi above its request goes "
        "before a BestEffort pod using 500Mi).",
        zh="四个 Pod 都超出了请求量，优先级也相同：超出请求量最多的先被驱逐（超出请求 700Mi 的 Burstable Pod 排在用了 500Mi 的 BestEffort Pod 之前）。",
    )


PRIORITY_MEMORY = [
    ("above-requests-low-priority-high-usage", LOW, "", "500Mi"),
    ("above-requests-low-priority-low-usage", LOW, "", "50Mi"),
    ("above-requests-high-priority-high-usage", HIGH, "100Mi", "600Mi"),
    ("above-requests-high-priority-low-usage", HIGH, "100Mi", "150Mi"),
    ("below-requests-low-priority-high-usage", LOW, "1Gi", "800Mi"),
    ("below-requests-low-priority-low-usage", LOW, "1Gi", "200Mi"),
    ("below-requests-high-priority-high-usage", HIGH, "1Gi", "800Mi"),
    ("below-requests-high-priority-low-usage", HIGH, "1Gi", "200Mi"),
]


def check_above_request_then_priority_then_usage() -> None:
    expected = [name for name, *_ in PRIORITY_MEMORY]
    expect_equal(
        rank(PRIORITY_MEMORY, list(reversed(expected))),
        expected,
        en="kubelet's order under memory pressure: pods using more than they request before "
        "those within their request; among each, lower priority first; then the largest use "
        "beyond the request first. (A low-priority pod within its request stays after a "
        "high-priority pod above its own.)",
        zh="kubelet 在内存压力下的顺序：用量超出请求量的 Pod 排在请求量之内的 Pod 之前；每组之内优先级低的在前；优先级相同时，超出请求量最多的在前。（请求量之内的低优先级 Pod 排在超出自身请求量的高优先级 Pod 之后。）",
    )


def check_the_pod_kubelets_own_test_evicts() -> None:
    table = [
        ("guaranteed-low-priority-high-usage", LOW, "1Gi", "900Mi"),
        ("burstable-below-requests", 0, "100Mi", "50Mi"),
        ("burstable-above-requests", 0, "100Mi", "400Mi"),
        ("best-effort-high-priority-high-usage", HIGH, "", "400Mi"),
        ("best-effort-low-priority-low-usage", LOW, "", "100Mi"),
    ]
    ranked = rank(table, [name for name, *_ in table])
    expect_equal(
        ranked[0],
        "best-effort-low-priority-low-usage",
        en="Of a Guaranteed pod within its request, two Burstable pods and two BestEffort pods, "
        "kubelet evicts the low-priority BestEffort pod first, though it uses the least memory: "
        "it is above its request (of nothing) and has the lowest priority among those above.",
        zh="在一个请求量之内的 Guaranteed Pod、两个 Burstable Pod 和两个 BestEffort Pod 中，kubelet 先驱逐低优先级的 BestEffort Pod，尽管它用的内存最少：它超出了自己（为零）的请求量，并且在超出请求量的 Pod 中优先级最低。",
    )
