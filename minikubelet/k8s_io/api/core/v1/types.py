"""The part of the Kubernetes core/v1 API that kubelet's pod-creation path reads.

Go: staging/src/k8s.io/api/core/v1/types.go

Each Go struct is a dataclass here with the same fields in ``snake_case`` (``ImagePullPolicy`` →
``image_pull_policy``); its docstring names the Go type. Only the fields the port uses are kept;
the loader ([`minikubelet.config.manifest`][minikubelet.config.manifest]) ignores the others, as kubelet's
decoder does.

Differences from Go, on purpose:

* **Defaults.** A field's Python default is the value the API server's *defaulting* gives it
  (``restart_policy=Always``, ``termination_grace_period_seconds=30``, a probe's
  ``period_seconds=10`` …), not Go's zero value, so a pod built by hand in Python reads like a
  pod loaded from YAML. Defaults that depend on other fields (a container's image pull policy,
  requests copied from limits) are applied by [`set_object_defaults_pod`][minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.zz_generated_defaults.set_object_defaults_pod],
  which the loader always calls.
* **Namespace.** ``ObjectMeta.namespace`` defaults to ``""``, not ``"default"``: kubelet sets
  ``"default"`` on static pods itself (``applyDefaults`` in pkg/kubelet/config/common.go), and the
  port's config layer does the same.
* **Times** (``metav1.Time``) are ``float`` seconds since the Unix epoch, or ``None`` when unset.
* **Embedded structs** are flattened where Go promotes their fields: a [`Probe`][] has
  ``exec``/``http_get``/``tcp_socket`` itself (Go embeds a ``Handler``), and a [`Volume`][]
  keeps its one volume source in ``volume_source`` (Go embeds ``VolumeSource``).
* **Enums** are ``enum.StrEnum``, so ``RestartPolicy.ALWAYS == "Always"``. Go's constant
  names are also defined (``PodPending``, ``RestartPolicyAlways`` …), so ported code can say
  ``v1.PodPending`` as Go does.

**The dataclasses are the only declaration of the manifest format.** Reading a manifest into
them and writing them back
([`minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json`][minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json]) follows each field's
name, annotation and default, as Go's decoder follows the struct tags. To **add a field**:

1. add it to its dataclass, in Go's order, with Go's type (``int32``/``int64`` from
   [`minikubelet.go.ints`][minikubelet.go.ints], [`Time`][minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1.time.Time],
   an enum, another dataclass, ``X | None`` for a Go pointer) and the default the API server
   gives it. Its name in manifests is the field's name in camelCase with Go's initialisms
   (``host_ip`` → ``hostIP``); write ``field(metadata={"json": "name"})`` only where Go's tag
   says otherwise. A new struct is a new dataclass here (the ``v1`` package exports it);
2. add its checks to [`minikubelet.k8s_io.kubernetes.pkg.apis.core.validation.validation`][minikubelet.k8s_io.kubernetes.pkg.apis.core.validation.validation];
3. if the API server defaults it from other fields, add that to
   [`minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.defaults`][minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.defaults].

Decoding (type checks, errors naming the field), writing back and the round trip come with
step 1; ``tests/api/test_roundtrip.py`` builds pods from every field of every dataclass, so a
new field is covered there without a new test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from minikubelet.go import fmt as go_fmt
from minikubelet.go.ints import int32, int64
from minikubelet.k8s_io.api.core.v1 import generated_pb
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1.time import Time

# --- Constants -----------------------------------------------------------------------------

#: The namespace of objects that do not name one. Go: ``v1.NamespaceDefault``.
NamespaceDefault = "default"
#: Go: ``v1.NamespaceAll`` (used to mean "every namespace").
NamespaceAll = ""
#: Where a container writes why it ended. Go: ``v1.TerminationMessagePathDefault``.
TerminationMessagePathDefault = "/dev/termination-log"
#: Seconds a pod gets to stop before it is killed. Go: ``v1.DefaultTerminationGracePeriodSeconds``.
DefaultTerminationGracePeriodSeconds = 30


class ResourceName(str):
    """Go: staging/src/k8s.io/api/core/v1/types.go type ResourceName

    The port keeps resource names as plain ``str`` (the keys of a ``ResourceList``). Where Go
    hands a ``v1.ResourceName`` to klog, the port wraps it in this type: a named string type is
    not a ``string`` to klog's type switch, so klog prints it bare (``resourceName=memory``, not
    ``resourceName="memory"``), as it prints [`UID`][minikubelet.k8s_io.apimachinery.pkg.types.uid.UID].
    """

    __slots__ = ()


#: Go: ``v1.ResourceCPU`` (in cores; ``"500m"`` is half a core).
ResourceCPU = "cpu"
#: Go: ``v1.ResourceMemory`` (in bytes).
ResourceMemory = "memory"
#: Go: ``v1.ResourceEphemeralStorage`` (in bytes).
ResourceEphemeralStorage = "ephemeral-storage"
#: Go: ``v1.ResourceHugePagesPrefix``.
ResourceHugePagesPrefix = "hugepages-"
#: Go: ``v1.ResourceDefaultNamespacePrefix``.
ResourceDefaultNamespacePrefix = "kubernetes.io/"
#: Go: ``v1.ResourceAttachableVolumesPrefix``, the prefix of a node's attachable-volume limits.
ResourceAttachableVolumesPrefix = "attachable-volumes-"
#: Go: ``v1.DefaultResourceRequestsPrefix``, the prefix of a resource quota's request names.
DefaultResourceRequestsPrefix = "requests."

#: A minikubelet annotation, reserved for scripting a container's life in the fake runtime
#: (when it exits, with which code …). Nothing in [`minikubelet.k8s_io.api.core.v1`][minikubelet.k8s_io.api.core.v1] interprets it; the
#: loader keeps every annotation as a string, this one included. Kubernetes itself ignores it.
MinikubeletScenarioAnnotation = "minikubelet.dev/scenario"


# --- Enums ---------------------------------------------------------------------------------


class RestartPolicy(StrEnum):
    """When kubelet restarts a pod's containers.

    Go: staging/src/k8s.io/api/core/v1/types.go type RestartPolicy
    """

    ALWAYS = "Always"
    ON_FAILURE = "OnFailure"
    NEVER = "Never"


class PullPolicy(StrEnum):
    """When kubelet pulls a container's image.

    Go: staging/src/k8s.io/api/core/v1/types.go type PullPolicy
    """

    ALWAYS = "Always"
    NEVER = "Never"
    IF_NOT_PRESENT = "IfNotPresent"


class Protocol(StrEnum):
    """A port's protocol.

    Go: staging/src/k8s.io/api/core/v1/types.go type Protocol
    """

    TCP = "TCP"
    UDP = "UDP"
    SCTP = "SCTP"


class DNSPolicy(StrEnum):
    """How a pod's DNS is set up.

    Go: staging/src/k8s.io/api/core/v1/types.go type DNSPolicy
    """

    CLUSTER_FIRST_WITH_HOST_NET = "ClusterFirstWithHostNet"
    CLUSTER_FIRST = "ClusterFirst"
    DEFAULT = "Default"
    NONE = "None"


class URIScheme(StrEnum):
    """The scheme of an HTTP probe.

    Go: staging/src/k8s.io/api/core/v1/types.go type URIScheme
    """

    HTTP = "HTTP"
    HTTPS = "HTTPS"


class TerminationMessagePolicy(StrEnum):
    """Where a container's termination message comes from.

    Go: staging/src/k8s.io/api/core/v1/types.go type TerminationMessagePolicy
    """

    READ_FILE = "File"
    FALLBACK_TO_LOGS_ON_ERROR = "FallbackToLogsOnError"


class PodPhase(StrEnum):
    """Where a pod is in its life.

    Go: staging/src/k8s.io/api/core/v1/types.go type PodPhase
    """

    PENDING = "Pending"
    RUNNING = "Running"
    SUCCEEDED = "Succeeded"
    FAILED = "Failed"
    UNKNOWN = "Unknown"


class PodConditionType(StrEnum):
    """The well-known pod condition types. A condition's ``type`` may also be another string.

    Go: staging/src/k8s.io/api/core/v1/types.go type PodConditionType
    """

    CONTAINERS_READY = "ContainersReady"
    INITIALIZED = "Initialized"
    READY = "Ready"
    POD_SCHEDULED = "PodScheduled"


class ConditionStatus(StrEnum):
    """Whether a condition holds.

    Go: staging/src/k8s.io/api/core/v1/types.go type ConditionStatus
    """

    TRUE = "True"
    FALSE = "False"
    UNKNOWN = "Unknown"


class PodQOSClass(StrEnum):
    """A pod's quality-of-service class, from its containers' requests and limits.

    Go: staging/src/k8s.io/api/core/v1/types.go type PodQOSClass
    """

    GUARANTEED = "Guaranteed"
    BURSTABLE = "Burstable"
    BEST_EFFORT = "BestEffort"


class TolerationOperator(StrEnum):
    """How a toleration matches a taint.

    Go: staging/src/k8s.io/api/core/v1/types.go type TolerationOperator
    """

    EXISTS = "Exists"
    EQUAL = "Equal"


class NodeSelectorOperator(StrEnum):
    """How a node selector requirement compares a node's label (or field) with its values.

    Go: staging/src/k8s.io/api/core/v1/types.go type NodeSelectorOperator
    """

    IN = "In"
    NOT_IN = "NotIn"
    EXISTS = "Exists"
    DOES_NOT_EXIST = "DoesNotExist"
    GT = "Gt"
    LT = "Lt"


class NodeConditionType(StrEnum):
    """A condition kubelet reports on its node.

    Go: staging/src/k8s.io/api/core/v1/types.go type NodeConditionType
    """

    READY = "Ready"
    MEMORY_PRESSURE = "MemoryPressure"
    DISK_PRESSURE = "DiskPressure"
    PID_PRESSURE = "PIDPressure"
    NETWORK_UNAVAILABLE = "NetworkUnavailable"


class TaintEffect(StrEnum):
    """What a taint does to pods that do not tolerate it.

    Go: staging/src/k8s.io/api/core/v1/types.go type TaintEffect
    """

    NO_SCHEDULE = "NoSchedule"
    PREFER_NO_SCHEDULE = "PreferNoSchedule"
    NO_EXECUTE = "NoExecute"


# Go's constant names, so that ported code reads like Go (``v1.PodPending``).
RestartPolicyAlways = RestartPolicy.ALWAYS
RestartPolicyOnFailure = RestartPolicy.ON_FAILURE
RestartPolicyNever = RestartPolicy.NEVER
PullAlways = PullPolicy.ALWAYS
PullNever = PullPolicy.NEVER
PullIfNotPresent = PullPolicy.IF_NOT_PRESENT
ProtocolTCP = Protocol.TCP
ProtocolUDP = Protocol.UDP
ProtocolSCTP = Protocol.SCTP
DNSClusterFirstWithHostNet = DNSPolicy.CLUSTER_FIRST_WITH_HOST_NET
DNSClusterFirst = DNSPolicy.CLUSTER_FIRST
DNSDefault = DNSPolicy.DEFAULT
DNSNone = DNSPolicy.NONE
URISchemeHTTP = URIScheme.HTTP
URISchemeHTTPS = URIScheme.HTTPS
TerminationMessageReadFile = TerminationMessagePolicy.READ_FILE
TerminationMessageFallbackToLogsOnError = TerminationMessagePolicy.FALLBACK_TO_LOGS_ON_ERROR
PodPending = PodPhase.PENDING
PodRunning = PodPhase.RUNNING
PodSucceeded = PodPhase.SUCCEEDED
PodFailed = PodPhase.FAILED
PodUnknown = PodPhase.UNKNOWN
ContainersReady = PodConditionType.CONTAINERS_READY
PodInitialized = PodConditionType.INITIALIZED
PodReady = PodConditionType.READY
PodScheduled = PodConditionType.POD_SCHEDULED
ConditionTrue = ConditionStatus.TRUE
ConditionFalse = ConditionStatus.FALSE
ConditionUnknown = ConditionStatus.UNKNOWN
PodQOSGuaranteed = PodQOSClass.GUARANTEED
PodQOSBurstable = PodQOSClass.BURSTABLE
PodQOSBestEffort = PodQOSClass.BEST_EFFORT
TolerationOpExists = TolerationOperator.EXISTS
TolerationOpEqual = TolerationOperator.EQUAL
NodeSelectorOpIn = NodeSelectorOperator.IN
NodeSelectorOpNotIn = NodeSelectorOperator.NOT_IN
NodeSelectorOpExists = NodeSelectorOperator.EXISTS
NodeSelectorOpDoesNotExist = NodeSelectorOperator.DOES_NOT_EXIST
NodeSelectorOpGt = NodeSelectorOperator.GT
NodeSelectorOpLt = NodeSelectorOperator.LT
NodeReady = NodeConditionType.READY
NodeMemoryPressure = NodeConditionType.MEMORY_PRESSURE
NodeDiskPressure = NodeConditionType.DISK_PRESSURE
NodePIDPressure = NodeConditionType.PID_PRESSURE
NodeNetworkUnavailable = NodeConditionType.NETWORK_UNAVAILABLE
TaintEffectNoSchedule = TaintEffect.NO_SCHEDULE
TaintEffectPreferNoSchedule = TaintEffect.PREFER_NO_SCHEDULE
TaintEffectNoExecute = TaintEffect.NO_EXECUTE

#: A resource name → quantity map, e.g. ``{"cpu": Quantity.parse("500m")}``.
#: Go: staging/src/k8s.io/api/core/v1/types.go type ResourceList
ResourceList = dict[str, Quantity]


# --- Probes and hooks ----------------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class ExecAction:
    """Run a command in the container; exit code 0 means success.

    Go: staging/src/k8s.io/api/core/v1/types.go type ExecAction
    """

    command: list[str] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class HTTPHeader:
    """A header sent by an HTTP probe.

    Go: staging/src/k8s.io/api/core/v1/types.go type HTTPHeader
    """

    name: str
    value: str = ""


@dataclass(slots=True, kw_only=True)
class HTTPGetAction:
    """An HTTP GET; a status from 200 to 399 means success.

    Go: staging/src/k8s.io/api/core/v1/types.go type HTTPGetAction

    ``port`` is a number or the name of a container port (Go: ``intstr.IntOrString``).
    """

    path: str = "/"
    port: int | str = 0
    host: str = ""
    scheme: URIScheme = URIScheme.HTTP
    http_headers: list[HTTPHeader] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class TCPSocketAction:
    """Open a TCP connection; success if it opens.

    Go: staging/src/k8s.io/api/core/v1/types.go type TCPSocketAction
    """

    port: int | str = 0
    host: str = ""


@dataclass(slots=True, kw_only=True)
class Handler:
    """One action: exactly one of ``exec``, ``http_get`` or ``tcp_socket`` is set.

    Go: staging/src/k8s.io/api/core/v1/types.go type Handler
    """

    exec: ExecAction | None = None
    http_get: HTTPGetAction | None = None
    tcp_socket: TCPSocketAction | None = None


@dataclass(slots=True, kw_only=True)
class Lifecycle:
    """Hooks run after a container starts and before it is stopped.

    Go: staging/src/k8s.io/api/core/v1/types.go type Lifecycle
    """

    post_start: Handler | None = None
    pre_stop: Handler | None = None


@dataclass(slots=True, kw_only=True)
class Probe:
    """A health check kubelet runs against a container.

    Go: staging/src/k8s.io/api/core/v1/types.go type Probe

    Go embeds a [`Handler`][]; its three fields are flattened here, and [`handler`][] gives
    them back as one object. The numbers default as the API server defaults them.
    """

    exec: ExecAction | None = None
    http_get: HTTPGetAction | None = None
    tcp_socket: TCPSocketAction | None = None
    initial_delay_seconds: int32 = 0
    timeout_seconds: int32 = 1
    period_seconds: int32 = 10
    success_threshold: int32 = 1
    failure_threshold: int32 = 3

    @property
    def handler(self) -> Handler:
        """The probe's action as a [`Handler`][] (Go: the embedded ``Probe.Handler``)."""
        return Handler(exec=self.exec, http_get=self.http_get, tcp_socket=self.tcp_socket)


