"""The container runtime as kubelet sees it: pods, containers, their states, and the interface
(``Runtime``) every runtime implements.

Go: pkg/kubelet/container/runtime.go

kubelet never talks CRI directly outside ``kuberuntime``: it asks a [`Runtime`][] for
[`Pod`][]\\ s (what runs, grouped by pod) and [`PodStatus`][]\\ es (everything the runtime
knows about one pod), and to sync or kill a pod.

Go methods that block (they call the runtime over gRPC) are ``async def``. Go functions returning
``(T, error)`` return ``T`` and raise on error; ``KillPod``, which returns only an ``error``, returns
it (``Exception | None``), and ``SyncPod`` returns a
[`PodSyncResult`][minikubelet.container.sync_result.PodSyncResult], as in Go.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from minikubelet.go.fmt import Ptr, quote
from minikubelet.go.fmt import Time as GoTime
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi

if TYPE_CHECKING:
    from minikubelet.container.container_gc import GCPolicy
    from minikubelet.container.sync_result import PodSyncResult
    from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import Backoff


@dataclass(slots=True, kw_only=True)
class ImageSpec:
    """An image to pull or look up, with annotations passed through to the runtime.

    Go: pkg/kubelet/container/runtime.go type ImageSpec
    """

    image: str = ""
    annotations: list[Annotation] = field(default_factory=list)


class ImageService(Protocol):
    """Go: pkg/kubelet/container/runtime.go type ImageService"""

    async def pull_image(
        self,
        image: ImageSpec,
        pull_secrets: list[Any],
        pod_sandbox_config: runtimeapi.PodSandboxConfig | None,
    ) -> str:
        """Pull an image; return its reference (digest or ID).

        Go: pkg/kubelet/container/runtime.go ImageService.PullImage
        """
        ...

    async def get_image_ref(self, image: ImageSpec) -> str:
        """The reference of an image already present, or ``""`` when it is not.

        Go: pkg/kubelet/container/runtime.go ImageService.GetImageRef
        """
        ...

    async def list_images(self) -> list[Image]:
        """Go: pkg/kubelet/container/runtime.go ImageService.ListImages"""
        ...

    async def remove_image(self, image: ImageSpec) -> Exception | None:
        """Go: pkg/kubelet/container/runtime.go ImageService.RemoveImage"""
        ...


class Runtime(ImageService, Protocol):
    """What kubelet asks of a container runtime.

    Go: pkg/kubelet/container/runtime.go type Runtime

    Not listed (not on the pod-creation path): ``SupportsSingleFileMapping``, ``Version``,
    ``APIVersion``, ``GetContainerLogs``, ``UpdatePodCIDR``.
    """

    def type(self) -> str:
        """Go: pkg/kubelet/container/runtime.go Runtime.Type"""
        ...

    async def status(self) -> RuntimeStatus:
        """Go: pkg/kubelet/container/runtime.go Runtime.Status"""
        ...

    async def get_pods(self, all: bool) -> list[Pod]:
        """Go: pkg/kubelet/container/runtime.go Runtime.GetPods"""
        ...

    async def garbage_collect(
        self, gc_policy: GCPolicy, all_sources_ready: bool, evict_non_deleted_pods: bool
    ) -> Exception | None:
        """Go: pkg/kubelet/container/runtime.go Runtime.GarbageCollect"""
        ...

    async def sync_pod(
        self,
        pod: v1.Pod,
        pod_status: PodStatus,
        pull_secrets: list[Any],
        back_off: Backoff,
    ) -> PodSyncResult:
        """Go: pkg/kubelet/container/runtime.go Runtime.SyncPod"""
        ...

    async def kill_pod(
        self, pod: v1.Pod | None, running_pod: Pod, grace_period_override: int | None
    ) -> Exception | None:
        """Go: pkg/kubelet/container/runtime.go Runtime.KillPod"""
        ...

    async def get_pod_status(self, uid: str, name: str, namespace: str) -> PodStatus:
        """Go: pkg/kubelet/container/runtime.go Runtime.GetPodStatus"""
        ...

    async def delete_container(self, container_id: ContainerID) -> Exception | None:
        """Go: pkg/kubelet/container/runtime.go Runtime.DeleteContainer"""
        ...


class CommandRunner(Protocol):
    """Runs a command inside a container (an ``exec`` lifecycle hook).

    Go: pkg/kubelet/container/runtime.go type CommandRunner
    """

    async def run_in_container(
        self, id: ContainerID, cmd: list[str], timeout: float
    ) -> tuple[bytes, Exception | None]:
        """The command's output (stdout, then stderr) and its error, as Go's ``([]byte,
        error)``: a command that exits non-zero gives its exit error with its output.

        Go: pkg/kubelet/container/runtime.go CommandRunner.RunInContainer
        """
        ...


@dataclass(slots=True, kw_only=True)
class Pod:
    """A group of containers (and sandboxes) the runtime runs for one pod.

    Go: pkg/kubelet/container/runtime.go type Pod
    """

    id: str = ""
    name: str = ""
    namespace: str = ""
    containers: list[Container] = field(default_factory=list)
    #: Sandboxes, as containers (Go does the same "to avoid substantial changes to PLEG").
    sandboxes: list[Container] = field(default_factory=list)

    def find_container_by_id(self, id: ContainerID) -> Container | None:
        """Go: pkg/kubelet/container/runtime.go (*Pod).FindContainerByID"""
        for c in self.containers:
            if c.id == id:
                return c
        return None

    def find_sandbox_by_id(self, id: ContainerID) -> Container | None:
        """Go: pkg/kubelet/container/runtime.go (*Pod).FindSandboxByID"""
        for c in self.sandboxes:
            if c.id == id:
                return c
        return None

    def is_empty(self) -> bool:
        """Go: pkg/kubelet/container/runtime.go (*Pod).IsEmpty"""
        return self == Pod()


@dataclass(slots=True, kw_only=True)
class PodPair:
    """Go: pkg/kubelet/container/runtime.go type PodPair

    Go's ``RunningPod`` is a pointer too, but kubelet always sets it (the pod killer reads it
    unchecked); the port's type says so.
    """

    running_pod: Pod
    api_pod: v1.Pod | None = None


@dataclass(frozen=True, order=True)
class ContainerID:
    """A container's ID in its runtime, e.g. ``containerd://0123abcd``.

    Go: pkg/kubelet/container/runtime.go type ContainerID

    Go's ``String()`` has a pointer receiver: kubelet's log shows ``containerd://0123abcd`` where
    it calls it (``containerID.String()``, ``str()`` here) and the struct, ``{Type:containerd
    ID:0123abcd}``, where it logs the value itself (see [`minikubelet.go.fmt`][minikubelet.go.fmt]).
    """

    go_stringer = True
    go_pointer_receiver = True

    type: str = ""
    id: str = ""

    def __eq__(self, other: object) -> bool:
        """Equal type and ID, as Go's ``==`` on the struct.

        Ours: written out rather than the dataclass's tuple comparison, and the same object
        answers at once; the PLEG compares IDs several hundred times a relist.
        ``tests/container/test_container_id.py`` holds it to the fields' comparison.
        """
        if self is other:
            return True
        if other.__class__ is ContainerID:
            return self.id == other.id and self.type == other.type
        return NotImplemented

    def __str__(self) -> str:
        """Go: pkg/kubelet/container/runtime.go (*ContainerID).String"""
        return f"{self.type}://{self.id}"

    def is_empty(self) -> bool:
        """Go: pkg/kubelet/container/runtime.go (*ContainerID).IsEmpty"""
        return self == ContainerID()


def parse_container_id(container_id: str) -> ContainerID:
    """``type://id`` → [`ContainerID`][].

    Go: pkg/kubelet/container/runtime.go ParseContainerID

    Raises ValueError for a string without ``://`` (Go logs and returns an empty ID).
    """
    parts = container_id.strip('"').split("://")
    if len(parts) != 2:
        raise ValueError(f"invalid container ID: {quote(container_id)}")
    return ContainerID(parts[0], parts[1])


class State(StrEnum):
    """The state of a container, as kubelet sees it.

    Go: pkg/kubelet/container/runtime.go type State
    """

    CREATED = "created"
    RUNNING = "running"
    EXITED = "exited"
    UNKNOWN = "unknown"


#: Created but not started. Go: ContainerStateCreated
ContainerStateCreated = State.CREATED
#: Go: ContainerStateRunning
ContainerStateRunning = State.RUNNING
#: Ran and completed. Go: ContainerStateExited
ContainerStateExited = State.EXITED
#: Everything else (restarting, paused, dead…). Go: ContainerStateUnknown
ContainerStateUnknown = State.UNKNOWN


@dataclass(slots=True, kw_only=True)
class Container:
    """A container (or a sandbox) as the runtime lists it.

    Go: pkg/kubelet/container/runtime.go type Container
    """

    id: ContainerID = field(default_factory=ContainerID)
    name: str = ""
    image: str = ""
    image_id: str = ""
    #: Hash of the container spec it was made from (to detect a changed spec).
    hash: int = 0
    state: State = State.UNKNOWN


@dataclass(slots=True, kw_only=True)
class PodStatus:
    """Everything the runtime knows about one pod: its sandboxes and all its containers.

    Go: pkg/kubelet/container/runtime.go type PodStatus

    ``container_statuses`` are newest first (``kuberuntime`` sorts them so); a container that was
    restarted appears once per run.
    """

    id: str = ""
    name: str = ""
    namespace: str = ""
    ips: list[str] = field(default_factory=list)
    container_statuses: list[Status] = field(default_factory=list)
    #: Newest first. Only kuberuntime fills it.
    sandbox_statuses: list[runtimeapi.PodSandboxStatus] = field(default_factory=list)

    def go_fields(self) -> list[tuple[str, Any]]:
        """How Go's fmt sees the struct: both lists hold pointers (``[]*Status``, whose
        addresses print, and ``[]*PodSandboxStatus``, printed by their ``String()``)."""
        return [
            ("ID", self.id),
            ("Name", self.name),
            ("Namespace", self.namespace),
            ("IPs", self.ips),
            ("ContainerStatuses", [Ptr(s) for s in self.container_statuses]),
            ("SandboxStatuses", [Ptr(s, "nil") for s in self.sandbox_statuses]),
        ]

    def find_container_status_by_name(self, container_name: str) -> Status | None:
        """The first (newest) status of the container with that name.

        Go: pkg/kubelet/container/runtime.go (*PodStatus).FindContainerStatusByName
        """
        for container_status in self.container_statuses:
            if container_status.name == container_name:
                return container_status
        return None


@dataclass(slots=True, kw_only=True)
class Status:
    """The status of one container (one run of it).

    Go: pkg/kubelet/container/runtime.go type Status

    Times are seconds since the Unix epoch; ``0.0`` is Go's zero ``time.Time`` (never set).
    """

    id: ContainerID = field(default_factory=ContainerID)
    name: str = ""
    state: State = State.UNKNOWN
    created_at: float = 0.0
    started_at: float = 0.0
    finished_at: float = 0.0
    exit_code: int = 0
    image: str = ""
    image_id: str = ""
    hash: int = 0
    restart_count: int = 0
    reason: str = ""
    message: str = ""

    def go_fields(self) -> list[tuple[str, Any]]:
        """How Go's fmt sees the struct: the times are ``time.Time`` values (0.0 is the zero time)."""
        return [
            ("ID", self.id),
            ("Name", self.name),
            ("State", self.state),
            ("CreatedAt", GoTime(self.created_at)),
            ("StartedAt", GoTime(self.started_at)),
            ("FinishedAt", GoTime(self.finished_at)),
            ("ExitCode", self.exit_code),
            ("Image", self.image),
            ("ImageID", self.image_id),
            ("Hash", self.hash),
            ("RestartCount", self.restart_count),
            ("Reason", self.reason),
            ("Message", self.message),
        ]


