"""How a pod status reads in kubelet's log: the ``String()`` methods generated for core/v1.

Go: staging/src/k8s.io/api/core/v1/generated.pb.go

klog prints a value that has a ``String()`` method by calling it (and quoting the result), so
when kubelet logs a ``*v1.PodStatus`` (``apiStatus`` in "Pod attempted illegal phase transition")
the line holds the text gogo-protobuf's generated ``String()`` builds:
``&PodStatus{Phase:Running,Conditions:[]PodCondition{},Message:,…}``. These functions build the
same text from the port's dataclasses, field by field in Go's order; [`PodStatus`][minikubelet.k8s_io.api.core.v1.types.PodStatus]
is a Go Stringer through them.

Where the port differs: fields of Go's structs that the port does not keep
(``NominatedNodeName``, ``EphemeralContainerStatuses``) print as Go prints their zero values, and
times print in UTC to the microsecond (see [`time_string`][minikubelet.go.clock.time_string]).
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

from minikubelet.go import fmt
from minikubelet.go.clock import time_string
from minikubelet.k8s_io.apimachinery.pkg.util.intstr import intstr

if TYPE_CHECKING:
    from minikubelet.k8s_io.api.core.v1.types import (
        Container,
        ContainerPort,
        ContainerState,
        ContainerStateRunning,
        ContainerStateTerminated,
        ContainerStateWaiting,
        ContainerStatus,
        EnvVar,
        ExecAction,
        Handler,
        HTTPGetAction,
        HTTPHeader,
        Lifecycle,
        PodCondition,
        PodIP,
        PodStatus,
        Probe,
        ResourceRequirements,
        TCPSocketAction,
        VolumeMount,
    )


def _v(value: Any) -> str:
    """Go's ``fmt.Sprintf("%v", x)`` of a string, number, bool or string-typed enum field.

    An unset enum (``None`` here) is Go's empty string, the zero value of its string type.
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


def _time(t: float | None) -> str:
    """``%v`` of a ``metav1.Time`` field (a struct, never nil: unset is Go's zero time)."""
    return time_string(t)


def _time_pointer(t: float | None) -> str:
    """``%v`` of a ``*metav1.Time`` field: fmt prints a nil pointer as ``<nil>``."""
    return "<nil>" if t is None else time_string(t)


def value_to_string_generated(v: Any) -> str:
    """A pointer field: ``nil``, or ``*`` and the value it points to.

    Go: staging/src/k8s.io/api/core/v1/generated.pb.go valueToStringGenerated
    """
    if v is None:
        return "nil"
    return f"*{_v(v)}"


def pod_condition_string(this: PodCondition | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*PodCondition).String"""
    if this is None:
        return "nil"
    return "".join(
        [
            "&PodCondition{",
            "Type:" + _v(this.type) + ",",
            "Status:" + _v(this.status) + ",",
            "LastProbeTime:"
            + _time(this.last_probe_time).replace("Time", "v1.Time", 1).replace("&", "", 1)
            + ",",
            "LastTransitionTime:"
            + _time(this.last_transition_time).replace("Time", "v1.Time", 1).replace("&", "", 1)
            + ",",
            "Reason:" + _v(this.reason) + ",",
            "Message:" + _v(this.message) + ",",
            "}",
        ]
    )


def container_state_waiting_string(this: ContainerStateWaiting | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*ContainerStateWaiting).String"""
    if this is None:
        return "nil"
    return "".join(
        [
            "&ContainerStateWaiting{",
            "Reason:" + _v(this.reason) + ",",
            "Message:" + _v(this.message) + ",",
            "}",
        ]
    )