# --- Containers ----------------------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class ContainerPort:
    """A port a container listens on.

    Go: staging/src/k8s.io/api/core/v1/types.go type ContainerPort
    """

    container_port: int32
    name: str = ""
    host_port: int32 = 0
    protocol: Protocol = Protocol.TCP
    host_ip: str = ""


@dataclass(slots=True, kw_only=True)
class EnvVar:
    """An environment variable. ``value_from`` (a reference to a field, secret …) is kept as the
    manifest wrote it and not interpreted.

    Go: staging/src/k8s.io/api/core/v1/types.go type EnvVar
    """

    name: str
    value: str = ""
    value_from: dict[str, Any] | None = None


@dataclass(slots=True, kw_only=True)
class ResourceRequirements:
    """Requests and limits of CPU, memory and other resources.

    Go: staging/src/k8s.io/api/core/v1/types.go type ResourceRequirements
    """

    limits: ResourceList = field(default_factory=dict)
    requests: ResourceList = field(default_factory=dict)

    def cpu_millis(self, which: Literal["requests", "limits"] = "requests") -> int:
        """CPU in millicores (``"500m"`` → 500, ``"2"`` → 2000); 0 when not set."""
        # resource.go's helpers import this module, so they are imported when called.
        from minikubelet.k8s_io.api.core.v1.resource import resource_list_cpu

        return resource_list_cpu(getattr(self, which)).milli_value()

    def memory_bytes(self, which: Literal["requests", "limits"] = "requests") -> int:
        """Memory in bytes (``"128Mi"`` → 134217728); 0 when not set."""
        from minikubelet.k8s_io.api.core.v1.resource import resource_list_memory

        return resource_list_memory(getattr(self, which)).value()


