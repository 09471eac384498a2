"""How much of one resource a whole pod requests.

Go: pkg/api/v1/resource/helpers.go

kubelet imports this package as ``resource`` or ``v1resource``; the port names the module after
the second, so that it does not clash with the quantity module [`minikubelet.k8s_io.apimachinery.pkg.api.resource`][minikubelet.k8s_io.apimachinery.pkg.api.resource].
Ported: the request helpers the critical-pod admission handler uses, and the sums of requests
and limits the eviction manager and kubelet's cgroup code read.
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import (
    Pod,
    ResourceCPU,
    ResourceEphemeralStorage,
    ResourceList,
    ResourceMemory,
)
from minikubelet.k8s_io.apimachinery.pkg.api.resource import BinarySI, DecimalSI, Quantity
from minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.types import ResourcePods

__all__ = ["get_resource_request", "get_resource_request_quantity", "pod_requests_and_limits"]

#: Go: v1.ResourceStorage. Pods do not request it; it only picks the quantity's format.
ResourceStorage = "storage"


def pod_requests_and_limits(pod: Pod) -> tuple[ResourceList, ResourceList]:
    """The pod's requests and limits: its containers' added up, each raised to the largest
    single init container's.

    Go: pkg/api/v1/resource/helpers.go PodRequestsAndLimits

    Go's ``PodRequestsAndLimitsReuse`` (which this calls) may reuse two maps to save
    allocations; here each call makes new ones. Go then adds the pod's overhead (PodOverhead);
    ``PodSpec`` has no ``overhead`` here.
    """
    reqs: ResourceList = {}
    limits: ResourceList = {}
    for container in pod.spec.containers:
        add_resource_list(reqs, container.resources.requests)
        add_resource_list(limits, container.resources.limits)
    # Go: for _, container := range pod.Spec.InitContainers {
    for container in pod.spec.init_containers:
        max_resource_list(reqs, container.resources.requests)
        max_resource_list(limits, container.resources.limits)
    return reqs, limits


def add_resource_list(resources: ResourceList, new_list: ResourceList) -> None:
    """Add each quantity of ``new_list`` to ``resources``.

    Go: pkg/api/v1/resource/helpers.go addResourceList
    """
    for name, quantity in new_list.items():
        value = resources.get(name)
        if value is None:
            resources[name] = quantity
        else:
            resources[name] = value.add(quantity)


def max_resource_list(resources: ResourceList, new_list: ResourceList) -> None:
    """Raise each quantity of ``resources`` to the one in ``new_list`` where that is larger.

    Go: pkg/api/v1/resource/helpers.go maxResourceList
    """
    for name, quantity in new_list.items():
        value = resources.get(name)
        if value is None or quantity.cmp(value) > 0:
            resources[name] = quantity


def get_resource_request_quantity(pod: Pod, resource_name: str) -> Quantity:
    """The pod's request of ``resource_name``: its containers' requests added up, raised to the
    largest single init container's request.

    Go: pkg/api/v1/resource/helpers.go GetResourceRequestQuantity

    Go's two feature gates here are on by default in v1.21 and have nothing to act on in the
    port: ephemeral storage always counts (LocalStorageCapacityIsolation), and ``PodSpec`` has
    no ``overhead`` to add (PodOverhead).
    """
    # Go: case v1.ResourceCPU:
    if resource_name == ResourceCPU:
        fmt = DecimalSI
    # Go: case v1.ResourceMemory, v1.ResourceStorage, v1.ResourceEphemeralStorage:
    elif resource_name in (ResourceMemory, ResourceStorage, ResourceEphemeralStorage):
        fmt = BinarySI
    # Go: default:
    else:
        fmt = DecimalSI
    request_quantity = Quantity(Quantity.from_int(0).amount, fmt)

    for container in pod.spec.containers:
        r_quantity = container.resources.requests.get(resource_name)
        if r_quantity is not None:
            request_quantity = Quantity(request_quantity.amount + r_quantity.amount, fmt)

    for container in pod.spec.init_containers:
        r_quantity = container.resources.requests.get(resource_name)
        if r_quantity is not None and request_quantity.cmp(r_quantity) < 0:
            request_quantity = r_quantity

    return request_quantity


def get_resource_request(pod: Pod, resource: str) -> int:
    """The pod's request of ``resource`` as a number: CPU in millicores, one for ``pods``, the
    whole value (bytes) for anything else.

    Go: pkg/api/v1/resource/helpers.go GetResourceRequest
    """
    if resource == ResourcePods:
        return 1

    request_quantity = get_resource_request_quantity(pod, resource)

    if resource == ResourceCPU:
        return request_quantity.milli_value()

    return request_quantity.value()