def container_state_running_string(this: ContainerStateRunning | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*ContainerStateRunning).String"""
    if this is None:
        return "nil"
    return "".join(
        [
            "&ContainerStateRunning{",
            "StartedAt:"
            + _time(this.started_at).replace("Time", "v1.Time", 1).replace("&", "", 1)
            + ",",
            "}",
        ]
    )


def container_state_terminated_string(this: ContainerStateTerminated | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*ContainerStateTerminated).String"""
    if this is None:
        return "nil"
    return "".join(
        [
            "&ContainerStateTerminated{",
            "ExitCode:" + _v(this.exit_code) + ",",
            "Signal:" + _v(this.signal) + ",",
            "Reason:" + _v(this.reason) + ",",
            "Message:" + _v(this.message) + ",",
            "StartedAt:"
            + _time(this.started_at).replace("Time", "v1.Time", 1).replace("&", "", 1)
            + ",",
            "FinishedAt:"
            + _time(this.finished_at).replace("Time", "v1.Time", 1).replace("&", "", 1)
            + ",",
            "ContainerID:" + _v(this.container_id) + ",",
            "}",
        ]
    )


def container_state_string(this: ContainerState | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*ContainerState).String"""
    if this is None:
        return "nil"
    return "".join(
        [
            "&ContainerState{",
            "Waiting:" + container_state_waiting_string(this.waiting) + ",",
            "Running:" + container_state_running_string(this.running) + ",",
            "Terminated:" + container_state_terminated_string(this.terminated) + ",",
            "}",
        ]
    )


def container_status_string(this: ContainerStatus | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*ContainerStatus).String"""
    if this is None:
        return "nil"
    return "".join(
        [
            "&ContainerStatus{",
            "Name:" + _v(this.name) + ",",
            "State:" + container_state_string(this.state).replace("&", "", 1) + ",",
            "LastTerminationState:"
            + container_state_string(this.last_state).replace("&", "", 1)
            + ",",
            "Ready:" + _v(this.ready) + ",",
            "RestartCount:" + _v(this.restart_count) + ",",
            "Image:" + _v(this.image) + ",",
            "ImageID:" + _v(this.image_id) + ",",
            "ContainerID:" + _v(this.container_id) + ",",
            "Started:" + value_to_string_generated(this.started) + ",",
            "}",
        ]
    )


def pod_ip_string(this: PodIP | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*PodIP).String"""
    if this is None:
        return "nil"
    return "".join(["&PodIP{", "IP:" + _v(this.ip) + ",", "}"])


def pod_status_string(this: PodStatus | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*PodStatus).String"""
    if this is None:
        return "nil"
    repeated_string_for_conditions = "[]PodCondition{"
    for condition in this.conditions:
        repeated_string_for_conditions += pod_condition_string(condition).replace("&", "", 1) + ","
    repeated_string_for_conditions += "}"
    repeated_string_for_container_statuses = "[]ContainerStatus{"
    for status in this.container_statuses:
        repeated_string_for_container_statuses += (
            container_status_string(status).replace("&", "", 1) + ","
        )
    repeated_string_for_container_statuses += "}"
    repeated_string_for_init_container_statuses = "[]ContainerStatus{"
    for init_status in this.init_container_statuses:
        repeated_string_for_init_container_statuses += (
            container_status_string(init_status).replace("&", "", 1) + ","
        )
    repeated_string_for_init_container_statuses += "}"
    repeated_string_for_pod_i_ps = "[]PodIP{"
    for ip in this.pod_ips:
        repeated_string_for_pod_i_ps += pod_ip_string(ip).replace("&", "", 1) + ","
    repeated_string_for_pod_i_ps += "}"
    # The port keeps no ephemeral containers: Go's loop over them adds nothing.
    repeated_string_for_ephemeral_container_statuses = "[]ContainerStatus{" + "}"
    return "".join(
        [
            "&PodStatus{",
            "Phase:" + _v(this.phase) + ",",
            "Conditions:" + repeated_string_for_conditions + ",",
            "Message:" + _v(this.message) + ",",
            "Reason:" + _v(this.reason) + ",",
            "HostIP:" + _v(this.host_ip) + ",",
            "PodIP:" + _v(this.pod_ip) + ",",
            "StartTime:" + _time_pointer(this.start_time).replace("Time", "v1.Time", 1) + ",",
            "ContainerStatuses:" + repeated_string_for_container_statuses + ",",
            "QOSClass:" + _v(this.qos_class) + ",",
            "InitContainerStatuses:" + repeated_string_for_init_container_statuses + ",",
            # Not kept by the port (the scheduler's field): Go's empty string.
            "NominatedNodeName:" + ",",
            "PodIPs:" + repeated_string_for_pod_i_ps + ",",
            "EphemeralContainerStatuses:" + repeated_string_for_ephemeral_container_statuses + ",",
            "}",
        ]
    )