@dataclass(slots=True, kw_only=True)
class VolumeMount:
    """Where a pod volume appears inside a container.

    Go: staging/src/k8s.io/api/core/v1/types.go type VolumeMount
    """

    name: str
    mount_path: str
    read_only: bool = False
    sub_path: str = ""


@dataclass(slots=True, kw_only=True)
class Container:
    """One container of a pod (or an init container).

    Go: staging/src/k8s.io/api/core/v1/types.go type Container

    ``image_pull_policy`` is ``None`` until defaulting sets it from the image's tag (``Always``
    for ``:latest`` or no tag, else ``IfNotPresent``); the loader always does that.

    A Go Stringer through a pointer: kubelet prints a ``*v1.Container`` as
    [`container_string`][minikubelet.k8s_io.api.core.v1.generated_pb.container_string] makes it
    (``fmt.Ptr(container)`` in the port; see [`minikubelet.go.fmt`][minikubelet.go.fmt]).
    """

    go_stringer = True
    go_pointer_receiver = True

    name: str
    image: str
    command: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)
    working_dir: str = ""
    ports: list[ContainerPort] = field(default_factory=list)
    env: list[EnvVar] = field(default_factory=list)
    resources: ResourceRequirements = field(default_factory=ResourceRequirements)
    volume_mounts: list[VolumeMount] = field(default_factory=list)
    liveness_probe: Probe | None = None
    readiness_probe: Probe | None = None
    startup_probe: Probe | None = None
    lifecycle: Lifecycle | None = None
    termination_message_path: str = TerminationMessagePathDefault
    termination_message_policy: TerminationMessagePolicy = TerminationMessagePolicy.READ_FILE
    image_pull_policy: PullPolicy | None = None
    stdin: bool = False
    stdin_once: bool = False
    tty: bool = False

    def __str__(self) -> str:
        """What the generated ``String()`` gives (see [`container_string`][minikubelet.k8s_io.api.core.v1.generated_pb.container_string])."""
        return generated_pb.container_string(self)


