"""The Node object kubelet builds for itself.

Go: pkg/kubelet/kubelet_node_status.go

Without an API server, ``getNodeAnyWay`` falls back to :meth:`KubeletNodeStatus.initial_node`: the
node as kubelet would register it. Admission reads it: its labels for ``nodeSelector`` and node
affinity, its allocatable resources for the fit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minikubelet import klog
from minikubelet.api import ObjectMeta, Quantity
from minikubelet.api.core_v1 import ResourceCPU, ResourceMemory
from minikubelet.lifecycle.node import (
    Node,
    NodeAddress,
    NodeHostName,
    NodeInternalIP,
    NodeSpec,
    NodeStatus,
)
from minikubelet.scheduler.framework_types import ResourcePods

if TYPE_CHECKING:
    from minikubelet.kubelet import Kubelet

#: Go: v1.LabelHostname
LabelHostname = "kubernetes.io/hostname"
#: Go: v1.LabelOSStable
LabelOSStable = "kubernetes.io/os"
#: Go: v1.LabelArchStable
LabelArchStable = "kubernetes.io/arch"
#: Go: kubeletapis.LabelOS (staging/src/k8s.io/kubelet/pkg/apis/well_known_labels.go)
LabelOS = "beta.kubernetes.io/os"
#: Go: kubeletapis.LabelArch
LabelArch = "beta.kubernetes.io/arch"

#: Ours: kubelet labels its node with the platform it was built for (Go's runtime.GOOS and
#: GOARCH); the simulated node is a linux/amd64 one.
GOOS = "linux"
GOARCH = "amd64"


class KubeletNodeStatus:
    """The methods of Go's Kubelet defined in kubelet_node_status.go."""

    def initial_node(self: Kubelet) -> Node:
        """The node kubelet registers: its name, the well-known labels, ``--node-labels``, and
        its status (capacity, allocatable, addresses).

        Go: pkg/kubelet/kubelet_node_status.go (*Kubelet).initialNode

        Left out: OS-specific labels (Windows only), taints (none are registered), the
        ``NetworkUnavailable`` condition (no cloud routes), volume annotations, cloud labels.
        """
        node = Node(
            metadata=ObjectMeta(
                name=self.node_name,
                labels={
                    LabelHostname: self.hostname,
                    LabelOSStable: GOOS,
                    LabelArchStable: GOARCH,
                    LabelOS: GOOS,
                    LabelArch: GOARCH,
                },
            ),
            # kubelet registers schedulable unless told otherwise (--register-schedulable).
            spec=NodeSpec(unschedulable=False),
        )

        for k, v in self.node_labels.items():
            cv = node.metadata.labels.get(k)
            if cv is not None:
                klog.info_s(
                    "the node label will overwrite default setting",
                    labelKey=k,
                    labelValue=v,
                    default=cv,
                )
            node.metadata.labels[k] = v

        self.set_node_status(node)
        return node

    def set_node_status(self: Kubelet, node: Node) -> None:
        """Fill in the node's status.

        Go: pkg/kubelet/kubelet_node_status.go (*Kubelet).setNodeStatus

        Go runs a list of setters (addresses, machine info, versions, conditions …); the port
        runs the two whose results kubelet reads back: addresses and resources.
        """
        # Go's nodestatus.NodeAddress: the --node-ip addresses, then the hostname. Without
        # --node-ip Go looks the hostname up in DNS; the simulated node has no DNS, so then it
        # has no IP address.
        node.status.addresses = [
            NodeAddress(type=NodeInternalIP, address=ip) for ip in self.node_ips
        ]
        node.status.addresses.append(NodeAddress(type=NodeHostName, address=self.hostname))
        # Go's nodestatus.MachineInfo: capacity from cAdvisor and maxPods. Nothing is reserved
        # for the system here, so allocatable equals capacity.
        capacity = {
            ResourceCPU: self.machine_info.cpu,
            ResourceMemory: self.machine_info.memory,
            ResourcePods: Quantity.from_int(self.max_pods),
        }
        node.status = NodeStatus(
            capacity=dict(capacity), allocatable=dict(capacity), addresses=node.status.addresses
        )
