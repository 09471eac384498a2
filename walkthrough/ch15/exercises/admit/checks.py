"""What ch15/admit checks in your ``ManagerImpl.admit``.

The pods and verdicts are those of kubelet's TestAdmitUnderNodeConditions (and its
toleration cases) in pkg/kubelet/eviction/eviction_manager_test.go, restated.
"""

from __future__ import annotations

from minikubelet import go
from minikubelet.eviction.eviction_manager import ManagerImpl
from minikubelet.eviction.types import Config
from minikubelet.k8s_io.api.core.v1 import (
    Container,
    NodeDiskPressure,
    NodeMemoryPressure,
    ObjectReference,
    Pod,
    PodSpec,
    ResourceRequirements,
    TaintEffectNoSchedule,
    Toleration,
    TolerationOpExists,
)
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.lifecycle.interfaces import PodAdmitAttributes
from walkthrough.expect import expect_equal


def pod(name: str, qos: str, annotations: dict[str, str] | None = None) -> Pod:
    both = {"cpu": Quantity.parse("100m"), "memory": Quantity.parse("1Gi")}
    resources = {
        "Guaranteed": ResourceRequirements(requests=dict(both), limits=dict(both)),
        "Burstable": ResourceRequirements(requests=dict(both)),
        "BestEffort": ResourceRequirements(),
    }[qos]
    return Pod(
        metadata=ObjectMeta(
            name=name, namespace="default", uid=name, annotations=annotations or {}
        ),
        spec=PodSpec(containers=[Container(name="app", image="busybox", resources=resources)]),
    )


async def _never(*args: object) -> None:
    raise AssertionError("admission kills no pod")


def manager(conditions: list) -> ManagerImpl:
    m = ManagerImpl(
        clock=None,  # type: ignore[arg-type]
        config=Config(),
        kill_pod_func=_never,
        mirror_pod_func=lambda p: (None, False),
        image_gc=None,  # type: ignore[arg-type]
        container_gc=None,  # type: ignore[arg-type]
        recorder=Recorder(),
        summary_provider=None,  # type: ignore[arg-type]
        node_ref=ObjectReference(kind="Node", name="node-1"),
    )
    m.node_conditions = list(conditions)
    return m


def verdicts(conditions: list, pods: list[Pod]) -> list[bool]:
    m = manager(conditions)

    async def main() -> list[bool]:
        return [(await m.admit(PodAdmitAttributes(pod=p))).admit for p in pods]

    got = go.run(main)
    assert got is not None
    return got


PODS = [
    pod("guaranteed", "Guaranteed"),
    pod("burstable", "Burstable"),
    pod("best-effort", "BestEffort"),
]


def check_memory_pressure_refuses_only_best_effort_pods() -> None:
    expect_equal(
        verdicts([], PODS),
        [True, True, True],
        en="Without pressure every pod is admitted.",
        zh="没有压力时，所有 Pod 都被接纳。",
    )
    expect_equal(
        verdicts([NodeMemoryPressure], PODS),
        [True, True, False],
        en="Under memory pressure alone, a Guaranteed and a Burstable pod are admitted (they "
        "requested memory, and the eviction manager will rank them after BestEffort pods); a "
        "BestEffort pod is refused.",
        zh="只有内存压力时，Guaranteed 与 Burstable Pod 被接纳（它们请求了内存，驱逐管理器也会把它们排在 BestEffort Pod 之后）；BestEffort Pod 被拒绝。",
    )


def check_any_other_pressure_refuses_every_pod() -> None:
    expect_equal(
        verdicts([NodeMemoryPressure, NodeDiskPressure], PODS),
        [False, False, False],
        en="Under memory and disk pressure every pod that is not critical is refused: the "
        "BestEffort exception holds only when memory pressure is the node's only condition.",
        zh="同时有内存压力与磁盘压力时，所有非关键 Pod 都被拒绝：BestEffort 的例外只在内存压力是节点唯一状况时才成立。",
    )


def check_a_toleration_of_memory_pressure_lets_a_best_effort_pod_in() -> None:
    tolerant = pod("tolerant", "BestEffort")
    tolerant.spec.tolerations = [
        Toleration(
            key="node.kubernetes.io/memory-pressure",
            operator=TolerationOpExists,
            effect=TaintEffectNoSchedule,
        )
    ]
    disk_only = pod("disk-only", "BestEffort")
    disk_only.spec.tolerations = [
        Toleration(
            key="node.kubernetes.io/disk-pressure",
            operator=TolerationOpExists,
            effect=TaintEffectNoSchedule,
        )
    ]
    expect_equal(
        verdicts([NodeMemoryPressure], [tolerant, disk_only]),
        [True, False],
        en="Under memory pressure, a BestEffort pod that tolerates the node.kubernetes.io/memory-"
        "pressure taint (NoSchedule) is admitted; one that tolerates only disk pressure is not.",
        zh="在内存压力下，容忍 node.kubernetes.io/memory-pressure 污点（NoSchedule）的 BestEffort Pod 被接纳；只容忍磁盘压力的则不会。",
    )


def check_critical_pods_are_always_admitted() -> None:
    static = pod("static", "BestEffort", {"kubernetes.io/config.source": "file"})
    expect_equal(
        verdicts([NodeMemoryPressure, NodeDiskPressure], [static]),
        [True],
        en="A static pod (BestEffort, under memory and disk pressure) is admitted: critical pods "
        "keep the node itself running, so pressure never keeps them out.",
        zh="静态 Pod（BestEffort，在内存与磁盘双重压力下）被接纳：关键 Pod 维持节点本身运行，压力不会把它们挡在外面。",
    )


def check_the_refusal_says_why() -> None:
    m = manager([NodeMemoryPressure])
    result = go.run(m.admit, PodAdmitAttributes(pod=pod("best-effort", "BestEffort")))
    assert result is not None
    expect_equal(
        (result.admit, result.reason, result.message),
        (False, "Evicted", "The node had condition: [MemoryPressure]. "),
        en="A refused pod gets kubelet's reason and message, which its status shows.",
        zh="被拒绝的 Pod 会得到 kubelet 的原因与消息，它的状态里会显示出来。",
    )