@dataclass(slots=True, kw_only=True)
class Image:
    """Go: pkg/kubelet/container/runtime.go type Image"""

    id: str = ""
    repo_tags: list[str] = field(default_factory=list)
    repo_digests: list[str] = field(default_factory=list)
    size: int = 0
    spec: ImageSpec = field(default_factory=ImageSpec)


@dataclass(slots=True, kw_only=True)
class EnvVar:
    """Go: pkg/kubelet/container/runtime.go type EnvVar"""

    name: str = ""
    value: str = ""


@dataclass(slots=True, kw_only=True)
class Annotation:
    """Go: pkg/kubelet/container/runtime.go type Annotation"""

    name: str = ""
    value: str = ""


@dataclass(slots=True, kw_only=True)
class Mount:
    """Go: pkg/kubelet/container/runtime.go type Mount"""

    name: str = ""
    container_path: str = ""
    host_path: str = ""
    read_only: bool = False
    selinux_relabel: bool = False
    propagation: int = 0


@dataclass(slots=True, kw_only=True)
class PortMapping:
    """Go: pkg/kubelet/container/runtime.go type PortMapping"""

    protocol: v1.Protocol = v1.Protocol.TCP
    container_port: int = 0
    host_port: int = 0
    host_ip: str = ""


@dataclass(slots=True, kw_only=True)
class DeviceInfo:
    """Go: pkg/kubelet/container/runtime.go type DeviceInfo"""

    path_on_host: str = ""
    path_in_container: str = ""
    permissions: str = ""


