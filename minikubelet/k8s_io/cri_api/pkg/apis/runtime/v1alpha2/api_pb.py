"""The CRI messages: what kubelet sends to the container runtime and what it gets back.

Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go

The Go file is generated from ``api.proto`` by protoc; each message is a struct there and a
dataclass here, with the fields of the proto in ``snake_case`` (only those the port uses). As in
the proto, timestamps (``created_at``, ``started_at``, ``finished_at``) are **int nanoseconds**
since the Unix epoch, enums are ints, and a message field that is not set is ``None`` (Go: a nil
pointer). Go's nil-safe getters (``s.GetLinux().GetNamespaces()…``) are spelled out where used.

Responses from the fake runtime are fresh objects (or snapshots that are never changed later):
callers may keep them, as kubelet keeps ``PodSandboxStatus`` in its pod cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

#: The CRI condition every runtime must report. Go: runtimeapi.RuntimeReady (constants.go)
RuntimeReady = "RuntimeReady"
#: The CRI condition for pod networking. Go: runtimeapi.NetworkReady (constants.go)
NetworkReady = "NetworkReady"


@dataclass(slots=True, kw_only=True)
class VersionResponse:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type VersionResponse"""

    version: str = ""
    runtime_name: str = ""
    runtime_version: str = ""
    runtime_api_version: str = ""


@dataclass(slots=True, kw_only=True)
class DNSConfig:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type DNSConfig"""

    servers: list[str] = field(default_factory=list)
    searches: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)


class Protocol(IntEnum):
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type Protocol"""

    TCP = 0
    UDP = 1
    SCTP = 2


Protocol_TCP = Protocol.TCP
Protocol_UDP = Protocol.UDP
Protocol_SCTP = Protocol.SCTP


@dataclass(slots=True, kw_only=True)
class PortMapping:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type PortMapping"""

    protocol: Protocol = Protocol.TCP
    container_port: int = 0
    host_port: int = 0
    host_ip: str = ""


@dataclass(slots=True, kw_only=True)
class Mount:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type Mount"""

    container_path: str = ""
    host_path: str = ""
    readonly: bool = False
    selinux_relabel: bool = False
    propagation: int = 0


class NamespaceMode(IntEnum):
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type NamespaceMode"""

    POD = 0
    CONTAINER = 1
    NODE = 2
    TARGET = 3


NamespaceMode_POD = NamespaceMode.POD
NamespaceMode_CONTAINER = NamespaceMode.CONTAINER
NamespaceMode_NODE = NamespaceMode.NODE
NamespaceMode_TARGET = NamespaceMode.TARGET


@dataclass(slots=True, kw_only=True)
class NamespaceOption:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type NamespaceOption"""

    network: NamespaceMode = NamespaceMode.POD
    pid: NamespaceMode = NamespaceMode.POD
    ipc: NamespaceMode = NamespaceMode.POD
    target_id: str = ""


@dataclass(slots=True, kw_only=True)
class Int64Value:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type Int64Value"""

    value: int = 0


@dataclass(slots=True, kw_only=True)
class LinuxSandboxSecurityContext:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type LinuxSandboxSecurityContext"""

    namespace_options: NamespaceOption | None = None
    run_as_user: Int64Value | None = None
    privileged: bool = False
    seccomp: SecurityProfile | None = None
    seccomp_profile_path: str = ""


@dataclass(slots=True, kw_only=True)
class LinuxPodSandboxConfig:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type LinuxPodSandboxConfig"""

    cgroup_parent: str = ""
    security_context: LinuxSandboxSecurityContext | None = None
    sysctls: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class PodSandboxMetadata:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type PodSandboxMetadata"""

    name: str = ""
    uid: str = ""
    namespace: str = ""
    attempt: int = 0


@dataclass(slots=True, kw_only=True)
class PodSandboxConfig:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type PodSandboxConfig"""

    metadata: PodSandboxMetadata | None = None
    hostname: str = ""
    log_directory: str = ""
    dns_config: DNSConfig | None = None
    port_mappings: list[PortMapping] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    linux: LinuxPodSandboxConfig | None = None


@dataclass(slots=True, kw_only=True)
class PodIP:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type PodIP"""

    ip: str = ""


