"""The Node object kubelet builds for itself.

Go: pkg/kubelet/kubelet_node_status.go

Without an API server, ``getNodeAnyWay`` falls back to [`initial_node`][minikubelet.kubelet_node_status.KubeletNodeStatus.initial_node]: the
node as kubelet would register it. Admission reads it: its labels for ``nodeSelector`` and node
affinity, its allocatable resources for the fit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minikubelet.go import Millisecond, Second, sleep
from minikubelet.k8s_io.api.core.v1 import (
    Node,
    NodeAddress,
    NodeHostName,
    NodeInternalIP,
    NodeSpec,
    NodeStatus,
    ResourceCPU,
    ResourceMemory,
)
from minikubelet.k8s_io.apimachinery.pkg.api.errors.errors import is_already_exists
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.types import ResourcePods
from minikubelet.k8s_io.kubernetes.pkg.util.node.node import parse_ip

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
#: Ours: the address kubelet would find on the simulated host's default interface.
SIMULATED_HOST_IP = "10.0.0.10"


class KubeletNodeStatus:
    """The methods of Go's Kubelet defined in kubelet_node_status.go."""

    async def register_with_api_server(self: Kubelet) -> None:
        """Create this node in the API server, retrying with a growing pause until it is.

        Go: pkg/kubelet/kubelet_node_status.go (*Kubelet).registerWithAPIServer
        """
        if self.registration_completed:
            return
        step = 100 * Millisecond

        while True:
            await sleep(step)
            step = step * 2
            if step >= 7 * Second:
                step = 7 * Second

            try:
                node = self.initial_node()
            except Exception as err:
                klog.error_s(err, "Unable to construct v1.Node object for kubelet")
                continue

            klog.info_s("Attempting to register node", node=klog.kobj(node))
            registered = self.try_register_with_api_server(node)
            if registered:
                klog.info_s("Successfully registered node", node=klog.kobj(node))
                self.registration_completed = True
                return

    def try_register_with_api_server(self: Kubelet, node: Node) -> bool:
        """One attempt; a node of that name already there counts as registered.

        Go: pkg/kubelet/kubelet_node_status.go (*Kubelet).tryRegisterWithAPIServer

        Go then reconciles the existing node's labels and resources with the new ones; the
        fake API server starts empty each run, so the node is never there before.
        """
        assert self.kube_client is not None  # sync_node_status registers only with a client
        try:
            self.kube_client.create_node(node)
        except Exception as err:
            if not is_already_exists(err):
                klog.error_s(err, "Unable to register node with API server", node=klog.kobj(node))
                return False
        else:
            return True
        klog.info_s("Node was previously registered", node=klog.kobj(node))
        return True

    async def sync_node_status(self: Kubelet) -> None:
        """Register the node if need be, then report its status.

        Go: pkg/kubelet/kubelet_node_status.go (*Kubelet).syncNodeStatus
        """
        if self.kube_client is None:
            return
        # kubelet registers its node unless --register-node=false.
        await self.register_with_api_server()
        # Go omitted: if err := kl.updateNodeStatus(); err != nil { -- nothing in the port reads the node's conditions, capacity updates or heartbeats back

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
        # Go's nodestatus.NodeAddress: --node-ip (one or a dual-stack pair), else a hostname
        # that is an IP, else DNS or the default route's interface. The simulated host has
        # neither of the last two: it answers with SIMULATED_HOST_IP.
        if self.node_ips:
            ips = list(self.node_ips)
        elif parse_ip(self.hostname) is not None:
            ips = [self.hostname]
        else:
            ips = [SIMULATED_HOST_IP]
        node.status.addresses = [NodeAddress(type=NodeInternalIP, address=ip) for ip in ips]
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
