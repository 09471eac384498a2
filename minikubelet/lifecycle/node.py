"""A minimal v1 ``Node``: a name, labels, its resources and its addresses.

Go: staging/src/k8s.io/api/core/v1/types.go

**Stand-in** until :mod:`minikubelet.api` has a ``Node`` type; then this module should go and its
users import the api's. Only the fields kubelet reads are here: the node's ``metadata`` (name,
labels), ``spec.unschedulable``, ``status.capacity`` / ``status.allocatable`` and
``status.addresses``. :class:`MachineInfo` (ours) stands for what cAdvisor would measure.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minikubelet.api import ObjectMeta, ResourceList
from minikubelet.api.resource import Quantity

__all__ = ["MachineInfo", "Node", "NodeAddress", "NodeSpec", "NodeStatus", "new_node"]

#: Go: v1.NodeInternalIP, the type of the address other nodes reach this one at.
NodeInternalIP = "InternalIP"
#: Go: v1.NodeExternalIP
NodeExternalIP = "ExternalIP"
#: Go: v1.NodeHostName
NodeHostName = "Hostname"


@dataclass(slots=True, kw_only=True)
class NodeAddress:
    """Go: staging/src/k8s.io/api/core/v1/types.go type NodeAddress"""

    type: str
    address: str


@dataclass(slots=True, kw_only=True)
class NodeSpec:
    """Go: staging/src/k8s.io/api/core/v1/types.go type NodeSpec"""

    unschedulable: bool = False


@dataclass(slots=True, kw_only=True)
class NodeStatus:
    """What a node has: its total capacity and what of it pods may use.

    Go: staging/src/k8s.io/api/core/v1/types.go type NodeStatus
    """

    capacity: ResourceList = field(default_factory=dict)
    allocatable: ResourceList = field(default_factory=dict)
    addresses: list[NodeAddress] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class Node:
    """A node: its name and labels, and its resources.

    Go: staging/src/k8s.io/api/core/v1/types.go type Node
    """

    api_version: str = "v1"
    kind: str = "Node"
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: NodeSpec = field(default_factory=NodeSpec)
    status: NodeStatus = field(default_factory=NodeStatus)


@dataclass(slots=True, kw_only=True)
class MachineInfo:
    """Ours: the simulated machine's CPU and memory, which cAdvisor would measure on a real
    node (Go reads its ``MachineInfo``: ``NumCores``, ``MemoryCapacity``)."""

    cpu: Quantity
    memory: Quantity


def new_node(
    name: str,
    *,
    cpu: str = "2",
    memory: str = "4Gi",
    pods: int = 110,
    labels: dict[str, str] | None = None,
) -> Node:
    """Ours, not Go: a node whose capacity and allocatable are ``cpu``, ``memory`` and ``pods``
    (kubelet's default: 110 pods). Labels default to two of those kubelet gives its node:
    ``kubernetes.io/hostname: <name>`` and ``kubernetes.io/os: linux``."""
    resources = {
        "cpu": Quantity.parse(cpu),
        "memory": Quantity.parse(memory),
        "pods": Quantity.from_int(pods),
    }
    return Node(
        metadata=ObjectMeta(
            name=name,
            labels=dict(labels)
            if labels is not None
            else {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux"},
        ),
        status=NodeStatus(capacity=dict(resources), allocatable=dict(resources)),
    )
