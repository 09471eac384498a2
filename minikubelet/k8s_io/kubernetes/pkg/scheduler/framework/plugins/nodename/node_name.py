"""Does the pod ask for another node by name?

Go: pkg/scheduler/framework/plugins/nodename/node_name.go

Only [`fits`][] and the plugin's name and reason are ported (kubelet's ``GeneralPredicates``
uses them); the plugin's ``Filter`` is left out.
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.types import NodeInfo

__all__ = ["ErrReason", "Name", "fits"]

#: The name of the plugin. Go: nodename.Name
Name = "NodeName"

#: Returned when the node name doesn't match. Go: nodename.ErrReason
ErrReason = "node(s) didn't match the requested node name"


def fits(pod: Pod, node_info: NodeInfo) -> bool:
    """True if the pod names no node, or names this one.

    Go: pkg/scheduler/framework/plugins/nodename/node_name.go Fits
    """
    node = node_info.node()
    assert node is not None  # GeneralPredicates checked it; Go would dereference nil
    return len(pod.spec.node_name) == 0 or pod.spec.node_name == node.metadata.name