@dataclass(slots=True, kw_only=True)
class PodSandboxNetworkStatus:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type PodSandboxNetworkStatus"""

    ip: str = ""
    additional_ips: list[PodIP] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class Namespace:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type Namespace"""

    options: NamespaceOption | None = None


@dataclass(slots=True, kw_only=True)
class LinuxPodSandboxStatus:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type LinuxPodSandboxStatus"""

    namespaces: Namespace | None = None


class PodSandboxState(IntEnum):
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type PodSandboxState"""

    SANDBOX_READY = 0
    SANDBOX_NOTREADY = 1


PodSandboxState_SANDBOX_READY = PodSandboxState.SANDBOX_READY
PodSandboxState_SANDBOX_NOTREADY = PodSandboxState.SANDBOX_NOTREADY


@dataclass(slots=True, kw_only=True)
class PodSandboxStatus:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type PodSandboxStatus

    A Go Stringer through a pointer (see [`minikubelet.go.fmt`][minikubelet.go.fmt]): kubelet's
    log shows a ``*PodSandboxStatus`` as [`pod_sandbox_status_string`][] writes it.
    """

    go_stringer = True
    go_pointer_receiver = True

    id: str = ""
    metadata: PodSandboxMetadata | None = None
    state: PodSandboxState = PodSandboxState.SANDBOX_READY
    created_at: int = 0
    network: PodSandboxNetworkStatus | None = None
    linux: LinuxPodSandboxStatus | None = None
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    runtime_handler: str = ""

    def __str__(self) -> str:
        return pod_sandbox_status_string(self)


@dataclass(slots=True, kw_only=True)
class PodSandboxStateValue:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type PodSandboxStateValue"""

    state: PodSandboxState = PodSandboxState.SANDBOX_READY


@dataclass(slots=True, kw_only=True)
class PodSandboxFilter:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type PodSandboxFilter"""

    id: str = ""
    state: PodSandboxStateValue | None = None
    label_selector: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class PodSandbox:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type PodSandbox"""

    id: str = ""
    metadata: PodSandboxMetadata | None = None
    state: PodSandboxState = PodSandboxState.SANDBOX_READY
    created_at: int = 0
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    runtime_handler: str = ""


@dataclass(slots=True, kw_only=True)
class ImageSpec:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type ImageSpec"""

    image: str = ""
    annotations: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class KeyValue:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type KeyValue"""

    key: str = ""
    value: str = ""


@dataclass(slots=True, kw_only=True)
class Device:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type Device"""

    container_path: str = ""
    host_path: str = ""
    permissions: str = ""


@dataclass(slots=True, kw_only=True)
class ContainerMetadata:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type ContainerMetadata"""

    name: str = ""
    attempt: int = 0


class SecurityProfile_ProfileType(IntEnum):
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type SecurityProfile_ProfileType"""

    RUNTIME_DEFAULT = 0
    UNCONFINED = 1
    LOCALHOST = 2


SecurityProfile_RuntimeDefault = SecurityProfile_ProfileType.RUNTIME_DEFAULT
SecurityProfile_Unconfined = SecurityProfile_ProfileType.UNCONFINED
SecurityProfile_Localhost = SecurityProfile_ProfileType.LOCALHOST


@dataclass(slots=True, kw_only=True)
class SecurityProfile:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type SecurityProfile"""

    profile_type: SecurityProfile_ProfileType = SecurityProfile_ProfileType.RUNTIME_DEFAULT
    localhost_ref: str = ""


@dataclass(slots=True, kw_only=True)
class Capability:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type Capability"""

    add_capabilities: list[str] = field(default_factory=list)
    drop_capabilities: list[str] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class SELinuxOption:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type SELinuxOption"""

    user: str = ""
    role: str = ""
    type: str = ""
    level: str = ""