# --- Pod spec ------------------------------------------------------------------------------


#: The kinds of volume a Volume may have, spelled as in YAML (the fields of Go's VolumeSource).
VolumeSourceTypes = (
    "hostPath",
    "emptyDir",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "gitRepo",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "persistentVolumeClaim",
    "rbd",
    "flexVolume",
    "cinder",
    "cephfs",
    "flocker",
    "downwardAPI",
    "fc",
    "azureFile",
    "configMap",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "projected",
    "portworxVolume",
    "scaleIO",
    "storageos",
    "csi",
    "ephemeral",
)


@dataclass(slots=True, kw_only=True)
class Volume:
    """A named volume of a pod.

    Go: staging/src/k8s.io/api/core/v1/types.go type Volume

    Go embeds a ``VolumeSource`` with one pointer per kind of volume, of which one is set. Here
    ``volume_source`` maps that one kind, spelled as in YAML, to its settings, kept as written:
    ``{"hostPath": {"path": "/var/log"}}``. Defaulting turns an empty one into
    ``{"emptyDir": {}}``, as the API server does.
    """

    name: str
    volume_source: dict[str, dict[str, Any]] = field(
        default_factory=dict, metadata={"json": ",inline", "keys": VolumeSourceTypes}
    )


@dataclass(slots=True, kw_only=True)
class LocalObjectReference:
    """The name of an object in the same namespace (here: an image pull secret).

    Go: staging/src/k8s.io/api/core/v1/types.go type LocalObjectReference
    """

    name: str = ""


