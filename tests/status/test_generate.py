"""The conditions kubelet generates from container statuses: reasons and messages as Go's."""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import (
    ConditionStatus,
    Container,
    ContainerStatus,
    PodConditionType,
    PodPhase,
    PodSpec,
)
from minikubelet.status.generate import (
    ContainersNotInitialized,
    ContainersNotReady,
    PodCompleted,
    UnknownContainerStatuses,
    generate_containers_ready_condition,
    generate_pod_initialized_condition,
    generate_pod_ready_condition,
)


def spec(*names: str, init: tuple[str, ...] = ()) -> PodSpec:
    return PodSpec(
        containers=[Container(name=n, image="x") for n in names],
        init_containers=[Container(name=n, image="x") for n in init],
    )


def cs(name: str, ready: bool) -> ContainerStatus:
    return ContainerStatus(name=name, ready=ready)


def test_containers_ready_lists_unknown_and_unready_containers_like_go():
    c = generate_containers_ready_condition(
        spec("a", "b", "c"), [cs("a", True), cs("b", False)], PodPhase.RUNNING
    )
    assert c.type == PodConditionType.CONTAINERS_READY
    assert c.status == ConditionStatus.FALSE and c.reason == ContainersNotReady
    assert c.message == "containers with unknown status: [c], containers with unready status: [b]"


def test_containers_ready_true_unknown_and_completed():
    s = spec("a", "b")
    assert (
        generate_containers_ready_condition(s, [cs("a", True), cs("b", True)], "Running").status
        == ConditionStatus.TRUE
    )
    unknown = generate_containers_ready_condition(s, [], PodPhase.PENDING)
    assert unknown.reason == UnknownContainerStatuses and unknown.status == ConditionStatus.FALSE
    done = generate_containers_ready_condition(
        s, [cs("a", False), cs("b", False)], PodPhase.SUCCEEDED
    )
    assert done.reason == PodCompleted and done.status == ConditionStatus.FALSE


def test_pod_ready_follows_containers_ready():
    s = spec("a", "b")
    r = generate_pod_ready_condition(s, [], [cs("a", True), cs("b", False)], PodPhase.RUNNING)
    assert r.type == PodConditionType.READY and r.status == ConditionStatus.FALSE
    assert r.reason == ContainersNotReady
    assert r.message == "containers with unready status: [b]"
    ok = generate_pod_ready_condition(s, [], [cs("a", True), cs("b", True)], PodPhase.RUNNING)
    assert ok.status == ConditionStatus.TRUE and ok.reason == ""


def test_pod_initialized():
    s = spec("app", init=("i1", "i2"))
    assert generate_pod_initialized_condition(s, [], PodPhase.PENDING).reason == (
        UnknownContainerStatuses
    )
    c = generate_pod_initialized_condition(s, [cs("i1", True)], PodPhase.PENDING)
    assert c.status == ConditionStatus.FALSE and c.reason == ContainersNotInitialized
    assert c.message == "containers with unknown status: [i2]"
    c = generate_pod_initialized_condition(s, [cs("i1", True), cs("i2", False)], "Pending")
    assert c.message == "containers with incomplete status: [i2]"
    c = generate_pod_initialized_condition(s, [cs("i1", True), cs("i2", True)], "Running")
    assert c.status == ConditionStatus.TRUE
    # No init containers: initialized, even with no statuses at all.
    no_init = generate_pod_initialized_condition(spec("app"), [], PodPhase.PENDING)
    assert no_init.status == ConditionStatus.TRUE