@dataclass(slots=True, kw_only=True)
class HugepageLimit:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type HugepageLimit"""

    page_size: str = ""
    limit: int = 0


@dataclass(slots=True, kw_only=True)
class LinuxContainerResources:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type LinuxContainerResources"""

    cpu_period: int = 0
    cpu_quota: int = 0
    cpu_shares: int = 0
    memory_limit_in_bytes: int = 0
    oom_score_adj: int = 0
    cpuset_cpus: str = ""
    cpuset_mems: str = ""
    hugepage_limits: list[HugepageLimit] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class LinuxContainerSecurityContext:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type LinuxContainerSecurityContext"""

    capabilities: Capability | None = None
    privileged: bool = False
    namespace_options: NamespaceOption | None = None
    selinux_options: SELinuxOption | None = None
    run_as_user: Int64Value | None = None
    run_as_group: Int64Value | None = None
    run_as_username: str = ""
    readonly_rootfs: bool = False
    supplemental_groups: list[int] = field(default_factory=list)
    no_new_privs: bool = False
    masked_paths: list[str] = field(default_factory=list)
    readonly_paths: list[str] = field(default_factory=list)
    seccomp: SecurityProfile | None = None
    apparmor: SecurityProfile | None = None
    apparmor_profile: str = ""
    seccomp_profile_path: str = ""


@dataclass(slots=True, kw_only=True)
class LinuxContainerConfig:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type LinuxContainerConfig"""

    resources: LinuxContainerResources | None = None
    security_context: LinuxContainerSecurityContext | None = None


@dataclass(slots=True, kw_only=True)
class ContainerConfig:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type ContainerConfig"""

    metadata: ContainerMetadata | None = None
    image: ImageSpec | None = None
    command: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)
    working_dir: str = ""
    envs: list[KeyValue] = field(default_factory=list)
    mounts: list[Mount] = field(default_factory=list)
    devices: list[Device] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    log_path: str = ""
    stdin: bool = False
    stdin_once: bool = False
    tty: bool = False
    linux: LinuxContainerConfig | None = None


class ContainerState(IntEnum):
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type ContainerState"""

    CONTAINER_CREATED = 0
    CONTAINER_RUNNING = 1
    CONTAINER_EXITED = 2
    CONTAINER_UNKNOWN = 3


ContainerState_CONTAINER_CREATED = ContainerState.CONTAINER_CREATED
ContainerState_CONTAINER_RUNNING = ContainerState.CONTAINER_RUNNING
ContainerState_CONTAINER_EXITED = ContainerState.CONTAINER_EXITED
ContainerState_CONTAINER_UNKNOWN = ContainerState.CONTAINER_UNKNOWN


@dataclass(slots=True, kw_only=True)
class ContainerStateValue:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type ContainerStateValue"""

    state: ContainerState = ContainerState.CONTAINER_CREATED


@dataclass(slots=True, kw_only=True)
class ContainerFilter:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type ContainerFilter"""

    id: str = ""
    state: ContainerStateValue | None = None
    pod_sandbox_id: str = ""
    label_selector: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class Container:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type Container"""

    id: str = ""
    pod_sandbox_id: str = ""
    metadata: ContainerMetadata | None = None
    image: ImageSpec | None = None
    image_ref: str = ""
    state: ContainerState = ContainerState.CONTAINER_CREATED
    created_at: int = 0
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class ContainerStatus:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type ContainerStatus"""

    id: str = ""
    metadata: ContainerMetadata | None = None
    state: ContainerState = ContainerState.CONTAINER_CREATED
    created_at: int = 0
    started_at: int = 0
    finished_at: int = 0
    exit_code: int = 0
    image: ImageSpec | None = None
    image_ref: str = ""
    reason: str = ""
    message: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    mounts: list[Mount] = field(default_factory=list)
    log_path: str = ""


@dataclass(slots=True, kw_only=True)
class Image:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type Image"""

    id: str = ""
    repo_tags: list[str] = field(default_factory=list)
    repo_digests: list[str] = field(default_factory=list)
    size: int = 0
    uid: Int64Value | None = None
    username: str = ""
    spec: ImageSpec | None = None


@dataclass(slots=True, kw_only=True)
class ImageFilter:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type ImageFilter"""

    image: ImageSpec | None = None


@dataclass(slots=True, kw_only=True)
class AuthConfig:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type AuthConfig"""

    username: str = ""
    password: str = ""
    auth: str = ""
    server_address: str = ""
    identity_token: str = ""
    registry_token: str = ""


@dataclass(slots=True, kw_only=True)
class RuntimeCondition:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type RuntimeCondition"""

    type: str = ""
    status: bool = False
    reason: str = ""
    message: str = ""


