"""Does the node have room for the pod? CPU, memory, ephemeral storage and the pod count.

Go: pkg/scheduler/framework/plugins/noderesources/fit.go

The scheduler runs this as its ``NodeResourcesFit`` plugin; kubelet calls [`fits`][] directly
from ``GeneralPredicates`` when it admits a pod. Only that path is ported: the plugin's
``PreFilter``/``Filter`` methods, its arguments and their validation are left out.

A pod's request is the sum of its containers' requests, raised in each dimension to the
largest request of a single init container (init containers run one at a time). The node has
room when, for each resource, ``request <= allocatable - requested by the other pods``.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass

from minikubelet.k8s_io.api.core.v1 import (
    Pod,
    ResourceCPU,
    ResourceEphemeralStorage,
    ResourceMemory,
)
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper import helpers as v1helper
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.types import (
    NodeInfo,
    Resource,
    ResourcePods,
)

__all__ = [
    "FitName",
    "InsufficientResource",
    "PreFilterState",
    "compute_pod_resource_request",
    "fits",
    "fits_request",
]

#: The name of the plugin in the scheduler's registry. Go: noderesources.FitName
FitName = "NodeResourcesFit"


@dataclass(slots=True)
class PreFilterState(Resource):
    """A pod's resource request, as the plugin precomputes it (Go embeds a ``Resource``).

    Go: pkg/scheduler/framework/plugins/noderesources/fit.go type preFilterState
    """


def compute_pod_resource_request(pod: Pod) -> PreFilterState:
    """The pod's request: the sum over its containers, then the max with each init container.

    Go: pkg/scheduler/framework/plugins/noderesources/fit.go computePodResourceRequest

    For example, init containers of 2 CPU/1G and 2 CPU/3G, and containers of 2 CPU/1G and
    1 CPU/1G, request 3 CPU and 3G. Pod overhead (Go adds ``Spec.Overhead`` when the PodOverhead
    feature is on) is ignored: the api has no ``PodSpec.overhead``.
    """
    result = PreFilterState()
    for container in pod.spec.containers:
        result.add(container.resources.requests)

    # Init containers run one at a time, before the others: the pod needs the largest of them
    # or the sum of the regular containers, whichever is more, per resource.
    for container in pod.spec.init_containers:
        result.set_max_resource(container.resources.requests)

    return result


@dataclass(frozen=True, slots=True)
class InsufficientResource:
    """A resource the node does not have enough of for the pod.

    Go: pkg/scheduler/framework/plugins/noderesources/fit.go type InsufficientResource
    """

    resource_name: str
    #: Go keeps a ready-made reason, to avoid formatting a message on the fly.
    reason: str
    requested: int
    used: int
    capacity: int


def fits(pod: Pod, node_info: NodeInfo) -> list[InsufficientResource]:
    """The resources the node lacks for the pod; empty if it fits.

    Go: pkg/scheduler/framework/plugins/noderesources/fit.go Fits
    """
    return fits_request(compute_pod_resource_request(pod), node_info, None, None)


def fits_request(
    pod_request: Resource,
    node_info: NodeInfo,
    ignored_extended_resources: Set[str] | None,
    ignored_resource_groups: Set[str] | None,
) -> list[InsufficientResource]:
    """The resources the node lacks for a pod that requests ``pod_request``.

    Go: pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest

    The pod count is checked first and always; the rest only if the pod requests anything.
    Extended resources named in ``ignored_extended_resources``, or whose prefix (before the
    ``/``) is in ``ignored_resource_groups``, are not checked (kubelet passes neither).
    """
    insufficient_resources: list[InsufficientResource] = []

    allowed_pod_number = node_info.allocatable.allowed_pod_number
    if len(node_info.pods) + 1 > allowed_pod_number:
        insufficient_resources.append(
            InsufficientResource(
                ResourcePods,
                "Too many pods",
                1,
                len(node_info.pods),
                allowed_pod_number,
            )
        )

    if (
        pod_request.milli_cpu == 0
        and pod_request.memory == 0
        and pod_request.ephemeral_storage == 0
        and len(pod_request.scalar_resources or {}) == 0
    ):
        return insufficient_resources

    if pod_request.milli_cpu > (node_info.allocatable.milli_cpu - node_info.requested.milli_cpu):
        insufficient_resources.append(
            InsufficientResource(
                ResourceCPU,
                "Insufficient cpu",
                pod_request.milli_cpu,
                node_info.requested.milli_cpu,
                node_info.allocatable.milli_cpu,
            )
        )
    if pod_request.memory > (node_info.allocatable.memory - node_info.requested.memory):
        insufficient_resources.append(
            InsufficientResource(
                ResourceMemory,
                "Insufficient memory",
                pod_request.memory,
                node_info.requested.memory,
                node_info.allocatable.memory,
            )
        )
    if pod_request.ephemeral_storage > (
        node_info.allocatable.ephemeral_storage - node_info.requested.ephemeral_storage
    ):
        insufficient_resources.append(
            InsufficientResource(
                ResourceEphemeralStorage,
                "Insufficient ephemeral-storage",
                pod_request.ephemeral_storage,
                node_info.requested.ephemeral_storage,
                node_info.allocatable.ephemeral_storage,
            )
        )

    allocatable = node_info.allocatable.scalar_resources or {}
    requested = node_info.requested.scalar_resources or {}
    # Go ranges over a map here, so with two short scalar resources kubelet may name either
    # one first (and the admission message names only reasons[0]); the port takes the pod's
    # order, which a test can rely on.
    for r_name, r_quant in (pod_request.scalar_resources or {}).items():
        if v1helper.is_extended_resource_name(r_name):
            # An extended name is domain/name: the validator refuses one without its domain,
            # so split("/")[0] is the resource group.
            r_name_prefix = ""
            if ignored_resource_groups:
                r_name_prefix = r_name.split("/")[0]
            if r_name in (ignored_extended_resources or ()) or r_name_prefix in (
                ignored_resource_groups or ()
            ):
                continue
        if r_quant > (allocatable.get(r_name, 0) - requested.get(r_name, 0)):
            insufficient_resources.append(
                InsufficientResource(
                    r_name,
                    f"Insufficient {r_name}",
                    r_quant,
                    requested.get(r_name, 0),
                    allocatable.get(r_name, 0),
                )
            )

    return insufficient_resources
