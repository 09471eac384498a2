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

from minikubelet.go.clock import time_string

if TYPE_CHECKING:
    from minikubelet.k8s_io.api.core.v1.types import (
        ContainerState,
        ContainerStateRunning,
        ContainerStateTerminated,
        ContainerStateWaiting,
        ContainerStatus,
        ExecAction,
        Handler,
        HTTPGetAction,
        HTTPHeader,
        PodCondition,
        PodIP,
        PodStatus,
        TCPSocketAction,
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
    """``%v`` of an ``intstr.IntOrString``: the struct's fields, ``{Type IntVal StrVal}``."""
    if isinstance(port, int):
        return f"{{0 {port} }}"
    return f"{{1 0 {port}}}"


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
