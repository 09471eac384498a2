"""A pod's QoS class: Guaranteed, Burstable or BestEffort, from its requests and limits.

Go: pkg/apis/core/v1/helper/qos/qos.go

kubelet imports this package as ``v1qos``. It decides which pods the critical-pod admission
handler evicts first (BestEffort, then Burstable, then Guaranteed) and fills in
``status.qosClass``.
"""

from __future__ import annotations

from fractions import Fraction

from minikubelet.k8s_io.api.core.v1 import (
    Pod,
    PodQOSBestEffort,
    PodQOSBurstable,
    PodQOSClass,
    PodQOSGuaranteed,
    ResourceCPU,
    ResourceMemory,
)

__all__ = ["get_pod_qos"]

#: Only CPU and memory count for the QoS class. Go: supportedQoSComputeResources
supportedQoSComputeResources = frozenset({ResourceCPU, ResourceMemory})


def is_supported_qos_compute_resource(name: str) -> bool:
    """Go: pkg/apis/core/v1/helper/qos/qos.go isSupportedQoSComputeResource"""
    return name in supportedQoSComputeResources


def get_pod_qos(pod: Pod) -> PodQOSClass:
    """BestEffort when no container asks for CPU or memory at all; Guaranteed when every
    container limits both and the pod's requests equal its limits; Burstable otherwise.

    Go: pkg/apis/core/v1/helper/qos/qos.go GetPodQOS

    Sums are kept as exact fractions (Go adds Quantities); a zero amount counts as not given.
    """
    requests: dict[str, Fraction] = {}
    limits: dict[str, Fraction] = {}
    is_guaranteed = True
    all_containers = [*pod.spec.containers, *pod.spec.init_containers]
    for container in all_containers:
        for name, quantity in container.resources.requests.items():
            if not is_supported_qos_compute_resource(name):
                continue
            if quantity.amount > 0:
                requests[name] = requests.get(name, Fraction(0)) + quantity.amount
        qos_limits_found: set[str] = set()
        for name, quantity in container.resources.limits.items():
            if not is_supported_qos_compute_resource(name):
                continue
            if quantity.amount > 0:
                qos_limits_found.add(name)
                limits[name] = limits.get(name, Fraction(0)) + quantity.amount

        if not {ResourceMemory, ResourceCPU} <= qos_limits_found:
            is_guaranteed = False
    if len(requests) == 0 and len(limits) == 0:
        return PodQOSBestEffort
    if is_guaranteed:
        for name, req in requests.items():
            lim = limits.get(name)
            if lim is None or lim != req:
                is_guaranteed = False
                break
    if is_guaranteed and len(requests) == len(limits):
        return PodQOSGuaranteed
    return PodQOSBurstable
