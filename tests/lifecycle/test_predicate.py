"""Admission by predicates: a 2 CPU / 4Gi / 110-pod node, and the reasons kubelet reports."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest

from minikubelet.k8s_io.api.core.v1 import (
    Container,
    ContainerPort,
    Node,
    Pod,
    PodSpec,
    Quantity,
    ResourceRequirements,
)
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.plugins.noderesources.fit import (
    compute_pod_resource_request,
)
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.types import new_node_info
from minikubelet.lifecycle.admission_failure_handler_stub import (
    new_admission_failure_handler_stub,
)
from minikubelet.lifecycle.interfaces import PodAdmitAttributes, PodAdmitHandlers, PodAdmitResult
from minikubelet.lifecycle.predicate import (
    InsufficientResourceError,
    PredicateFailureError,
    general_predicates,
    new_predicate_admit_handler,
    remove_missing_extended_resources,
)
from minikubelet.sim.node import new_node

GI = 1024**3


@dataclass(slots=True, kw_only=True)
class SpecWithNodeSelector(PodSpec):
    """minikubelet.k8s_io.api.core.v1's PodSpec has no node_selector yet; the predicate reads it if present."""

    node_selector: dict[str, str] = field(default_factory=dict)


def requests(
    cpu: str | None = None, memory: str | None = None, other: dict[str, str] | None = None
):
    rl = {}
    if cpu is not None:
        rl["cpu"] = Quantity.parse(cpu)
    if memory is not None:
        rl["memory"] = Quantity.parse(memory)
    for k, v in (other or {}).items():
        rl[k] = Quantity.parse(v)
    return ResourceRequirements(requests=rl)


_n = 0


def make_pod(
    cpu: str | None = None,
    memory: str | None = None,
    *,
    name: str | None = None,
    init: list[ResourceRequirements] | None = None,
    containers: list[ResourceRequirements] | None = None,
    spec_cls: type[PodSpec] = PodSpec,
    **spec_kw,
) -> Pod:
    global _n
    _n += 1
    name = name or f"pod-{_n}"
    if containers is None:
        containers = [requests(cpu, memory)]
    return Pod(
        metadata=ObjectMeta(name=name, namespace="default", uid=f"uid-{name}"),
        spec=spec_cls(
            containers=[
                Container(name=f"c{i}", image="nginx", resources=r)
                for i, r in enumerate(containers)
            ],
            init_containers=[
                Container(name=f"i{i}", image="busybox", resources=r)
                for i, r in enumerate(init or [])
            ],
            **spec_kw,
        ),
    )


NODE = new_node("node-1", cpu="2", memory="4Gi", pods=110)


def admit(pod: Pod, *others: Pod, node: Node = NODE) -> PodAdmitResult:
    handler = new_predicate_admit_handler(
        lambda: node, new_admission_failure_handler_stub(), lambda node_info, attrs: None
    )
    return asyncio.run(handler.admit(PodAdmitAttributes(pod=pod, other_pods=list(others))))


def test_admits_a_pod_within_capacity():
    result = admit(make_pod("500m", "1Gi"), make_pod("1", "2Gi"))
    assert result == PodAdmitResult(admit=True, reason="", message="")


def test_admits_a_pod_that_exactly_fills_the_node():
    assert admit(make_pod("1", "2Gi"), make_pod("1", "2Gi")).admit


def test_out_of_cpu():
    result = admit(make_pod("1500m", "1Gi"), make_pod("1000m"))
    assert result == PodAdmitResult(
        admit=False,
        reason="OutOfcpu",
        message=(
            "Node didn't have enough resource: cpu, requested: 1500, used: 1000, capacity: 2000"
        ),
    )


def test_out_of_memory():
    result = admit(make_pod("100m", "2Gi"), make_pod(memory="3Gi"))
    assert result == PodAdmitResult(
        admit=False,
        reason="OutOfmemory",
        message=(
            "Node didn't have enough resource: memory, requested: 2147483648, "
            f"used: {3 * GI}, capacity: {4 * GI}"
        ),
    )


def test_out_of_pods_even_for_a_pod_that_requests_nothing():
    others = [make_pod() for _ in range(110)]
    result = admit(make_pod(), *others)
    assert result == PodAdmitResult(
        admit=False,
        reason="OutOfpods",
        message="Node didn't have enough resource: pods, requested: 1, used: 110, capacity: 110",
    )
    assert admit(make_pod(), *others[:109]).admit


def test_only_the_first_failure_is_reported():
    # Out of pods, cpu and memory at once: pods is checked first.
    node = new_node("small", cpu="1", memory="1Gi", pods=1)
    result = admit(make_pod("2", "2Gi"), make_pod(), node=node)
    assert result.reason == "OutOfpods"
    # Out of cpu and memory: cpu first.
    assert admit(make_pod("3", "5Gi")).reason == "OutOfcpu"