@dataclass(slots=True, kw_only=True)
class Toleration:
    """Lets a pod run on a node with a matching taint.

    Go: staging/src/k8s.io/api/core/v1/types.go type Toleration

    ``operator`` ``None`` means ``Equal``; ``effect`` ``None`` matches every effect.
    """

    key: str = ""
    operator: TolerationOperator | None = None
    value: str = ""
    effect: TaintEffect | None = None
    toleration_seconds: int64 | None = None


@dataclass(slots=True, kw_only=True)
class Taint:
    """A mark on a node that keeps off the pods that do not tolerate it.

    Go: staging/src/k8s.io/api/core/v1/types.go type Taint
    """

    key: str
    value: str = ""
    effect: TaintEffect | None = None
    time_added: Time | None = None


@dataclass(slots=True, kw_only=True)
class Sysctl:
    """A kernel parameter to set in the pod's namespaces.

    Go: staging/src/k8s.io/api/core/v1/types.go type Sysctl
    """

    name: str = ""
    value: str = ""


@dataclass(slots=True, kw_only=True)
class PodSecurityContext:
    """Security settings for the whole pod.

    Go: staging/src/k8s.io/api/core/v1/types.go type PodSecurityContext

    Only ``sysctls`` is kept: kubelet's sysctl admit handler reads it. The user, group, SELinux
    and seccomp settings go to the runtime, which is simulated, so a manifest's are ignored.
    """

    sysctls: list[Sysctl] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class NodeSelectorRequirement:
    """One condition on a node's label (``matchExpressions``) or field (``matchFields``).

    Go: staging/src/k8s.io/api/core/v1/types.go type NodeSelectorRequirement

    ``operator`` is required (validation says so when it is ``None``).
    """

    key: str = ""
    operator: NodeSelectorOperator | None = None
    values: list[str] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class NodeSelectorTerm:
    """Requirements that must all hold; an empty term matches no node.

    Go: staging/src/k8s.io/api/core/v1/types.go type NodeSelectorTerm
    """

    match_expressions: list[NodeSelectorRequirement] = field(default_factory=list)
    match_fields: list[NodeSelectorRequirement] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class NodeSelector:
    """Terms of which at least one must hold.

    Go: staging/src/k8s.io/api/core/v1/types.go type NodeSelector
    """

    node_selector_terms: list[NodeSelectorTerm] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class PreferredSchedulingTerm:
    """A term the scheduler prefers, with its weight; kubelet does not read it.

    Go: staging/src/k8s.io/api/core/v1/types.go type PreferredSchedulingTerm
    """

    weight: int32 = 0
    preference: NodeSelectorTerm = field(default_factory=NodeSelectorTerm)


