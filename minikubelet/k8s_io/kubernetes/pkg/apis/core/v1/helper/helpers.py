"""What kind of resource a resource name is: native, extended, hugepages, attachable volumes;
the page size a hugepages name stands for.

Go: pkg/apis/core/v1/helper/helpers.go
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import (
    DefaultResourceRequestsPrefix,
    ResourceAttachableVolumesPrefix,
    ResourceDefaultNamespacePrefix,
    ResourceHugePagesPrefix,
    StorageMediumHugePages,
    StorageMediumHugePagesPrefix,
)
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.apimachinery.pkg.util.validation.validation import is_qualified_name


def is_extended_resource_name(name: str) -> bool:
    """Whether ``name`` is an extended resource (``example.com/gpu``): not native, and a valid
    quota name once ``requests.`` is put before it.

    Go: pkg/apis/core/v1/helper/helpers.go IsExtendedResourceName
    """
    if is_native_resource(name) or name.startswith(DefaultResourceRequestsPrefix):
        return False
    name_for_quota = f"{DefaultResourceRequestsPrefix}{name}"
    return is_qualified_name(name_for_quota) is None


def is_prefixed_native_resource(name: str) -> bool:
    """Go: pkg/apis/core/v1/helper/helpers.go IsPrefixedNativeResource"""
    return ResourceDefaultNamespacePrefix in name


def is_native_resource(name: str) -> bool:
    """Whether ``name`` is in the ``kubernetes.io/`` namespace (a name without ``/`` is).

    Go: pkg/apis/core/v1/helper/helpers.go IsNativeResource
    """
    return "/" not in name or is_prefixed_native_resource(name)


def is_huge_page_resource_name(name: str) -> bool:
    """Go: pkg/apis/core/v1/helper/helpers.go IsHugePageResourceName"""
    return name.startswith(ResourceHugePagesPrefix)


def huge_page_size_from_resource_name(name: str) -> Quantity:
    """The page size of a hugepages resource (``hugepages-2Mi`` → ``2Mi``); raises
    ``ValueError`` for another name or a size that does not parse.

    Go: pkg/apis/core/v1/helper/helpers.go HugePageSizeFromResourceName
    """
    if not is_huge_page_resource_name(name):
        raise ValueError(f"resource name: {name} is an invalid hugepage name")
    page_size = name.removeprefix(ResourceHugePagesPrefix)
    return Quantity.parse(page_size)


def huge_page_unit_size_from_byte_size(size: int) -> str:
    """A page size in bytes as the kernel spells it: 2097152 → ``"2MB"``, 1073741824 →
    ``"1GB"``; raises ``ValueError`` when it is not a whole number of its largest unit.

    Go: pkg/apis/core/v1/helper/helpers.go HugePageUnitSizeFromByteSize
    """
    huge_page_size_unit_list = ["B", "KB", "MB", "GB", "TB", "PB"]
    idx = 0
    last = len(huge_page_size_unit_list) - 1
    while size % 1024 == 0 and idx < last:
        size //= 1024
        idx += 1
    if size > 1024 and idx < last:
        raise ValueError(
            f"size: {size}{huge_page_size_unit_list[idx]} must be guaranteed to divisible into "
            "the largest units"
        )
    return f"{size}{huge_page_size_unit_list[idx]}"


def is_overcommit_allowed(name: str) -> bool:
    """May a container's request of ``name`` be below its limit? Not for hugepages nor for an
    extended resource.

    Go: pkg/apis/core/v1/helper/helpers.go IsOvercommitAllowed
    """
    return is_native_resource(name) and not is_huge_page_resource_name(name)


def is_attachable_volume_resource_name(name: str) -> bool:
    """Go: pkg/apis/core/v1/helper/helpers.go IsAttachableVolumeResourceName"""
    return name.startswith(ResourceAttachableVolumesPrefix)


def is_huge_page_medium(medium: str) -> bool:
    """``HugePages``, or ``HugePages-`` and a page size (``HugePages-2Mi``); ``HugePagesX`` is
    neither.

    Go: pkg/apis/core/v1/helper/helpers.go IsHugePageMedium
    """
    if medium == StorageMediumHugePages:
        return True
    return medium.startswith(StorageMediumHugePagesPrefix)