def test_init_containers_count_by_their_max_not_their_sum():
    # Containers sum to 1 CPU; the largest init container asks 1.5 CPU: the pod needs 1.5.
    pod = make_pod(
        containers=[requests("500m"), requests("500m")],
        init=[requests("1500m"), requests("200m")],
    )
    assert compute_pod_resource_request(pod).milli_cpu == 1500
    result = admit(pod, make_pod("1"))
    assert result.reason == "OutOfcpu"
    assert result.message.startswith("Node didn't have enough resource: cpu, requested: 1500,")
    # Init containers smaller than the sum add nothing.
    small_init = make_pod(containers=[requests("500m"), requests("500m")], init=[requests("1")])
    assert compute_pod_resource_request(small_init).milli_cpu == 1000
    assert admit(small_init, make_pod("1")).admit


def test_other_pods_init_containers_count_by_max_too():
    other = make_pod(containers=[requests("100m")], init=[requests("1500m")])
    assert admit(make_pod("500m"), other).admit
    assert admit(make_pod("600m"), other).reason == "OutOfcpu"


def test_go_comment_example_for_compute_pod_resource_request():
    pod = make_pod(
        containers=[requests("2", "1G"), requests("1", "1G")],
        init=[requests("2", "1G"), requests("2", "3G")],
    )
    r = compute_pod_resource_request(pod)
    assert (r.milli_cpu, r.memory) == (3000, 3 * 10**9)


def test_node_selector_that_does_not_match_the_node_labels():
    pod = make_pod("100m", spec_cls=SpecWithNodeSelector, node_selector={"disktype": "ssd"})
    result = admit(pod)
    assert result == PodAdmitResult(
        admit=False, reason="NodeAffinity", message="Predicate NodeAffinity failed"
    )
    ssd = new_node("node-1", labels={"disktype": "ssd", "kubernetes.io/hostname": "node-1"})
    assert admit(pod, node=ssd).admit
    wrong_value = new_node("node-1", labels={"disktype": "hdd"})
    assert admit(pod, node=wrong_value).reason == "NodeAffinity"


def test_node_name_of_another_node():
    assert admit(make_pod(node_name="node-1")).admit
    result = admit(make_pod(node_name="node-2"))
    assert (result.admit, result.reason, result.message) == (
        False,
        "NodeName",
        "Predicate NodeName failed",
    )


def test_host_port_conflict():
    def with_port(port: int, host_ip: str = "") -> Pod:
        pod = make_pod()
        pod.spec.containers[0].ports = [
            ContainerPort(container_port=80, host_port=port, host_ip=host_ip)
        ]
        return pod

    result = admit(with_port(8080), with_port(8080))
    assert (result.reason, result.message) == ("NodePorts", "Predicate NodePorts failed")
    assert admit(with_port(8080), with_port(8081)).admit
    assert admit(with_port(0), with_port(0)).admit  # no host port: no conflict
    # 0.0.0.0 (the default) conflicts with any address; two distinct addresses do not.
    assert admit(with_port(8080, "10.0.0.1"), with_port(8080)).reason == "NodePorts"
    assert admit(with_port(8080, "10.0.0.1"), with_port(8080, "10.0.0.2")).admit


def test_general_predicates_returns_every_failure_with_go_reasons():
    node_info = new_node_info(make_pod("2"))
    node_info.set_node(NODE)
    reasons = general_predicates(make_pod("1", node_name="elsewhere"), node_info)
    assert [type(r) for r in reasons] == [InsufficientResourceError, PredicateFailureError]
    assert reasons[0].get_reason() == "Insufficient cpu"
    assert reasons[0].get_insufficient_amount() == 1000
    assert reasons[1].get_reason() == "node(s) didn't match the requested node name"
    with pytest.raises(ValueError, match="node not found"):
        general_predicates(make_pod(), new_node_info())


def test_node_that_cannot_be_got():
    def no_node() -> Node:
        raise RuntimeError("no node")

    handler = new_predicate_admit_handler(
        no_node, new_admission_failure_handler_stub(), lambda ni, a: None
    )
    result = asyncio.run(handler.admit(PodAdmitAttributes(pod=make_pod())))
    assert result == PodAdmitResult(
        admit=False, reason="InvalidNodeInfo", message="Kubelet cannot get node info."
    )


