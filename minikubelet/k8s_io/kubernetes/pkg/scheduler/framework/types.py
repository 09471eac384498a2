"""What the scheduler knows about a node: its allocatable resources, its pods and what they
request, the host ports they use.

Go: pkg/scheduler/framework/types.go

Only what kubelet's admission check needs is ported: [`Resource`][], [`NodeInfo`][] with
[`add_pod`][.NodeInfo.add_pod] and [`set_node`][.NodeInfo.set_node], and the host-port bookkeeping
([`HostPortInfo`][]). Left out, because admission never reads them: the scheduling queue's
types, affinity terms, image states, transient info, ``NonZeroRequested`` (used for scoring),
``RemovePod`` and ``Clone``.

Resource amounts are Python ints: CPU in millicores, memory and ephemeral storage in bytes,
and *scalar* resources (extended resources such as ``example.com/gpu``, hugepages, attachable
volumes) by name in ``scalar_resources``. Not modelled: pod overhead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minikubelet.k8s_io.api.core.v1 import (
    Node,
    Pod,
    ProtocolTCP,
    ResourceCPU,
    ResourceEphemeralStorage,
    ResourceList,
    ResourceMemory,
)
from minikubelet.k8s_io.kubernetes.pkg.scheduler.util import utils as schedutil

__all__ = [
    "DefaultBindAllHostIP",
    "HostPortInfo",
    "NodeInfo",
    "PodInfo",
    "ProtocolPort",
    "Resource",
    "ResourcePods",
    "calculate_resource",
    "new_node_info",
    "new_pod_info",
    "new_protocol_port",
    "new_resource",
]

#: Go: v1.ResourcePods, the number of pods a node can run. Not in [`minikubelet.k8s_io.api.core.v1`][minikubelet.k8s_io.api.core.v1] yet.
ResourcePods = "pods"

#: The address that means "every address of the host". Go: framework.DefaultBindAllHostIP
DefaultBindAllHostIP = "0.0.0.0"

# Go: the package variable ``generation``, bumped atomically (one thread here).
_generation = 0


def next_generation() -> int:
    """The next generation number; they never repeat.

    Go: pkg/scheduler/framework/types.go nextGeneration
    """
    global _generation
    _generation += 1
    return _generation


@dataclass(slots=True)
class PodInfo:
    """A pod, with what the scheduler precomputes about it (here: nothing else).

    Go: pkg/scheduler/framework/types.go type PodInfo

    Go also keeps the pod's inter-pod (anti-)affinity terms, for the scheduler; the API subset
    here has node affinity only, which admission reads from the pod itself.
    """

    pod: Pod


def new_pod_info(pod: Pod) -> PodInfo:
    """Go: pkg/scheduler/framework/types.go NewPodInfo"""
    return PodInfo(pod)


@dataclass(slots=True)
class Resource:
    """An amount of compute resources.

    Go: pkg/scheduler/framework/types.go type Resource
    """

    milli_cpu: int = 0
    memory: int = 0
    ephemeral_storage: int = 0
    #: Go stores ``Node.Status.Allocatable.Pods().Value()`` as an int, to avoid conversions.
    allowed_pod_number: int = 0
    #: Extended resources, hugepages, attachable volumes: name → amount (None until one is set).
    scalar_resources: dict[str, int] | None = None

    def clone(self) -> Resource:
        """Go: pkg/scheduler/framework/types.go (*Resource).Clone"""
        return Resource(
            milli_cpu=self.milli_cpu,
            memory=self.memory,
            ephemeral_storage=self.ephemeral_storage,
            allowed_pod_number=self.allowed_pod_number,
            scalar_resources=dict(self.scalar_resources) if self.scalar_resources else None,
        )

    def add(self, rl: ResourceList) -> None:
        """Add the amounts of a resource list.

        Go: pkg/scheduler/framework/types.go (*Resource).Add
        """
        for r_name, r_quant in rl.items():
            # Go: case v1.ResourceCPU:
            if r_name == ResourceCPU:
                self.milli_cpu += r_quant.milli_value()
            # Go: case v1.ResourceMemory:
            elif r_name == ResourceMemory:
                self.memory += r_quant.value()
            # Go: case v1.ResourcePods:
            elif r_name == ResourcePods:
                self.allowed_pod_number += r_quant.value()
            # Go: case v1.ResourceEphemeralStorage:
            elif r_name == ResourceEphemeralStorage:
                # Go checks the LocalStorageCapacityIsolation feature gate first; it is on by
                # default in v1.21, and always on here.
                self.ephemeral_storage += r_quant.value()
            # Go: default:
            elif schedutil.is_scalar_resource_name(r_name):
                self.add_scalar(r_name, r_quant.value())

    def add_scalar(self, name: str, quantity: int) -> None:
        """Go: pkg/scheduler/framework/types.go (*Resource).AddScalar"""
        self.set_scalar(name, (self.scalar_resources or {}).get(name, 0) + quantity)

    def set_scalar(self, name: str, quantity: int) -> None:
        """Go: pkg/scheduler/framework/types.go (*Resource).SetScalar"""
        if self.scalar_resources is None:
            self.scalar_resources = {}
        self.scalar_resources[name] = quantity

    def set_max_resource(self, rl: ResourceList) -> None:
        """Raise each amount to the one in ``rl`` if that is larger.

        Go: pkg/scheduler/framework/types.go (*Resource).SetMaxResource
        """
        for r_name, r_quantity in rl.items():
            # Go: case v1.ResourceMemory:
            if r_name == ResourceMemory:
                mem = r_quantity.value()
                if mem > self.memory:
                    self.memory = mem
            # Go: case v1.ResourceCPU:
            elif r_name == ResourceCPU:
                cpu = r_quantity.milli_value()
                if cpu > self.milli_cpu:
                    self.milli_cpu = cpu
            # Go: case v1.ResourceEphemeralStorage:
            elif r_name == ResourceEphemeralStorage:
                # LocalStorageCapacityIsolation: on (see add).
                ephemeral_storage = r_quantity.value()
                if ephemeral_storage > self.ephemeral_storage:
                    self.ephemeral_storage = ephemeral_storage
            # Go: default:
            elif schedutil.is_scalar_resource_name(r_name):
                value = r_quantity.value()
                if value > (self.scalar_resources or {}).get(r_name, 0):
                    self.set_scalar(r_name, value)


def new_resource(rl: ResourceList) -> Resource:
    """A [`Resource`][] holding the amounts of ``rl``.

    Go: pkg/scheduler/framework/types.go NewResource
    """
    r = Resource()
    r.add(rl)
    return r


@dataclass(frozen=True, slots=True)
class ProtocolPort:
    """A protocol and port pair, such as TCP 80.

    Go: pkg/scheduler/framework/types.go type ProtocolPort
    """

    protocol: str
    port: int


def new_protocol_port(protocol: str, port: int) -> ProtocolPort:
    """A [`ProtocolPort`][]; an empty protocol means TCP.

    Go: pkg/scheduler/framework/types.go NewProtocolPort
    """
    if len(protocol) == 0:
        protocol = str(ProtocolTCP)
    return ProtocolPort(protocol, port)


class HostPortInfo(dict[str, set[ProtocolPort]]):
    """The host ports in use on a node: host IP → set of (protocol, port).

    Go: pkg/scheduler/framework/types.go type HostPortInfo
    """

    def add(self, ip: str, protocol: str, port: int) -> None:
        """Record that ``ip``:``port``/``protocol`` is in use. Port 0 (none) is ignored.

        Go: pkg/scheduler/framework/types.go (HostPortInfo).Add
        """
        if port <= 0:
            return

        ip, protocol = self.sanitize(ip, protocol)

        pp = new_protocol_port(protocol, port)
        if ip not in self:
            self[ip] = {pp}
            return

        self[ip].add(pp)

    def remove(self, ip: str, protocol: str, port: int) -> None:
        """Record that ``ip``:``port``/``protocol`` is free again.

        Go: pkg/scheduler/framework/types.go (HostPortInfo).Remove
        """
        if port <= 0:
            return

        ip, protocol = self.sanitize(ip, protocol)

        pp = new_protocol_port(protocol, port)
        m = self.get(ip)
        if m is not None:
            m.discard(pp)
            if len(self[ip]) == 0:
                del self[ip]

    def check_conflict(self, ip: str, protocol: str, port: int) -> bool:
        """Whether ``ip``:``port``/``protocol`` is already taken. ``0.0.0.0`` conflicts with
        the port on any address, and any address conflicts with ``0.0.0.0``.

        Go: pkg/scheduler/framework/types.go (HostPortInfo).CheckConflict
        """
        if port <= 0:
            return False

        ip, protocol = self.sanitize(ip, protocol)

        pp = new_protocol_port(protocol, port)

        # 0.0.0.0 takes the port on every address, so it clashes with any user of the port; a
        # given address clashes only with itself and with 0.0.0.0.
        if ip == DefaultBindAllHostIP:
            return any(pp in m for m in self.values())

        for key in (DefaultBindAllHostIP, ip):
            m = self.get(key)
            if m is not None and pp in m:
                return True

        return False

    @staticmethod
    def sanitize(ip: str, protocol: str) -> tuple[str, str]:
        """An empty IP means ``0.0.0.0``, an empty protocol TCP. Go changes its arguments
        through pointers; this returns them.

        Go: pkg/scheduler/framework/types.go (HostPortInfo).sanitize
        """
        if len(ip) == 0:
            ip = DefaultBindAllHostIP
        if len(protocol) == 0:
            protocol = str(ProtocolTCP)
        return ip, protocol


@dataclass(slots=True)
class NodeInfo:
    """A node with the pods on it: what is allocatable, what those pods request, which host
    ports they use.

    Go: pkg/scheduler/framework/types.go type NodeInfo
    """

    #: Overall node information (Go: the unexported ``node``; read it with [`node`][]).
    _node: Node | None = None
    pods: list[PodInfo] = field(default_factory=list)
    #: Host ports taken, by host IP.
    used_ports: HostPortInfo = field(default_factory=HostPortInfo)
    #: The sum of the requests of ``pods`` (init containers counted as the scheduler does).
    requested: Resource = field(default_factory=Resource)
    #: The node's ``status.allocatable``, as numbers.
    allocatable: Resource = field(default_factory=Resource)
    #: A process-wide counter's value at the last change (Go's scheduler cache compares them).
    generation: int = 0

    def node(self) -> Node | None:
        """Overall information about this node.

        Go: pkg/scheduler/framework/types.go (*NodeInfo).Node
        """
        return self._node

    def clone(self) -> NodeInfo:
        """A copy that can be changed without changing this one.

        Go: pkg/scheduler/framework/types.go (*NodeInfo).Clone
        """
        used_ports = HostPortInfo()
        for ip, port_set in self.used_ports.items():
            used_ports[ip] = set(port_set)
        return NodeInfo(
            _node=self._node,
            pods=list(self.pods),
            used_ports=used_ports,
            requested=self.requested.clone(),
            allocatable=self.allocatable.clone(),
            generation=self.generation,
        )

    def add_pod_info(self, pod_info: PodInfo) -> None:
        """Account for a pod: its requests and its host ports.

        Go: pkg/scheduler/framework/types.go (*NodeInfo).AddPodInfo

        Go also sums ``NonZeroRequested`` (for scoring) and lists the pods with affinity; neither
        is kept here.
        """
        res = calculate_resource(pod_info.pod)
        self.requested.milli_cpu += res.milli_cpu
        self.requested.memory += res.memory
        self.requested.ephemeral_storage += res.ephemeral_storage
        if res.scalar_resources:
            requested = self.requested.scalar_resources
            if requested is None:
                requested = self.requested.scalar_resources = {}
            for r_name, r_quant in res.scalar_resources.items():
                requested[r_name] = requested.get(r_name, 0) + r_quant
        self.pods.append(pod_info)

        self.update_used_ports(pod_info.pod, True)

        self.generation = next_generation()

    def add_pod(self, pod: Pod) -> None:
        """Go: pkg/scheduler/framework/types.go (*NodeInfo).AddPod"""
        self.add_pod_info(new_pod_info(pod))

    def update_used_ports(self, pod: Pod, add: bool) -> None:
        """Record (or, Go, release) the host ports of the pod's containers.

        Go: pkg/scheduler/framework/types.go (*NodeInfo).updateUsedPorts

        """
        for container in pod.spec.containers:
            for pod_port in container.ports:
                protocol = str(pod_port.protocol)
                if add:
                    self.used_ports.add(pod_port.host_ip, protocol, pod_port.host_port)
                else:
                    self.used_ports.remove(pod_port.host_ip, protocol, pod_port.host_port)

    def set_node(self, node: Node) -> None:
        """Set the node, and read its allocatable resources.

        Go: pkg/scheduler/framework/types.go (*NodeInfo).SetNode
        """
        self._node = node
        self.allocatable = new_resource(node.status.allocatable)
        self.generation = next_generation()


def new_node_info(*pods: Pod) -> NodeInfo:
    """A [`NodeInfo`][] without a node, accounting for ``pods``.

    Go: pkg/scheduler/framework/types.go NewNodeInfo
    """
    ni = NodeInfo(generation=next_generation())
    for pod in pods:
        ni.add_pod(pod)
    return ni


def calculate_resource(pod: Pod) -> Resource:
    """What a pod requests: the sum of its containers' requests, raised to the largest init
    container's request in each dimension (init containers run one at a time).

    Go: pkg/scheduler/framework/types.go calculateResource

    Go also returns the "non-zero" CPU and memory (a default for containers that request none),
    which only the scheduler's scoring reads; it is left out. Pod overhead is ignored: the api
    has no ``PodSpec.overhead`` (RuntimeClass is not modelled).
    """
    res = Resource()
    for c in pod.spec.containers:
        res.add(c.resources.requests)

    for ic in pod.spec.init_containers:
        res.set_max_resource(ic.resources.requests)

    return res
