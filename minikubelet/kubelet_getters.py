"""The Kubelet's getters that the pod path uses.

Go: pkg/kubelet/kubelet_getters.go
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minikubelet.lifecycle.node import Node

if TYPE_CHECKING:
    from minikubelet.kubelet import Kubelet


class KubeletGetters:
    """The methods of Go's Kubelet defined in kubelet_getters.go."""

    def get_node_any_way(self: Kubelet) -> Node:
        """The node from the API server if there is one, else the one kubelet would register.

        Go: pkg/kubelet/kubelet_getters.go (*Kubelet).getNodeAnyWay
        """
        if self.kube_client is not None:
            node = self.kube_client.get_node(self.node_name)
            if node is not None:
                return node
        return self.initial_node()
