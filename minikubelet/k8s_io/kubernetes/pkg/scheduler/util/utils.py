"""Scheduler helpers kubelet's admission reaches.

Go: pkg/scheduler/util/utils.go
"""

from __future__ import annotations

from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper import helpers as v1helper


def is_scalar_resource_name(name: str) -> bool:
    """Whether ``name`` is counted as a scalar resource: extended, hugepages, a prefixed native
    resource or attachable volumes.

    Go: pkg/scheduler/util/utils.go IsScalarResourceName
    """
    return (
        v1helper.is_extended_resource_name(name)
        or v1helper.is_huge_page_resource_name(name)
        or v1helper.is_prefixed_native_resource(name)
        or v1helper.is_attachable_volume_resource_name(name)
    )