@dataclass(slots=True, kw_only=True)
class RuntimeStatus:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type RuntimeStatus"""

    conditions: list[RuntimeCondition] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class CreateContainerRequest:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type CreateContainerRequest"""

    pod_sandbox_id: str = ""
    config: ContainerConfig | None = None
    sandbox_config: PodSandboxConfig | None = None


@dataclass(slots=True, kw_only=True)
class CreateContainerResponse:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type CreateContainerResponse"""

    container_id: str = ""


@dataclass(slots=True, kw_only=True)
class StartContainerRequest:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type StartContainerRequest"""

    container_id: str = ""


@dataclass(slots=True, kw_only=True)
class StartContainerResponse:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type StartContainerResponse"""


@dataclass(slots=True, kw_only=True)
class ExecSyncRequest:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type ExecSyncRequest"""

    container_id: str = ""
    cmd: list[str] = field(default_factory=list)
    #: Seconds; 0: no time-out.
    timeout: int = 0


@dataclass(slots=True, kw_only=True)
class ExecSyncResponse:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type ExecSyncResponse"""

    stdout: bytes = b""
    stderr: bytes = b""
    exit_code: int = 0


# --- String() of the messages kubelet's log lines show -------------------------------------
# gogo-protobuf generates them; a nil message prints "nil", an enum its name (proto.EnumName).


def pod_sandbox_metadata_string(this: PodSandboxMetadata | None) -> str:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go (*PodSandboxMetadata).String"""
    if this is None:
        return "nil"
    return (
        f"&PodSandboxMetadata{{Name:{this.name},Uid:{this.uid},Namespace:{this.namespace},"
        f"Attempt:{this.attempt},}}"
    )


def pod_ip_string(this: PodIP | None) -> str:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go (*PodIP).String"""
    if this is None:
        return "nil"
    return f"&PodIP{{Ip:{this.ip},}}"


def pod_sandbox_network_status_string(this: PodSandboxNetworkStatus | None) -> str:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go (*PodSandboxNetworkStatus).String"""
    if this is None:
        return "nil"
    repeated_string_for_additional_ips = "[]*PodIP{"
    for f in this.additional_ips:
        repeated_string_for_additional_ips += pod_ip_string(f) + ","
    repeated_string_for_additional_ips += "}"
    return (
        f"&PodSandboxNetworkStatus{{Ip:{this.ip},"
        f"AdditionalIps:{repeated_string_for_additional_ips},}}"
    )


def namespace_option_string(this: NamespaceOption | None) -> str:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go (*NamespaceOption).String"""
    if this is None:
        return "nil"
    return (
        f"&NamespaceOption{{Network:{this.network.name},Pid:{this.pid.name},"
        f"Ipc:{this.ipc.name},TargetId:{this.target_id},}}"
    )


def namespace_string(this: Namespace | None) -> str:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go (*Namespace).String"""
    if this is None:
        return "nil"
    return f"&Namespace{{Options:{namespace_option_string(this.options)},}}"


def linux_pod_sandbox_status_string(this: LinuxPodSandboxStatus | None) -> str:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go (*LinuxPodSandboxStatus).String"""
    if this is None:
        return "nil"
    return f"&LinuxPodSandboxStatus{{Namespaces:{namespace_string(this.namespaces)},}}"


def _string_map(m: dict[str, str]) -> str:
    """A ``map[string]string`` field of a generated ``String()``: keys sorted."""
    return "map[string]string{" + "".join(f"{k}: {m[k]}," for k in sorted(m)) + "}"


def pod_sandbox_status_string(this: PodSandboxStatus | None) -> str:
    """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go (*PodSandboxStatus).String"""
    if this is None:
        return "nil"
    return "".join(
        [
            "&PodSandboxStatus{",
            f"Id:{this.id},",
            f"Metadata:{pod_sandbox_metadata_string(this.metadata)},",
            f"State:{this.state.name},",
            f"CreatedAt:{this.created_at},",
            f"Network:{pod_sandbox_network_status_string(this.network)},",
            f"Linux:{linux_pod_sandbox_status_string(this.linux)},",
            f"Labels:{_string_map(this.labels)},",
            f"Annotations:{_string_map(this.annotations)},",
            f"RuntimeHandler:{this.runtime_handler},",
            "}",
        ]
    )