def _int_or_string(port: int | str) -> str:
    """``%v`` of an ``intstr.IntOrString`` value: the struct's fields, ``{Type IntVal StrVal}``."""
    return fmt.sprint(intstr.from_value(port))


def exec_action_string(this: ExecAction | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*ExecAction).String"""
    if this is None:
        return "nil"
    return "".join(["&ExecAction{", "Command:[" + " ".join(this.command) + "],", "}"])


def http_header_string(this: HTTPHeader | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*HTTPHeader).String"""
    if this is None:
        return "nil"
    return "".join(["&HTTPHeader{", "Name:" + this.name + ",", "Value:" + this.value + ",", "}"])


def http_get_action_string(this: HTTPGetAction | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*HTTPGetAction).String"""
    if this is None:
        return "nil"
    headers = "[]HTTPHeader{"
    for f in this.http_headers:
        headers += http_header_string(f).replace("&", "", 1) + ","
    headers += "}"
    return "".join(
        [
            "&HTTPGetAction{",
            "Path:" + this.path + ",",
            "Port:" + _int_or_string(this.port) + ",",
            "Host:" + this.host + ",",
            "Scheme:" + _v(this.scheme) + ",",
            "HTTPHeaders:" + headers + ",",
            "}",
        ]
    )


def tcp_socket_action_string(this: TCPSocketAction | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*TCPSocketAction).String"""
    if this is None:
        return "nil"
    return "".join(
        [
            "&TCPSocketAction{",
            "Port:" + _int_or_string(this.port) + ",",
            "Host:" + this.host + ",",
            "}",
        ]
    )


def handler_string(this: Handler | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*Handler).String"""
    if this is None:
        return "nil"
    return "".join(
        [
            "&Handler{",
            "Exec:" + exec_action_string(this.exec) + ",",
            "HTTPGet:" + http_get_action_string(this.http_get) + ",",
            "TCPSocket:" + tcp_socket_action_string(this.tcp_socket) + ",",
            "}",
        ]
    )


def _strings(values: list[str]) -> str:
    """``fmt.Sprintf("%v", x)`` of a ``[]string`` field: ``[sh -c echo hi]``."""
    return fmt.sprint(values)


def container_port_string(this: ContainerPort | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*ContainerPort).String"""
    if this is None:
        return "nil"
    return "".join(
        [
            "&ContainerPort{",
            "Name:" + _v(this.name) + ",",
            "HostPort:" + _v(this.host_port) + ",",
            "ContainerPort:" + _v(this.container_port) + ",",
            "Protocol:" + _v(this.protocol) + ",",
            "HostIP:" + _v(this.host_ip) + ",",
            "}",
        ]
    )


def _selector_string(kind: str, fields: list[tuple[str, str]]) -> str:
    """The text of one generated ``String()`` whose fields all print with ``%v``."""
    return "&" + kind + "{" + "".join(f"{name}:{value}," for name, value in fields) + "}"


def _key_selector_string(kind: str, ref: dict[str, Any] | None) -> str:
    """``(*ConfigMapKeySelector).String`` or ``(*SecretKeySelector).String`` of a ``valueFrom``
    reference as the manifest wrote it (the port keeps it as a dict)."""
    if ref is None:
        return "nil"
    optional = ref.get("optional")
    return _selector_string(
        kind,
        [
            ("LocalObjectReference", "LocalObjectReference{Name:" + _v(ref.get("name", "")) + ",}"),
            ("Key", _v(ref.get("key", ""))),
            ("Optional", value_to_string_generated(optional)),
        ],
    )