@dataclass(slots=True, kw_only=True)
class RunContainerOptions:
    """What kubelet adds to a container when it runs it (env, mounts, devices …).

    Go: pkg/kubelet/container/runtime.go type RunContainerOptions
    """

    envs: list[EnvVar] = field(default_factory=list)
    mounts: list[Mount] = field(default_factory=list)
    devices: list[DeviceInfo] = field(default_factory=list)
    annotations: list[Annotation] = field(default_factory=list)
    pod_container_dir: str = ""
    read_only: bool = False
    hostname: str = ""
    enable_host_user_namespace: bool = False


class RuntimeConditionType(StrEnum):
    """Go: pkg/kubelet/container/runtime.go type RuntimeConditionType"""

    RUNTIME_READY = "RuntimeReady"
    NETWORK_READY = "NetworkReady"


#: The runtime is up and can run containers. Go: RuntimeReady
RuntimeReady = RuntimeConditionType.RUNTIME_READY
#: The runtime's network is up and can run pods that need it. Go: NetworkReady
NetworkReady = RuntimeConditionType.NETWORK_READY


@dataclass(slots=True, kw_only=True)
class RuntimeStatus:
    """Go: pkg/kubelet/container/runtime.go type RuntimeStatus"""

    #: It has a String() method in Go: klog quotes it.
    go_stringer = True

    conditions: list[RuntimeCondition] = field(default_factory=list)

    def get_runtime_condition(self, t: str) -> RuntimeCondition | None:
        """Go: pkg/kubelet/container/runtime.go (*RuntimeStatus).GetRuntimeCondition"""
        for c in self.conditions:
            if c.type == t:
                return c
        return None

    def __str__(self) -> str:
        """Go: pkg/kubelet/container/runtime.go (*RuntimeStatus).String"""
        return "Runtime Conditions: " + ", ".join(str(c) for c in self.conditions)


