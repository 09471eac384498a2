"""The setters kubelet runs on its node's status (only the pressure conditions are ported).

Go: pkg/kubelet/nodestatus/setters.go

Each setter is a function of the node that changes its status in place. The three here keep the
``MemoryPressure``, ``DiskPressure`` and ``PIDPressure`` conditions in step with the eviction
manager, and record an event each time one changes.
"""

from __future__ import annotations

from collections.abc import Callable

from minikubelet.k8s_io.api.core.v1 import (
    ConditionFalse,
    ConditionTrue,
    ConditionUnknown,
    Node,
    NodeCondition,
    NodeConditionType,
    NodeDiskPressure,
    NodeMemoryPressure,
    NodePIDPressure,
)
from minikubelet.k8s_io.client_go.tools.record.event import EventTypeNormal

#: Go: pkg/kubelet/nodestatus/setters.go type Setter: changes the node's status in place (Go's
#: returns an error; these never fail).
Setter = Callable[[Node], None]


def memory_pressure_condition(
    now_func: Callable[[], float],
    pressure_func: Callable[[], bool],
    record_event_func: Callable[[str, str], None],
) -> Setter:
    """A setter for ``MemoryPressure``: true while ``pressure_func`` says so.

    Go: pkg/kubelet/nodestatus/setters.go MemoryPressureCondition

    Go writes the same function three times, once per pressure, with its own words; the port
    writes it once ([`pressure_condition`][]) and gives it the words.
    """
    return pressure_condition(
        NodeMemoryPressure,
        ("KubeletHasInsufficientMemory", "kubelet has insufficient memory available"),
        "NodeHasInsufficientMemory",
        ("KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
        "NodeHasSufficientMemory",
        now_func,
        pressure_func,
        record_event_func,
    )


def pid_pressure_condition(
    now_func: Callable[[], float],
    pressure_func: Callable[[], bool],
    record_event_func: Callable[[str, str], None],
) -> Setter:
    """A setter for ``PIDPressure``.

    Go: pkg/kubelet/nodestatus/setters.go PIDPressureCondition
    """
    return pressure_condition(
        NodePIDPressure,
        ("KubeletHasInsufficientPID", "kubelet has insufficient PID available"),
        "NodeHasInsufficientPID",
        ("KubeletHasSufficientPID", "kubelet has sufficient PID available"),
        "NodeHasSufficientPID",
        now_func,
        pressure_func,
        record_event_func,
    )


def disk_pressure_condition(
    now_func: Callable[[], float],
    pressure_func: Callable[[], bool],
    record_event_func: Callable[[str, str], None],
) -> Setter:
    """A setter for ``DiskPressure``.

    Go: pkg/kubelet/nodestatus/setters.go DiskPressureCondition
    """
    return pressure_condition(
        NodeDiskPressure,
        ("KubeletHasDiskPressure", "kubelet has disk pressure"),
        "NodeHasDiskPressure",
        ("KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
        "NodeHasNoDiskPressure",
        now_func,
        pressure_func,
        record_event_func,
    )


def pressure_condition(
    condition_type: NodeConditionType,
    under_pressure: tuple[str, str],
    under_pressure_event: str,
    no_pressure: tuple[str, str],
    no_pressure_event: str,
    now_func: Callable[[], float],
    pressure_func: Callable[[], bool],
    record_event_func: Callable[[str, str], None],
) -> Setter:
    """The body the three pressure setters share (ours): ``under_pressure`` and ``no_pressure``
    are the condition's (reason, message) either way."""

    def setter(node: Node) -> None:
        current_time = now_func()
        condition: NodeCondition | None = None

        # The condition the node already has, if any, is updated in place.
        for c in node.status.conditions:
            if c.type == condition_type:
                condition = c

        new_condition = False
        if condition is None:
            condition = NodeCondition(type=condition_type, status=ConditionUnknown)
            new_condition = True

        condition.last_heartbeat_time = current_time

        # A new condition is Unknown, so it takes one of the two branches below.
        if pressure_func():
            if condition.status != ConditionTrue:
                condition.status = ConditionTrue
                condition.reason, condition.message = under_pressure
                condition.last_transition_time = current_time
                record_event_func(EventTypeNormal, under_pressure_event)
        elif condition.status != ConditionFalse:
            condition.status = ConditionFalse
            condition.reason, condition.message = no_pressure
            condition.last_transition_time = current_time
            record_event_func(EventTypeNormal, no_pressure_event)

        if new_condition:
            node.status.conditions.append(condition)

    return setter
