"""The Node object kubelet builds for itself.

Go: pkg/kubelet/kubelet_node_status.go

Without an API server, ``getNodeAnyWay`` falls back to [`initial_node`][minikubelet.kubelet_node_status.KubeletNodeStatus.initial_node]: the
node as kubelet would register it. Admission reads it: its labels for ``nodeSelector`` and node
affinity, its allocatable resources for the fit. With an API server, kubelet posts the node's
status every 10 s ([`sync_node_status`][minikubelet.kubelet_node_status.KubeletNodeStatus.sync_node_status]),
with the pressure conditions the eviction manager reports.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from minikubelet.go import Millisecond, Second, sleep
from minikubelet.k8s_io.api.core.v1 import (
    Node,
    NodeAddress,
    NodeCondition,
    NodeHostName,
    NodeInternalIP,
    NodeSpec,
    NodeStatus,
    ResourceCPU,
    ResourceMemory,
)
from minikubelet.k8s_io.api.core.v1.zz_generated_deepcopy import deep_copy
from minikubelet.k8s_io.apimachinery.pkg.api.errors.errors import is_already_exists
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.types import ResourcePods
from minikubelet.k8s_io.kubernetes.pkg.util.node.node import parse_ip
from minikubelet.nodestatus.setters import (
    Setter,
    disk_pressure_condition,
    memory_pressure_condition,
    pid_pressure_condition,
)

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
#: How many times kubelet tries to post its node's status before it gives up until the next
#: period. Go: nodeStatusUpdateRetry (kubelet.go).
nodeStatusUpdateRetry = 5
#: kubelet posts an unchanged status at least this often (NodeStatusReportFrequency's default).
NODE_STATUS_REPORT_FREQUENCY = 5 * 60 * Second


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
        # Go: if err := kl.updateNodeStatus(); err != nil {
        try:
            self.update_node_status()
        except Exception as err:
            klog.error_s(err, "Unable to update node status")

    def update_node_status(self: Kubelet) -> None:
        """Post the node's status, trying a few times; raises when every try failed.

        Go: pkg/kubelet/kubelet_node_status.go (*Kubelet).updateNodeStatus
        """
        klog.v(5).info_s("Updating node status")
        for i in range(nodeStatusUpdateRetry):
            try:
                self.try_update_node_status(i)
            except Exception as err:
                # Go omitted: if i > 0 && kl.onRepeatedHeartbeatFailure != nil { -- it closes the heartbeat client's connections; the in-memory API server has none
                klog.error_s(err, "Error updating node status, will retry")
            else:
                return
        raise RuntimeError("update node status exceeds retry count")

    def try_update_node_status(self: Kubelet, try_number: int) -> None:
        """Read the node, fill in its status, and post it if it changed (or every five minutes).

        Go: pkg/kubelet/kubelet_node_status.go (*Kubelet).tryUpdateNodeStatus
        """
        # Go omitted: opts := metav1.GetOptions{} -- Go reads the first try from the API server's cache; there is one in-memory store here
        assert self.kube_client is not None  # sync_node_status returns without a client
        try:
            node = self.kube_client.get_node(self.node_name)
        except Exception as err:
            raise RuntimeError(f'error getting node "{self.node_name}": {err}') from err

        original_node = deep_copy(node)

        # Go omitted: podCIDRChanged := false -- no pod CIDR is ever set on the simulated node
        # Go: kl.setNodeStatus(node)
        self.set_node_status(node)

        now = self.clock.now()
        # Go: if now.Before(kl.lastStatusReportTime.Add(kl.nodeStatusReportFrequency)) {
        if now < self.last_status_report_time + NODE_STATUS_REPORT_FREQUENCY:
            if not node_status_has_changed(original_node.status, node.status):
                # Go omitted: kl.volumeManager.MarkVolumesAsReportedInUse(node.Status.VolumesInUse) -- no volume here is attached, so none is reported in use
                return

        # Go: updatedNode, _, err := nodeutil.PatchNodeStatus(kl.heartbeatClient.CoreV1(), types.NodeName(kl.nodeName), originalNode, node)
        self.kube_client.update_node_status(node)
        self.last_status_report_time = now
        # Go omitted: kl.setLastObservedNodeAddresses(updatedNode.Status.Addresses) -- only kubelet's server reads them back, and the port serves nothing

    def record_node_status_event(self: Kubelet, event_type: str, event: str) -> None:
        """An event on the node: ``Node <name> status is now: <event>``.

        Go: pkg/kubelet/kubelet_node_status.go (*Kubelet).recordNodeStatusEvent
        """
        klog.v(2).info_s(
            "Recording event message for node", node=klog.ObjectRef(self.node_name), event=event
        )
        self.recorder.eventf(
            self.node_ref, event_type, event, "Node %s status is now: %s", self.node_name, event
        )

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

        Go runs a list of setters (``defaultNodeStatusFuncs``: addresses, machine info, versions,
        conditions …); the port runs addresses and resources, whose results kubelet reads back,
        and the three pressure conditions the eviction manager reports.
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
        node.status.capacity = dict(capacity)
        node.status.allocatable = dict(capacity)
        # The rest of Go's setters (kl.setNodeStatusFuncs).
        for f in self.default_node_status_funcs():
            f(node)

    def default_node_status_funcs(self: Kubelet) -> list[Setter]:
        """The setters [`set_node_status`][] runs after the addresses and resources: the
        pressure conditions, as the eviction manager reports them.

        Go: pkg/kubelet/kubelet_node_status.go (*Kubelet).defaultNodeStatusFuncs

        Go's list starts with the addresses and the machine's resources (``set_node_status``
        fills both itself), then versions, daemon endpoints, images, the Go runtime and volume
        limits; after the pressure conditions come the ``Ready`` condition, the volumes in use
        and the schedulable event. Nothing in the port reads those back: they are left out.
        """
        return [
            memory_pressure_condition(
                self.clock.now,
                self.eviction_manager.is_under_memory_pressure,
                self.record_node_status_event,
            ),
            disk_pressure_condition(
                self.clock.now,
                self.eviction_manager.is_under_disk_pressure,
                self.record_node_status_event,
            ),
            pid_pressure_condition(
                self.clock.now,
                self.eviction_manager.is_under_pid_pressure,
                self.record_node_status_event,
            ),
        ]


def node_status_has_changed(original_status: NodeStatus | None, status: NodeStatus | None) -> bool:
    """Whether the status changed, heartbeat times aside.

    Go: pkg/kubelet/kubelet_node_status.go nodeStatusHasChanged
    """
    if original_status is None and status is None:
        return False
    if original_status is None or status is None:
        return True

    # Conditions first: their heartbeat times do not count.
    if node_conditions_have_changed(original_status.conditions, status.conditions):
        return True

    # Then the rest of the status.
    return dataclasses.replace(original_status, conditions=[]) != dataclasses.replace(
        status, conditions=[]
    )


def node_conditions_have_changed(
    original_conditions: list[NodeCondition], conditions: list[NodeCondition]
) -> bool:
    """Whether the conditions differ, by type, beyond their heartbeat times.

    Go: pkg/kubelet/kubelet_node_status.go nodeConditionsHaveChanged
    """
    if len(original_conditions) != len(conditions):
        return True

    original_conditions_copy = sorted(original_conditions, key=lambda c: c.type)
    conditions_copy = sorted(conditions, key=lambda c: c.type)

    for original, condition in zip(original_conditions_copy, conditions_copy, strict=True):
        if dataclasses.replace(original, last_heartbeat_time=None) != dataclasses.replace(
            condition, last_heartbeat_time=None
        ):
            return True
    return False
