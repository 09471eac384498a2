"""Small questions kubelet asks about a pod's status: its conditions, its containers' statuses.

Go: pkg/api/v1/pod/util.go

Only the helpers the pod-creation path uses are ported (conditions, container statuses,
readiness); the visitors of secret and config-map names and ``FindPort`` are left out.

Go returns a ``*v1.PodCondition`` pointing into the status, so that a caller can change the
condition in place; the functions here return the very [`PodCondition`][] object in the list,
which has the same effect. Go's "nil" is ``None``.
"""

from __future__ import annotations

from minikubelet import go
from minikubelet.k8s_io.api.core.v1 import (
    ConditionStatus,
    ContainerStatus,
    Pod,
    PodCondition,
    PodConditionType,
    PodStatus,
)

__all__ = [
    "get_container_status",
    "get_existing_container_status",
    "get_pod_condition",
    "get_pod_condition_from_list",
    "get_pod_ready_condition",
    "is_pod_available",
    "is_pod_ready",
    "is_pod_ready_condition_true",
    "update_pod_condition",
]


def get_container_status(
    statuses: list[ContainerStatus], name: str
) -> tuple[ContainerStatus, bool]:
    """The status of container ``name`` in ``statuses``, and whether it was there.

    Go: pkg/api/v1/pod/util.go GetContainerStatus

    Go returns a copy; this returns the object in the list (callers only read it). When the
    container is not there, an empty status (Go's zero value) and False.
    """
    for status in statuses:
        if status.name == name:
            return status, True
    return ContainerStatus(name=""), False


def get_existing_container_status(statuses: list[ContainerStatus], name: str) -> ContainerStatus:
    """The status of container ``name``, or an empty status if there is none.

    Go: pkg/api/v1/pod/util.go GetExistingContainerStatus
    """
    status, _ = get_container_status(statuses, name)
    return status


def is_pod_available(pod: Pod, min_ready_seconds: int, now: float) -> bool:
    """Whether the pod is ready, and has been for at least ``min_ready_seconds``.

    Go: pkg/api/v1/pod/util.go IsPodAvailable

    ``now`` is seconds since the Unix epoch, like every time in
    [`minikubelet.k8s_io.api.core.v1`][minikubelet.k8s_io.api.core.v1].
    """
    if not is_pod_ready(pod):
        return False

    c = get_pod_ready_condition(pod.status)
    assert c is not None  # is_pod_ready found it
    return min_ready_seconds == 0 or (
        c.last_transition_time is not None and c.last_transition_time + min_ready_seconds < now
    )


def is_pod_ready(pod: Pod) -> bool:
    """Whether the pod's ``Ready`` condition is ``True``.

    Go: pkg/api/v1/pod/util.go IsPodReady
    """
    return is_pod_ready_condition_true(pod.status)


def is_pod_ready_condition_true(status: PodStatus) -> bool:
    """Whether the status has a ``Ready`` condition that is ``True``.

    Go: pkg/api/v1/pod/util.go IsPodReadyConditionTrue
    """
    condition = get_pod_ready_condition(status)
    return condition is not None and condition.status == ConditionStatus.TRUE


def get_pod_ready_condition(status: PodStatus) -> PodCondition | None:
    """The ``Ready`` condition of the status, or None.

    Go: pkg/api/v1/pod/util.go GetPodReadyCondition
    """
    _, condition = get_pod_condition(status, PodConditionType.READY)
    return condition


def get_pod_condition(
    status: PodStatus | None, condition_type: str
) -> tuple[int, PodCondition | None]:
    """The index and the condition of type ``condition_type`` in the status; ``(-1, None)`` if
    there is none.

    Go: pkg/api/v1/pod/util.go GetPodCondition
    """
    if status is None:
        return -1, None
    return get_pod_condition_from_list(status.conditions, condition_type)


def get_pod_condition_from_list(
    conditions: list[PodCondition] | None, condition_type: str
) -> tuple[int, PodCondition | None]:
    """The index and the condition of type ``condition_type`` in ``conditions``; ``(-1, None)``
    if there is none.

    Go: pkg/api/v1/pod/util.go GetPodConditionFromList
    """
    if conditions is None:
        return -1, None
    for i, condition in enumerate(conditions):
        if condition.type == condition_type:
            return i, condition
    return -1, None


def update_pod_condition(status: PodStatus, condition: PodCondition) -> bool:
    """Add the condition to the status, or replace the one of the same type. Returns whether
    anything changed. The transition time is now, unless the condition's status is unchanged.

    Go: pkg/api/v1/pod/util.go UpdatePodCondition
    """
    condition.last_transition_time = go.now().unix()
    condition_index, old_condition = get_pod_condition(status, condition.type)

    if old_condition is None:
        status.conditions.append(condition)
        return True
    if condition.status == old_condition.status:
        condition.last_transition_time = old_condition.last_transition_time

    is_equal = (
        condition.status == old_condition.status
        and condition.reason == old_condition.reason
        and condition.message == old_condition.message
        and condition.last_probe_time == old_condition.last_probe_time
        and condition.last_transition_time == old_condition.last_transition_time
    )

    status.conditions[condition_index] = condition
    return not is_equal
