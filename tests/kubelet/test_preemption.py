"""Which pods the critical-pod admission handler preempts, and when it refuses to.

Go: pkg/kubelet/preemption/preemption.go (v1.21.4 line numbers below), our own cases.
"""

from __future__ import annotations

import asyncio

import pytest

from minikubelet.k8s_io.api.core.v1 import Container, Pod, PodSpec, ResourceRequirements
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.kubernetes.pkg.api.v1.resource.helpers import get_resource_request
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.qos.qos import get_pod_qos
from minikubelet.lifecycle.predicate import InsufficientResourceError, PredicateFailureError
from minikubelet.preemption.preemption import (
    AdmissionRequirement,
    AdmissionRequirementList,
    get_pods_to_preempt,
    new_critical_pod_admission_handler,
)
from minikubelet.types import ConfigSourceAnnotationKey

MI = 1024**2


def pod(
    name: str,
    cpu: str | None = None,
    memory: str | None = None,
    *,
    limits: bool = False,
    static: bool = False,
    priority: int | None = None,
) -> Pod:
    rl = {}
    if cpu:
        rl["cpu"] = Quantity.parse(cpu)
    if memory:
        rl["memory"] = Quantity.parse(memory)
    resources = ResourceRequirements(requests=dict(rl), limits=dict(rl) if limits else {})
    source = "file" if static else "api"
    return Pod(
        metadata=ObjectMeta(
            name=name,
            namespace="default",
            uid=f"uid-{name}",
            annotations={ConfigSourceAnnotationKey: source},
        ),
        spec=PodSpec(
            containers=[Container(name="c", image="busybox", resources=resources)],
            priority=priority,
        ),
    )


def needs(**amounts: int) -> AdmissionRequirementList:
    return AdmissionRequirementList(
        AdmissionRequirement(resource_name=k, quantity=v) for k, v in amounts.items()
    )


def names(pods: list[Pod]) -> list[str]:
    return [p.metadata.name for p in pods]


CRITICAL = pod("critical", "1", static=True)


def test_qos_classes_and_requests():
    """GetPodQOS (qos.go L39-99) and GetResourceRequest (helpers.go L151-163)."""
    assert get_pod_qos(pod("be")) == "BestEffort"
    assert get_pod_qos(pod("bu", "100m")) == "Burstable"
    assert get_pod_qos(pod("gu", "100m", "64Mi", limits=True)) == "Guaranteed"
    # Both CPU and memory limits are needed for Guaranteed.
    assert get_pod_qos(pod("cpu-only", "100m", limits=True)) == "Burstable"
    p = pod("x", "1500m", "64Mi")
    assert get_resource_request(p, "cpu") == 1500
    assert get_resource_request(p, "memory") == 64 * MI
    assert get_resource_request(p, "pods") == 1


def test_best_effort_goes_first_and_guaranteed_last():
    """getPodsToPreempt (L125-149): guaranteed pods only when the others cannot cover."""
    be = pod("be")
    bu = pod("bu", "500m")
    gu = pod("gu", "2", "64Mi", limits=True)
    # One pod slot: the BestEffort pod is enough.
    assert names(get_pods_to_preempt(CRITICAL, [gu, bu, be], needs(pods=1))) == ["be"]
    # 1 CPU: only the Guaranteed pod has that much; the others are spared since killing them
    # too would not be needed once it goes (each class is sized assuming the others went).
    assert names(get_pods_to_preempt(CRITICAL, [gu, bu, be], needs(cpu=1000))) == ["gu"]
    # 2.2 CPU: all Burstable and Guaranteed CPU is needed; the BestEffort pod frees no CPU.
    assert names(get_pods_to_preempt(CRITICAL, [gu, bu, be], needs(cpu=2200))) == ["bu", "gu"]


def test_closest_pod_wins_and_ties_go_to_the_smaller_request():
    """getPodsToPreemptByDistance (L157-183) and smallerResourceRequest (L257-272)."""
    small, exact, big = pod("small", "300m"), pod("exact", "500m"), pod("big", "2")
    # "exact" and "big" both cover 500m (distance 0): the smaller one is chosen.
    assert names(get_pods_to_preempt(CRITICAL, [big, small, exact], needs(cpu=500))) == ["exact"]
    # No single pod covers 2.5 CPU: the closest first (big), then what remains (small).
    assert names(get_pods_to_preempt(CRITICAL, [small, exact, big], needs(cpu=2300))) == [
        "big",
        "small",
    ]


def test_critical_pods_are_never_preempted_by_critical_pods():
    """Preemptable (pod_update.go L171-181): a critical pod only preempts non-critical ones,
    or ones of lower priority."""
    other_static = pod("other-static", "2", static=True)
    with pytest.raises(ValueError, match=r"reclaim resources: \[\(res: cpu, q: 1000\), \]"):
        get_pods_to_preempt(CRITICAL, [other_static, CRITICAL], needs(cpu=1000))
    low = pod("low", "2", static=True, priority=10)
    high = pod("high", "1", static=True, priority=20)
    assert names(get_pods_to_preempt(high, [low], needs(cpu=1000))) == ["low"]


def handle(admit_pod: Pod, reasons, pods: list[Pod]):
    killed: list[tuple[str, str, str]] = []

    async def kill(p, status, grace):
        killed.append((p.metadata.name, status.phase, status.reason))

    recorder = Recorder()
    handler = new_critical_pod_admission_handler(lambda: pods, kill, recorder)
    result = asyncio.run(handler.handle_admission_failure(admit_pod, reasons))
    return result, killed, [(e.object.name, e.reason, e.message) for e in recorder.events]


def test_only_critical_pods_short_of_resources_preempt():
    """HandleAdmissionFailure (L62-87)."""
    cpu = InsufficientResourceError("cpu", 1000, 3500, 4000)
    ports = PredicateFailureError("NodePorts", "node(s) didn't have free ports")
    victim = pod("victim", "1")
    # Not critical: the reasons stand, nobody is touched.
    assert handle(pod("plain", "1"), [cpu], [victim]) == ([cpu], [], [])
    # Critical, but a reason other than resources: that reason alone stands.
    assert handle(CRITICAL, [cpu, ports], [victim]) == ([ports], [], [])
    # Critical and only short of 500m: the victim is preempted, the pod admitted.
    result, killed, events = handle(CRITICAL, [cpu], [victim, CRITICAL])
    assert result == []
    assert killed == [("victim", "Failed", "Preempting")]
    assert events == [("victim", "Preempting", "Preempted in order to admit critical pod")]


def test_no_set_of_pods_frees_enough():
    """evictPodsToFreeRequests wraps getPodsToPreempt's error (L93-96)."""
    cpu = InsufficientResourceError("cpu", 3000, 3000, 4000)
    with pytest.raises(RuntimeError) as err:
        handle(CRITICAL, [cpu], [pod("small", "500m")])
    assert str(err.value) == (
        "preemption: error finding a set of pods to preempt: no set of running pods found to "
        "reclaim resources: [(res: cpu, q: 1500), ]"
    )
