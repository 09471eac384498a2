"""The node's pressure conditions: kubelet's setters, and when a status counts as changed."""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Node, NodeCondition, NodeStatus
from minikubelet.kubelet_node_status import node_status_has_changed
from minikubelet.nodestatus.setters import memory_pressure_condition, pid_pressure_condition


def test_memory_pressure_condition_follows_the_eviction_manager():
    node = Node()
    pressure = [False]
    now = [100.0]
    events: list[tuple[str, str]] = []
    setter = memory_pressure_condition(
        lambda: now[0], lambda: pressure[0], lambda t, e: events.append((t, e))
    )

    setter(node)
    (condition,) = node.status.conditions
    assert (condition.type, condition.status, condition.reason, condition.message) == (
        "MemoryPressure",
        "False",
        "KubeletHasSufficientMemory",
        "kubelet has sufficient memory available",
    )
    assert condition.last_transition_time == condition.last_heartbeat_time == 100.0
    assert events == [("Normal", "NodeHasSufficientMemory")]

    # Unchanged: only the heartbeat moves, and no event.
    now[0] = 110.0
    setter(node)
    assert condition.last_heartbeat_time == 110.0 and condition.last_transition_time == 100.0
    assert len(events) == 1

    pressure[0] = True
    now[0] = 120.0
    setter(node)
    assert (condition.status, condition.reason, condition.message) == (
        "True",
        "KubeletHasInsufficientMemory",
        "kubelet has insufficient memory available",
    )
    assert condition.last_transition_time == 120.0
    assert events[-1] == ("Normal", "NodeHasInsufficientMemory")
    assert len(node.status.conditions) == 1


def test_pid_pressure_condition():
    node = Node()
    events: list[str] = []
    pid_pressure_condition(lambda: 1.0, lambda: True, lambda t, e: events.append(e))(node)
    assert node.status.conditions[0].reason == "KubeletHasInsufficientPID"
    assert events == ["NodeHasInsufficientPID"]


def test_a_heartbeat_alone_is_no_change():
    def status(heartbeat: float, state: str = "False") -> NodeStatus:
        return NodeStatus(
            conditions=[
                NodeCondition(type="MemoryPressure", status=state, last_heartbeat_time=heartbeat)
            ]
        )

    assert not node_status_has_changed(status(1.0), status(2.0))
    assert node_status_has_changed(status(1.0), status(1.0, "True"))
    assert node_status_has_changed(status(1.0), NodeStatus())
    assert not node_status_has_changed(None, None)
