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
    # Go: allContainers := []v1.Container{}
    all_containers = [*pod.spec.containers, *pod.spec.init_containers]
    # Go: for _, container := range allContainers {
    for container in all_containers:
        # Go: for name, quantity := range container.Resources.Requests {
        for name, quantity in container.resources.requests.items():
            if not is_supported_qos_compute_resource(name):
                continue
            if quantity.amount > 0:
                requests[name] = requests.get(name, Fraction(0)) + quantity.amount
        # Go: qosLimitsFound := sets.NewString()
        qos_limits_found: set[str] = set()
        # Go: for name, quantity := range container.Resources.Limits {
        for name, quantity in container.resources.limits.items():
            if not is_supported_qos_compute_resource(name):
                continue
            if quantity.amount > 0:
                qos_limits_found.add(name)
                limits[name] = limits.get(name, Fraction(0)) + quantity.amount

        # Go: if !qosLimitsFound.HasAll(string(v1.ResourceMemory), string(v1.ResourceCPU)) {
        if not {ResourceMemory, ResourceCPU} <= qos_limits_found:
            is_guaranteed = False
    # Go: if len(requests) == 0 && len(limits) == 0 {
    if len(requests) == 0 and len(limits) == 0:
        return PodQOSBestEffort
    # Go: if isGuaranteed {
    if is_guaranteed:
        for name, req in requests.items():
            lim = limits.get(name)
            if lim is None or lim != req:
                is_guaranteed = False
                break
    # Go: if isGuaranteed &&
    if is_guaranteed and len(requests) == len(limits):
        return PodQOSGuaranteed
    # Go: return v1.PodQOSBurstable
    return PodQOSBurstable