@dataclass(slots=True, kw_only=True)
class NodeAffinity:
    """Which nodes the pod may run on (required) and prefers (preferred).

    Go: staging/src/k8s.io/api/core/v1/types.go type NodeAffinity
    """

    required_during_scheduling_ignored_during_execution: NodeSelector | None = None
    preferred_during_scheduling_ignored_during_execution: list[PreferredSchedulingTerm] = field(
        default_factory=list
    )


@dataclass(slots=True, kw_only=True)
class Affinity:
    """The pod's scheduling constraints.

    Go: staging/src/k8s.io/api/core/v1/types.go type Affinity

    Only ``nodeAffinity`` is kept: kubelet's admission reads it. Go's ``podAffinity`` and
    ``podAntiAffinity`` are for the scheduler alone, so a manifest's are ignored, as unknown
    fields are.
    """

    node_affinity: NodeAffinity | None = None


@dataclass(slots=True, kw_only=True)
class PodSpec:
    """What a pod should run, and how.

    Go: staging/src/k8s.io/api/core/v1/types.go type PodSpec
    """

    volumes: list[Volume] = field(default_factory=list)
    init_containers: list[Container] = field(default_factory=list)
    containers: list[Container] = field(default_factory=list)
    restart_policy: RestartPolicy = RestartPolicy.ALWAYS
    termination_grace_period_seconds: int64 | None = DefaultTerminationGracePeriodSeconds
    active_deadline_seconds: int64 | None = None
    dns_policy: DNSPolicy = DNSPolicy.CLUSTER_FIRST
    node_selector: dict[str, str] = field(default_factory=dict)
    service_account_name: str = ""
    node_name: str = ""
    host_network: bool = False
    host_pid: bool = False
    host_ipc: bool = False
    security_context: PodSecurityContext | None = None
    image_pull_secrets: list[LocalObjectReference] = field(default_factory=list)
    hostname: str = ""
    subdomain: str = ""
    affinity: Affinity | None = None
    tolerations: list[Toleration] = field(default_factory=list)
    priority_class_name: str = ""
    priority: int32 | None = None


# --- Pod status ----------------------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class PodCondition:
    """One condition of a pod (``Ready``, ``Initialized`` …) and when it last changed.

    Go: staging/src/k8s.io/api/core/v1/types.go type PodCondition
    """

    type: str
    status: ConditionStatus
    last_probe_time: Time | None = None
    last_transition_time: Time | None = None
    reason: str = ""
    message: str = ""

    def go_fields(self) -> list[tuple[str, Any]]:
        """The struct as Go's fmt prints it (see [`minikubelet.go.fmt`][minikubelet.go.fmt])."""
        return [
            ("Type", self.type),
            ("Status", self.status),
            ("LastProbeTime", go_fmt.Time(self.last_probe_time)),
            ("LastTransitionTime", go_fmt.Time(self.last_transition_time)),
            ("Reason", self.reason),
            ("Message", self.message),
        ]