def test_errors_from_the_plugin_update_and_the_failure_handler():
    def broken_update(node_info, attrs):
        raise RuntimeError("device plugin gone")

    handler = new_predicate_admit_handler(
        lambda: NODE, new_admission_failure_handler_stub(), broken_update
    )
    result = asyncio.run(handler.admit(PodAdmitAttributes(pod=make_pod())))
    assert result == PodAdmitResult(
        admit=False,
        reason="UnexpectedAdmissionError",
        message="Update plugin resources failed due to device plugin gone, which is unexpected.",
    )

    class Failing:
        async def handle_admission_failure(self, pod, reasons):
            raise RuntimeError("cannot preempt")

    handler = new_predicate_admit_handler(lambda: NODE, Failing(), lambda ni, a: None)
    result = asyncio.run(handler.admit(PodAdmitAttributes(pod=make_pod("3"))))
    assert result.reason == "UnexpectedAdmissionError"
    assert result.message == (
        "Unexpected error while attempting to recover from admission failure: cannot preempt"
    )

    class Forgiving:
        async def handle_admission_failure(self, pod, reasons):
            return []  # e.g. preempted other pods to make room

    handler = new_predicate_admit_handler(lambda: NODE, Forgiving(), lambda ni, a: None)
    assert asyncio.run(handler.admit(PodAdmitAttributes(pod=make_pod("3")))).admit


def test_extended_resources_the_node_lacks_are_dropped_before_the_fit():
    pod = make_pod(containers=[requests("100m", other={"example.com/gpu": "1"})])
    copy_ = remove_missing_extended_resources(pod, new_node_info())
    assert list(copy_.spec.containers[0].resources.requests) == ["cpu"]
    assert "example.com/gpu" in pod.spec.containers[0].resources.requests  # original untouched
    assert admit(pod).admit


def test_admit_handlers_list():
    handlers = PodAdmitHandlers()
    handler = new_predicate_admit_handler(
        lambda: NODE, new_admission_failure_handler_stub(), lambda ni, a: None
    )
    handlers.add_pod_admit_handler(handler)
    assert handlers == [handler]


# --- Extended and other scalar resources, against real kubelet ------------------------------
# Each case ran through real kubelet v1.21.4's NewPredicateAdmitHandler(...).Admit (built from
# the oracle's tree, make oracle) with the same node and pods; the expected results are what it
# returned.
def _gpu_node(gpus: str | None) -> Node:
    node = new_node("node", cpu="4", memory="8Gi", pods=110)
    if gpus is not None:
        node.status.capacity["example.com/gpu"] = Quantity.parse(gpus)
        node.status.allocatable["example.com/gpu"] = Quantity.parse(gpus)
    return node


def _rl(**kv: str) -> ResourceRequirements:
    names = {"gpu": "example.com/gpu", "hugepages": "hugepages-2Mi", "foo": "kubernetes.io/foo"}
    return requests(other={names.get(k, k): v for k, v in kv.items()})


_NO_ROOM = "Node didn't have enough resource: {}, requested: {}, used: {}, capacity: {}"


@pytest.mark.parametrize(
    ("gpus", "containers", "init", "others", "expected"),
    [
        ("2", [_rl(cpu="1", gpu="2")], [], [], None),
        ("2", [_rl(cpu="1", gpu="3")], [], [], ("example.com/gpu", 3, 0, 2)),
        (
            "2",
            [_rl(gpu="2")],
            [],
            [[_rl(gpu="1")]],
            ("example.com/gpu", 2, 1, 2),
        ),
        (
            "2",
            [_rl(gpu="1"), _rl(gpu="2")],
            [],
            [],
            ("example.com/gpu", 3, 0, 2),
        ),
        (
            "2",
            [_rl(gpu="1")],
            [_rl(gpu="3")],
            [],
            ("example.com/gpu", 3, 0, 2),
        ),
        (
            "2",
            [_rl(gpu="1")],
            [],
            [[_rl(gpu="2")]],
            ("example.com/gpu", 1, 2, 2),
        ),
        # The node has none: a container's request is dropped (a cluster-level resource) ...
        (None, [_rl(gpu="5")], [], [], None),
        # ... but an init container's is not (Go drops only the containers' requests).
        (None, [], [_rl(gpu="1")], [], ("example.com/gpu", 1, 0, 0)),
        # Hugepages and prefixed native resources are scalar too, and never dropped.
        (None, [_rl(hugepages="4Mi")], [], [], ("hugepages-2Mi", 4194304, 0, 0)),
        (None, [_rl(foo="1")], [], [], ("kubernetes.io/foo", 1, 0, 0)),
    ],
)
def test_scalar_resources_are_checked_as_real_kubelet_does(
    gpus, containers, init, others, expected
):
    pod = make_pod(containers=containers or [requests()], init=init)
    other_pods = [make_pod(containers=c) for c in others]
    result = admit(pod, *other_pods, node=_gpu_node(gpus))
    if expected is None:
        assert result.admit, result.message
    else:
        assert not result.admit
        assert result.reason == f"OutOf{expected[0]}"
        assert result.message == _NO_ROOM.format(*expected)
