"""The node the port's kubelet runs on, built from a few numbers (ours: no Go counterpart).

The ``Node`` type itself is
[`minikubelet.k8s_io.api.core.v1.types.Node`][minikubelet.k8s_io.api.core.v1.types.Node]. kubelet
builds its own node (``initialNode``) from a
[`MachineInfo`][minikubelet.github_com.google.cadvisor.info.v1.machine.MachineInfo];
tests of admission alone build one with [`new_node`][minikubelet.sim.node.new_node].
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Node, NodeStatus
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta

__all__ = ["new_node"]


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