def env_var_source_string(this: dict[str, Any] | None) -> str:
    """An env var's ``valueFrom``, kept as the manifest wrote it, as its Go struct prints.

    Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*EnvVarSource).String
    """
    if this is None:
        return "nil"
    field_ref = this.get("fieldRef")
    resource_ref = this.get("resourceFieldRef")
    field_text = "nil"
    if field_ref is not None:
        field_text = _selector_string(
            "ObjectFieldSelector",
            [
                ("APIVersion", _v(field_ref.get("apiVersion", ""))),
                ("FieldPath", _v(field_ref.get("fieldPath", ""))),
            ],
        )
    resource_text = "nil"
    if resource_ref is not None:
        from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity

        divisor = resource_ref.get("divisor")
        # No divisor is Go's zero Quantity, whose Format is the empty string.
        divisor_text = "{{0 0} {<nil>}  }"
        if divisor is not None:
            divisor_text = fmt.sprint(Quantity.unmarshal_json(divisor))
        resource_text = _selector_string(
            "ResourceFieldSelector",
            [
                ("ContainerName", _v(resource_ref.get("containerName", ""))),
                ("Resource", _v(resource_ref.get("resource", ""))),
                ("Divisor", divisor_text),
            ],
        )
    return _selector_string(
        "EnvVarSource",
        [
            ("FieldRef", field_text),
            ("ResourceFieldRef", resource_text),
            (
                "ConfigMapKeyRef",
                _key_selector_string("ConfigMapKeySelector", this.get("configMapKeyRef")),
            ),
            ("SecretKeyRef", _key_selector_string("SecretKeySelector", this.get("secretKeyRef"))),
        ],
    )


def env_var_string(this: EnvVar | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*EnvVar).String"""
    if this is None:
        return "nil"
    return "".join(
        [
            "&EnvVar{",
            "Name:" + _v(this.name) + ",",
            "Value:" + _v(this.value) + ",",
            "ValueFrom:" + env_var_source_string(this.value_from) + ",",
            "}",
        ]
    )


def resource_requirements_string(this: ResourceRequirements | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*ResourceRequirements).String

    Each quantity prints with ``%v`` of Go's ``resource.Quantity`` struct (its ``String()`` has
    a pointer receiver, so fmt shows the fields): ``{{500 -3} {<nil>} 500m DecimalSI}``.
    """
    if this is None:
        return "nil"
    map_string_for_limits = "ResourceList{"
    for k in sorted(this.limits):
        map_string_for_limits += f"{k}: {fmt.sprint(this.limits[k])},"
    map_string_for_limits += "}"
    map_string_for_requests = "ResourceList{"
    for k in sorted(this.requests):
        map_string_for_requests += f"{k}: {fmt.sprint(this.requests[k])},"
    map_string_for_requests += "}"
    return "".join(
        [
            "&ResourceRequirements{",
            "Limits:" + map_string_for_limits + ",",
            "Requests:" + map_string_for_requests + ",",
            "}",
        ]
    )


def volume_mount_string(this: VolumeMount | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*VolumeMount).String

    The port keeps no ``MountPropagation`` (nil) or ``SubPathExpr`` (empty).
    """
    if this is None:
        return "nil"
    return "".join(
        [
            "&VolumeMount{",
            "Name:" + _v(this.name) + ",",
            "ReadOnly:" + _v(this.read_only) + ",",
            "MountPath:" + _v(this.mount_path) + ",",
            "SubPath:" + _v(this.sub_path) + ",",
            "MountPropagation:" + value_to_string_generated(None) + ",",
            "SubPathExpr:" + ",",
            "}",
        ]
    )


def probe_string(this: Probe | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*Probe).String

    The port keeps no probe-level ``TerminationGracePeriodSeconds`` (alpha in v1.21): nil.
    """
    if this is None:
        return "nil"
    return "".join(
        [
            "&Probe{",
            "Handler:" + handler_string(this.handler).replace("&", "", 1) + ",",
            "InitialDelaySeconds:" + _v(this.initial_delay_seconds) + ",",
            "TimeoutSeconds:" + _v(this.timeout_seconds) + ",",
            "PeriodSeconds:" + _v(this.period_seconds) + ",",
            "SuccessThreshold:" + _v(this.success_threshold) + ",",
            "FailureThreshold:" + _v(this.failure_threshold) + ",",
            "TerminationGracePeriodSeconds:" + value_to_string_generated(None) + ",",
            "}",
        ]
    )


