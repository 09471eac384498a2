"""A minimal v1 ``Node``: a name, labels, and its capacity and allocatable resources.

Go: staging/src/k8s.io/api/core/v1/types.go

**Stand-in** until [`minikubelet.api`][minikubelet.api] has a ``Node`` type; then this module should
go and its users import the api's. Only the fields kubelet's admission check reads are here: the
node's ``metadata`` (name, labels) and ``status.capacity`` / ``status.allocatable``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minikubelet.api import ObjectMeta, ResourceList
from minikubelet.api.resource import Quantity

__all__ = ["Node", "NodeStatus", "new_node"]


@dataclass(slots=True, kw_only=True)
class NodeStatus:
    """What a node has: its total capacity and what of it pods may use.

    Go: staging/src/k8s.io/api/core/v1/types.go type NodeStatus
    """

    capacity: ResourceList = field(default_factory=dict)
    allocatable: ResourceList = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class Node:
    """A node: its name and labels, and its resources.

    Go: staging/src/k8s.io/api/core/v1/types.go type Node
    """

    api_version: str = "v1"
    kind: str = "Node"
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    status: NodeStatus = field(default_factory=NodeStatus)


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