@dataclass(slots=True, kw_only=True)
class RuntimeCondition:
    """Go: pkg/kubelet/container/runtime.go type RuntimeCondition"""

    #: It has a String() method in Go: klog quotes it.
    go_stringer = True

    type: str = ""
    status: bool = False
    reason: str = ""
    message: str = ""

    def __str__(self) -> str:
        """Go: pkg/kubelet/container/runtime.go (*RuntimeCondition).String"""
        status = "true" if self.status else "false"
        return f"{self.type}={status} reason:{self.reason} message:{self.message}"


class Pods(list[Pod]):
    """A list of running pods.

    Go: pkg/kubelet/container/runtime.go type Pods
    """

    def find_pod_by_id(self, pod_uid: str) -> Pod:
        """The pod with that UID, or an empty [`Pod`][].

        Go: pkg/kubelet/container/runtime.go (Pods).FindPodByID
        """
        for p in self:
            if p.id == pod_uid:
                return p
        return Pod()

    def find_pod_by_full_name(self, pod_full_name: str) -> Pod:
        """Go: pkg/kubelet/container/runtime.go (Pods).FindPodByFullName"""
        for p in self:
            if build_pod_full_name(p.name, p.namespace) == pod_full_name:
                return p
        return Pod()

    def find_pod(self, pod_full_name: str, pod_uid: str) -> Pod:
        """By full name if one is given, else by UID.

        Go: pkg/kubelet/container/runtime.go (Pods).FindPod
        """
        if pod_full_name:
            return self.find_pod_by_full_name(pod_full_name)
        return self.find_pod_by_id(pod_uid)


def get_pod_full_name(pod: v1.Pod) -> str:
    """``name_namespace``, unique on a node.

    Go: pkg/kubelet/container/runtime.go GetPodFullName
    """
    # Underscore as the delimiter: it is not allowed in a pod name (DNS subdomain format).
    return f"{pod.metadata.name}_{pod.metadata.namespace}"


def build_pod_full_name(name: str, namespace: str) -> str:
    """Go: pkg/kubelet/container/runtime.go BuildPodFullName"""
    return name + "_" + namespace


def parse_pod_full_name(pod_full_name: str) -> tuple[str, str]:
    """``name_namespace`` → (name, namespace); raises ValueError if it is not one.

    Go: pkg/kubelet/container/runtime.go ParsePodFullName
    """
    parts = pod_full_name.split("_")
    if len(parts) != 2 or parts[0] == "" or parts[1] == "":
        raise ValueError(f'failed to parse the pod full name "{pod_full_name}"')
    return parts[0], parts[1]


#: The most bytes of termination messages one pod may keep, shared among its containers.
#: Go: MaxPodTerminationMessageLogLength
MaxPodTerminationMessageLogLength = 1024 * 12
#: Go: MaxContainerTerminationMessageLength
MaxContainerTerminationMessageLength = 1024 * 4
