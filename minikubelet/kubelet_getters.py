"""The Kubelet's getters that the pod path uses.

Go: pkg/kubelet/kubelet_getters.go
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minikubelet.k8s_io.api.core.v1 import Node
from minikubelet.k8s_io.kubernetes.pkg.util.node.node import get_node_host_ips

if TYPE_CHECKING:
    from minikubelet.kubelet import Kubelet


class KubeletGetters:
    """The methods of Go's Kubelet defined in kubelet_getters.go."""

    def get_node(self: Kubelet) -> Node:
        """The node as the API server has it (raises if it is not there), or, without an API
        server, the node kubelet would register.

        Go: pkg/kubelet/kubelet_getters.go (*Kubelet).GetNode
        """
        if self.kube_client is None:
            return self.initial_node()
        return self.kube_client.get_node(self.node_name)

    def get_node_any_way(self: Kubelet) -> Node:
        """The node from the API server if it is there, else the one kubelet would register.

        Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getNodeAnyWay
        """
        if self.kube_client is not None:
            try:
                return self.kube_client.get_node(self.node_name)
            except Exception:
                pass
        return self.initial_node()

    def get_host_ips_any_way(self: Kubelet) -> list[str]:
        """The node's IPs: its primary one, and one of the other family on a dual-stack node.

        Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getHostIPsAnyWay
        """
        node = self.get_node_any_way()
        return get_node_host_ips(node)