@dataclass(slots=True, kw_only=True)
class ContainerStateWaiting:
    """A container that is not running yet, and why (``ContainerCreating``, ``CrashLoopBackOff``).

    Go: staging/src/k8s.io/api/core/v1/types.go type ContainerStateWaiting
    """

    go_stringer = True
    go_pointer_receiver = True

    reason: str = ""
    message: str = ""

    def __str__(self) -> str:
        return generated_pb.container_state_waiting_string(self)


@dataclass(slots=True, kw_only=True)
class ContainerStateRunning:
    """A running container and when it started.

    Go: staging/src/k8s.io/api/core/v1/types.go type ContainerStateRunning
    """

    go_stringer = True
    go_pointer_receiver = True

    started_at: Time | None = None

    def __str__(self) -> str:
        return generated_pb.container_state_running_string(self)


@dataclass(slots=True, kw_only=True)
class ContainerStateTerminated:
    """A container that ended: its exit code, why, and when.

    Go: staging/src/k8s.io/api/core/v1/types.go type ContainerStateTerminated
    """

    go_stringer = True
    go_pointer_receiver = True

    exit_code: int32 = 0
    signal: int32 = 0
    reason: str = ""
    message: str = ""
    started_at: Time | None = None
    finished_at: Time | None = None
    container_id: str = ""

    def __str__(self) -> str:
        return generated_pb.container_state_terminated_string(self)


@dataclass(slots=True, kw_only=True)
class ContainerState:
    """At most one of ``waiting``, ``running``, ``terminated``; none set means waiting.

    Go: staging/src/k8s.io/api/core/v1/types.go type ContainerState
    """

    waiting: ContainerStateWaiting | None = None
    running: ContainerStateRunning | None = None
    terminated: ContainerStateTerminated | None = None

    def go_fields(self) -> list[tuple[str, Any]]:
        """The struct as Go's fmt prints it: three pointers, each a Stringer (nil: ``nil``)."""
        return [
            ("Waiting", go_fmt.Ptr(self.waiting, "nil")),
            ("Running", go_fmt.Ptr(self.running, "nil")),
            ("Terminated", go_fmt.Ptr(self.terminated, "nil")),
        ]


@dataclass(slots=True, kw_only=True)
class ContainerStatus:
    """What kubelet last saw of one container.

    Go: staging/src/k8s.io/api/core/v1/types.go type ContainerStatus
    """

    name: str
    state: ContainerState = field(default_factory=ContainerState)
    last_state: ContainerState = field(default_factory=ContainerState)
    ready: bool = False
    restart_count: int32 = 0
    image: str = ""
    image_id: str = ""
    container_id: str = ""
    started: bool | None = None

    def go_fields(self) -> list[tuple[str, Any]]:
        """The struct as Go's fmt prints it: ``Started`` is a ``*bool`` (its address prints)."""
        return [
            ("Name", self.name),
            ("State", self.state),
            ("LastTerminationState", self.last_state),
            ("Ready", self.ready),
            ("RestartCount", self.restart_count),
            ("Image", self.image),
            ("ImageID", self.image_id),
            ("ContainerID", self.container_id),
            ("Started", go_fmt.Ptr(self.started)),
        ]


@dataclass(slots=True, kw_only=True)
class PodIP:
    """One IP address of a pod.

    Go: staging/src/k8s.io/api/core/v1/types.go type PodIP
    """

    ip: str = ""


