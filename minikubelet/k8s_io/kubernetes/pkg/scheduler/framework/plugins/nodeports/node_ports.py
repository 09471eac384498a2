"""Are the host ports the pod asks for free on the node?

Go: pkg/scheduler/framework/plugins/nodeports/node_ports.go

Only [`fits`][] and what it calls are ported, with the plugin's name and reason (kubelet's
``GeneralPredicates`` uses them); the plugin's ``PreFilter``/``Filter`` are left out.
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import ContainerPort, Pod
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.types import NodeInfo

__all__ = ["ErrReason", "Name", "fits", "fits_ports", "get_container_ports"]

#: The name of the plugin. Go: nodeports.Name
Name = "NodePorts"

#: Returned when node ports aren't available. Go: nodeports.ErrReason
ErrReason = "node(s) didn't have free ports for the requested pod ports"


def get_container_ports(*pods: Pod) -> list[ContainerPort]:
    """Every port of every container of the pods (whether or not it has a host port).

    Go: pkg/scheduler/framework/plugins/nodeports/node_ports.go getContainerPorts
    """
    ports: list[ContainerPort] = []
    for pod in pods:
        for container in pod.spec.containers:
            ports.extend(container.ports)
    return ports


def fits(pod: Pod, node_info: NodeInfo) -> bool:
    """True if none of the pod's host ports is taken on the node.

    Go: pkg/scheduler/framework/plugins/nodeports/node_ports.go Fits
    """
    return fits_ports(get_container_ports(pod), node_info)


def fits_ports(want_ports: list[ContainerPort], node_info: NodeInfo) -> bool:
    """True if none of ``want_ports`` conflicts with a host port in use on the node.

    Go: pkg/scheduler/framework/plugins/nodeports/node_ports.go fitsPorts
    """
    existing_ports = node_info.used_ports
    for cp in want_ports:
        if existing_ports.check_conflict(cp.host_ip, str(cp.protocol), cp.host_port):
            return False
    return True