def lifecycle_string(this: Lifecycle | None) -> str:
    """Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*Lifecycle).String"""
    if this is None:
        return "nil"
    return "".join(
        [
            "&Lifecycle{",
            "PostStart:" + handler_string(this.post_start) + ",",
            "PreStop:" + handler_string(this.pre_stop) + ",",
            "}",
        ]
    )


def container_string(this: Container | None) -> str:
    """What kubelet prints for a ``*v1.Container`` (``%v``, ``%+v`` or a klog value).

    Go: staging/src/k8s.io/api/core/v1/generated.pb.go (*Container).String

    Fields the port does not keep print as Go prints their zero values: ``SecurityContext``
    nil, ``EnvFrom`` and ``VolumeDevices`` empty.
    """
    if this is None:
        return "nil"
    repeated_string_for_ports = "[]ContainerPort{"
    for port in this.ports:
        repeated_string_for_ports += container_port_string(port).replace("&", "", 1) + ","
    repeated_string_for_ports += "}"
    repeated_string_for_env = "[]EnvVar{"
    for env in this.env:
        repeated_string_for_env += env_var_string(env).replace("&", "", 1) + ","
    repeated_string_for_env += "}"
    repeated_string_for_volume_mounts = "[]VolumeMount{"
    for mount in this.volume_mounts:
        repeated_string_for_volume_mounts += volume_mount_string(mount).replace("&", "", 1) + ","
    repeated_string_for_volume_mounts += "}"
    # The port keeps no envFrom or volumeDevices: Go's loops over them add nothing.
    repeated_string_for_env_from = "[]EnvFromSource{" + "}"
    repeated_string_for_volume_devices = "[]VolumeDevice{" + "}"
    return "".join(
        [
            "&Container{",
            "Name:" + _v(this.name) + ",",
            "Image:" + _v(this.image) + ",",
            "Command:" + _strings(this.command) + ",",
            "Args:" + _strings(this.args) + ",",
            "WorkingDir:" + _v(this.working_dir) + ",",
            "Ports:" + repeated_string_for_ports + ",",
            "Env:" + repeated_string_for_env + ",",
            "Resources:" + resource_requirements_string(this.resources).replace("&", "", 1) + ",",
            "VolumeMounts:" + repeated_string_for_volume_mounts + ",",
            "LivenessProbe:" + probe_string(this.liveness_probe) + ",",
            "ReadinessProbe:" + probe_string(this.readiness_probe) + ",",
            "Lifecycle:" + lifecycle_string(this.lifecycle) + ",",
            "TerminationMessagePath:" + _v(this.termination_message_path) + ",",
            "ImagePullPolicy:" + _v(this.image_pull_policy) + ",",
            # Not kept by the port: Go's nil pointer.
            "SecurityContext:" + "nil" + ",",
            "Stdin:" + _v(this.stdin) + ",",
            "StdinOnce:" + _v(this.stdin_once) + ",",
            "TTY:" + _v(this.tty) + ",",
            "EnvFrom:" + repeated_string_for_env_from + ",",
            "TerminationMessagePolicy:" + _v(this.termination_message_policy) + ",",
            "VolumeDevices:" + repeated_string_for_volume_devices + ",",
            "StartupProbe:" + probe_string(this.startup_probe) + ",",
            "}",
        ]
    )
