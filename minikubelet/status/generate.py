"""The pod conditions kubelet computes from its containers: ``ContainersReady``, ``Ready``,
``Initialized``.

Go: pkg/kubelet/status/generate.go

A container list is printed the way Go's ``%s`` prints a ``[]string``: ``[web sidecar]``.

Go tells a nil list of container statuses (status not known yet) from an empty one; the api
dataclasses cannot (a missing list is ``[]``), so an empty list counts as nil here. kubelet
always lists every container of the spec once it has generated a status, so the two cases differ
only for a pod that has never been synced.
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import (
    ConditionStatus,
    ContainerStatus,
    PodCondition,
    PodConditionType,
    PodPhase,
    PodSpec,
)
from minikubelet.k8s_io.kubernetes.pkg.api.v1.pod.util import (
    get_container_status,
    get_pod_condition_from_list,
)

# The reasons of the conditions (`kubectl describe pod` shows them).
UnknownContainerStatuses = "UnknownContainerStatuses"
PodCompleted = "PodCompleted"
ContainersNotReady = "ContainersNotReady"
ContainersNotInitialized = "ContainersNotInitialized"
ReadinessGatesNotReady = "ReadinessGatesNotReady"


def _go_list(names: list[str]) -> str:
    """``names`` as Go's ``fmt.Sprintf("%s", names)`` prints a ``[]string``: ``[a b]``."""
    return "[" + " ".join(names) + "]"


def generate_containers_ready_condition(
    spec: PodSpec, container_statuses: list[ContainerStatus] | None, pod_phase: PodPhase | None
) -> PodCondition:
    """The ``ContainersReady`` condition: ``True`` when every container is ready.

    Go: pkg/kubelet/status/generate.go GenerateContainersReadyCondition
    """
    if not container_statuses:  # Go: containerStatuses == nil (see the module docstring)
        return PodCondition(
            type=PodConditionType.CONTAINERS_READY,
            status=ConditionStatus.FALSE,
            reason=UnknownContainerStatuses,
        )
    unknown_containers: list[str] = []
    unready_containers: list[str] = []
    for container in spec.containers:
        container_status, ok = get_container_status(container_statuses, container.name)
        if ok:
            if not container_status.ready:
                unready_containers.append(container.name)
        else:
            unknown_containers.append(container.name)

    # A pod that ran to completion is not "not ready" in the usual sense: its own reason.
    if pod_phase == PodPhase.SUCCEEDED and len(unknown_containers) == 0:
        return PodCondition(
            type=PodConditionType.CONTAINERS_READY,
            status=ConditionStatus.FALSE,
            reason=PodCompleted,
        )

    unready_messages: list[str] = []
    if len(unknown_containers) > 0:
        unready_messages.append(f"containers with unknown status: {_go_list(unknown_containers)}")
    if len(unready_containers) > 0:
        unready_messages.append(f"containers with unready status: {_go_list(unready_containers)}")
    unready_message = ", ".join(unready_messages)
    if unready_message != "":
        return PodCondition(
            type=PodConditionType.CONTAINERS_READY,
            status=ConditionStatus.FALSE,
            reason=ContainersNotReady,
            message=unready_message,
        )

    return PodCondition(type=PodConditionType.CONTAINERS_READY, status=ConditionStatus.TRUE)


def generate_pod_ready_condition(
    spec: PodSpec,
    conditions: list[PodCondition] | None,
    container_statuses: list[ContainerStatus] | None,
    pod_phase: PodPhase | None,
) -> PodCondition:
    """The ``Ready`` condition: ``True`` when every container is ready and every readiness gate's
    condition is ``True``.

    Go: pkg/kubelet/status/generate.go GeneratePodReadyCondition
    """
    containers_ready = generate_containers_ready_condition(spec, container_statuses, pod_phase)
    if containers_ready.status != ConditionStatus.TRUE:
        return PodCondition(
            type=PodConditionType.READY,
            status=containers_ready.status,
            reason=containers_ready.reason,
            message=containers_ready.message,
        )

    unready_messages: list[str] = []
    # minikubelet.k8s_io.api.core.v1's PodSpec has no readiness_gates yet: none until it does.
    for rg in getattr(spec, "readiness_gates", None) or []:
        _, c = get_pod_condition_from_list(conditions, rg.condition_type)
        if c is None:
            unready_messages.append(
                f'corresponding condition of pod readiness gate "{rg.condition_type}" '
                "does not exist."
            )
        elif c.status != ConditionStatus.TRUE:
            unready_messages.append(
                f'the status of pod readiness gate "{rg.condition_type}" is not "True", '
                f"but {c.status}"
            )

    if len(unready_messages) != 0:
        unready_message = ", ".join(unready_messages)
        return PodCondition(
            type=PodConditionType.READY,
            status=ConditionStatus.FALSE,
            reason=ReadinessGatesNotReady,
            message=unready_message,
        )

    return PodCondition(type=PodConditionType.READY, status=ConditionStatus.TRUE)


def generate_pod_initialized_condition(
    spec: PodSpec, container_statuses: list[ContainerStatus] | None, pod_phase: PodPhase | None
) -> PodCondition:
    """The ``Initialized`` condition: ``True`` when every init container has succeeded.

    Go: pkg/kubelet/status/generate.go GeneratePodInitializedCondition

    ``container_statuses`` are the *init* containers' statuses.
    """
    if not container_statuses and len(spec.init_containers) > 0:  # Go: containerStatuses == nil
        return PodCondition(
            type=PodConditionType.INITIALIZED,
            status=ConditionStatus.FALSE,
            reason=UnknownContainerStatuses,
        )
    container_statuses = container_statuses or []
    unknown_containers: list[str] = []
    unready_containers: list[str] = []
    for container in spec.init_containers:
        container_status, ok = get_container_status(container_statuses, container.name)
        if ok:
            if not container_status.ready:
                unready_containers.append(container.name)
        else:
            unknown_containers.append(container.name)

    # Unlike ContainersReady above, a completed pod counts as initialized (True).
    if pod_phase == PodPhase.SUCCEEDED and len(unknown_containers) == 0:
        return PodCondition(
            type=PodConditionType.INITIALIZED,
            status=ConditionStatus.TRUE,
            reason=PodCompleted,
        )

    unready_messages: list[str] = []
    if len(unknown_containers) > 0:
        unready_messages.append(f"containers with unknown status: {_go_list(unknown_containers)}")
    if len(unready_containers) > 0:
        unready_messages.append(
            f"containers with incomplete status: {_go_list(unready_containers)}"
        )
    unready_message = ", ".join(unready_messages)
    if unready_message != "":
        return PodCondition(
            type=PodConditionType.INITIALIZED,
            status=ConditionStatus.FALSE,
            reason=ContainersNotInitialized,
            message=unready_message,
        )

    return PodCondition(type=PodConditionType.INITIALIZED, status=ConditionStatus.TRUE)
