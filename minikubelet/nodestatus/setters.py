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
    """

    def setter(node: Node) -> None:
        current_time = now_func()
        condition: NodeCondition | None = None

        # The condition the node already has, if any, is updated in place.
        for c in node.status.conditions:
            if c.type == NodeMemoryPressure:
                condition = c

        new_condition = False
        # Go: if condition == nil {
        if condition is None:
            condition = NodeCondition(type=NodeMemoryPressure, status=ConditionUnknown)
            new_condition = True

        condition.last_heartbeat_time = current_time

        # A new condition is Unknown, so it takes one of the two branches below.
        # Go: if pressureFunc() {
        if pressure_func():
            if condition.status != ConditionTrue:
                condition.status = ConditionTrue
                condition.reason = "KubeletHasInsufficientMemory"
                condition.message = "kubelet has insufficient memory available"
                condition.last_transition_time = current_time
                record_event_func(EventTypeNormal, "NodeHasInsufficientMemory")
        elif condition.status != ConditionFalse:
            condition.status = ConditionFalse
            condition.reason = "KubeletHasSufficientMemory"
            condition.message = "kubelet has sufficient memory available"
            condition.last_transition_time = current_time
            record_event_func(EventTypeNormal, "NodeHasSufficientMemory")

        if new_condition:
            node.status.conditions.append(condition)

    return setter


def pid_pressure_condition(
    now_func: Callable[[], float],
    pressure_func: Callable[[], bool],
    record_event_func: Callable[[str, str], None],
) -> Setter:
    """A setter for ``PIDPressure``.

    Go: pkg/kubelet/nodestatus/setters.go PIDPressureCondition
    """

    def setter(node: Node) -> None:
        current_time = now_func()
        condition: NodeCondition | None = None

        for c in node.status.conditions:
            if c.type == NodePIDPressure:
                condition = c

        new_condition = False
        # Go: if condition == nil {
        if condition is None:
            condition = NodeCondition(type=NodePIDPressure, status=ConditionUnknown)
            new_condition = True

        condition.last_heartbeat_time = current_time

        # Go: if pressureFunc() {
        if pressure_func():
            if condition.status != ConditionTrue:
                condition.status = ConditionTrue
                condition.reason = "KubeletHasInsufficientPID"
                condition.message = "kubelet has insufficient PID available"
                condition.last_transition_time = current_time
                record_event_func(EventTypeNormal, "NodeHasInsufficientPID")
        elif condition.status != ConditionFalse:
            condition.status = ConditionFalse
            condition.reason = "KubeletHasSufficientPID"
            condition.message = "kubelet has sufficient PID available"
            condition.last_transition_time = current_time
            record_event_func(EventTypeNormal, "NodeHasSufficientPID")

        if new_condition:
            node.status.conditions.append(condition)

    return setter


def disk_pressure_condition(
    now_func: Callable[[], float],
    pressure_func: Callable[[], bool],
    record_event_func: Callable[[str, str], None],
) -> Setter:
    """A setter for ``DiskPressure``.

    Go: pkg/kubelet/nodestatus/setters.go DiskPressureCondition
    """

    def setter(node: Node) -> None:
        current_time = now_func()
        condition: NodeCondition | None = None

        for c in node.status.conditions:
            if c.type == NodeDiskPressure:
                condition = c

        new_condition = False
        # Go: if condition == nil {
        if condition is None:
            condition = NodeCondition(type=NodeDiskPressure, status=ConditionUnknown)
            new_condition = True

        condition.last_heartbeat_time = current_time

        # Go: if pressureFunc() {
        if pressure_func():
            if condition.status != ConditionTrue:
                condition.status = ConditionTrue
                condition.reason = "KubeletHasDiskPressure"
                condition.message = "kubelet has disk pressure"
                condition.last_transition_time = current_time
                record_event_func(EventTypeNormal, "NodeHasDiskPressure")
        elif condition.status != ConditionFalse:
            condition.status = ConditionFalse
            condition.reason = "KubeletHasNoDiskPressure"
            condition.message = "kubelet has no disk pressure"
            condition.last_transition_time = current_time
            record_event_func(EventTypeNormal, "NodeHasNoDiskPressure")

        if new_condition:
            node.status.conditions.append(condition)

    return setter
