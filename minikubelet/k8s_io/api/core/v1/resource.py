"""Helpers on resource lists.

Go: staging/src/k8s.io/api/core/v1/resource.go
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1.types import (
    ResourceCPU,
    ResourceEphemeralStorage,
    ResourceList,
    ResourceMemory,
)
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Format, Quantity


def resource_list_cpu(resources: ResourceList) -> Quantity:
    """The CPU quantity of a resource list, or zero.

    Go: staging/src/k8s.io/api/core/v1/resource.go (*ResourceList).Cpu
    """
    return resources.get(ResourceCPU, Quantity.from_int(0))


def resource_list_memory(resources: ResourceList) -> Quantity:
    """The memory quantity of a resource list, or zero.

    Go: staging/src/k8s.io/api/core/v1/resource.go (*ResourceList).Memory
    """
    return resources.get(ResourceMemory, Quantity.from_int(0))


def resource_list_storage_ephemeral(resources: ResourceList) -> Quantity:
    """The ephemeral-storage quantity of a resource list, or zero.

    Go: staging/src/k8s.io/api/core/v1/resource.go (*ResourceList).StorageEphemeral
    """
    return resources.get(ResourceEphemeralStorage, Quantity.from_int(0, Format.BINARY_SI))