@dataclass(slots=True, kw_only=True)
class PodStatus:
    """What kubelet reports about a pod. ``phase`` is ``None`` until someone sets it.

    Go: staging/src/k8s.io/api/core/v1/types.go type PodStatus
    """

    phase: PodPhase | None = None
    conditions: list[PodCondition] = field(default_factory=list)
    message: str = ""
    reason: str = ""
    host_ip: str = ""
    pod_ip: str = ""
    pod_ips: list[PodIP] = field(default_factory=list)
    start_time: Time | None = None
    init_container_statuses: list[ContainerStatus] = field(default_factory=list)
    container_statuses: list[ContainerStatus] = field(default_factory=list)
    qos_class: PodQOSClass | None = None

    #: A Go Stringer through a pointer: kubelet's log shows a ``*v1.PodStatus`` (``fmt.Ptr``
    #: here) by its ``String()``, a ``v1.PodStatus`` value by its fields ([`go_fields`][]).
    go_stringer = True
    go_pointer_receiver = True

    def __str__(self) -> str:
        """What the generated ``String()`` gives (see [`pod_status_string`][minikubelet.k8s_io.api.core.v1.generated_pb.pod_status_string])."""
        return generated_pb.pod_status_string(self)

    def go_fields(self) -> list[tuple[str, Any]]:
        """The struct as Go's fmt prints it (see [`minikubelet.go.fmt`][minikubelet.go.fmt]);
        the fields the port does not keep print as Go's zero values."""
        return [
            ("Phase", self.phase or ""),
            ("Conditions", self.conditions),
            ("Message", self.message),
            ("Reason", self.reason),
            ("NominatedNodeName", ""),
            ("HostIP", self.host_ip),
            ("PodIP", self.pod_ip),
            ("PodIPs", self.pod_ips),
            (
                "StartTime",
                go_fmt.Ptr(None if self.start_time is None else go_fmt.Time(self.start_time)),
            ),
            ("InitContainerStatuses", self.init_container_statuses),
            ("ContainerStatuses", self.container_statuses),
            ("QOSClass", self.qos_class or ""),
            ("EphemeralContainerStatuses", []),
        ]


# --- Pod -----------------------------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class Pod:
    """A pod: metadata, the spec of what to run, and the status of what runs.

    Go: staging/src/k8s.io/api/core/v1/types.go type Pod

    ``api_version`` and ``kind`` are Go's embedded ``TypeMeta``; a loaded pod always has
    ``"v1"`` and ``"Pod"``.
    """

    api_version: str = "v1"
    kind: str = "Pod"
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: PodSpec = field(default_factory=PodSpec)
    status: PodStatus = field(default_factory=PodStatus)


# --- Node ----------------------------------------------------------------------------------


#: The address other nodes reach this one at. Go: NodeInternalIP
NodeInternalIP = "InternalIP"
#: An address reachable from outside the cluster. Go: NodeExternalIP
NodeExternalIP = "ExternalIP"
#: The node's hostname, as an address. Go: NodeHostName
NodeHostName = "Hostname"


@dataclass(slots=True, kw_only=True)
class NodeAddress:
    """One of a node's addresses and its kind (``InternalIP``, ``Hostname`` …).

    Go: staging/src/k8s.io/api/core/v1/types.go type NodeAddress
    """

    type: str
    address: str


@dataclass(slots=True, kw_only=True)
class NodeSpec:
    """Go: staging/src/k8s.io/api/core/v1/types.go type NodeSpec"""

    unschedulable: bool = False


@dataclass(slots=True, kw_only=True)
class NodeCondition:
    """One condition of a node (``MemoryPressure``, ``Ready`` …) and when it last changed.

    Go: staging/src/k8s.io/api/core/v1/types.go type NodeCondition
    """

    type: NodeConditionType
    status: ConditionStatus
    last_heartbeat_time: Time | None = None
    last_transition_time: Time | None = None
    reason: str = ""
    message: str = ""


@dataclass(slots=True, kw_only=True)
class NodeStatus:
    """What a node has: its total capacity, what of it pods may use, its conditions and
    addresses.

    Go: staging/src/k8s.io/api/core/v1/types.go type NodeStatus
    """

    capacity: ResourceList = field(default_factory=dict)
    allocatable: ResourceList = field(default_factory=dict)
    conditions: list[NodeCondition] = field(default_factory=list)
    addresses: list[NodeAddress] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class Node:
    """A node: its name and labels, its spec, its resources and addresses.

    Go: staging/src/k8s.io/api/core/v1/types.go type Node
    """

    api_version: str = "v1"
    kind: str = "Node"
    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: NodeSpec = field(default_factory=NodeSpec)
    status: NodeStatus = field(default_factory=NodeStatus)


# --- References ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectReference:
    """A reference to an object, optionally to a field inside it (a container of a pod).

    Go: staging/src/k8s.io/api/core/v1/types.go type ObjectReference
    """

    kind: str = ""
    namespace: str = ""
    name: str = ""
    uid: str = ""
    api_version: str = ""
    field_path: str = ""

    @property
    def metadata(self) -> ObjectReference:
        """The reference itself: it has ``name`` and ``namespace``, which is all
        [`minikubelet.k8s_io.klog.v2.klog.kobj`][minikubelet.k8s_io.klog.v2.klog.kobj] (and so the event recorder) reads of ``obj.metadata``."""
        return self
