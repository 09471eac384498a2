"""The OOM score adjustment of a container, by its pod's QoS class.

Go: pkg/kubelet/qos/policy.go

The kernel kills the process with the highest OOM score when memory runs out; kubelet shifts
each container's score (``oom_score_adj``, -1000 to 1000): Guaranteed containers least likely
to be killed, BestEffort ones first, Burstable ones in between by how much memory they request.
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Container, Pod, PodQOSClass
from minikubelet.k8s_io.api.core.v1.resource import resource_list_memory
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.qos.qos import get_pod_qos
from minikubelet.types.pod_update import is_critical_pod

__all__ = ["get_container_oom_score_adjust"]

#: kubelet's own process, and kube-proxy's.
KubeletOOMScoreAdj = -999
KubeProxyOOMScoreAdj = -999
guaranteedOOMScoreAdj = -997
besteffortOOMScoreAdj = 1000


def get_container_oom_score_adjust(pod: Pod, container: Container, memory_capacity: int) -> int:
    """-997 for a Guaranteed (or critical) pod's container, 1000 for a BestEffort one; for a
    Burstable one, 1000 less its memory request's share of the node in thousandths, kept
    between 3 and 999.

    Go: pkg/kubelet/qos/policy.go GetContainerOOMScoreAdjust
    """
    # Go: if types.IsCriticalPod(pod) {
    if is_critical_pod(pod):
        return guaranteedOOMScoreAdj

    # Go: switch v1qos.GetPodQOS(pod) {
    match get_pod_qos(pod):
        # Go: case v1.PodQOSGuaranteed:
        case PodQOSClass.GUARANTEED:
            return guaranteedOOMScoreAdj
        # Go: case v1.PodQOSBestEffort:
        case PodQOSClass.BEST_EFFORT:
            return besteffortOOMScoreAdj

    # A container that uses more than it requested ends up with a score near 1000 anyway; the
    # request only protects what it asked for.
    # Go: memoryRequest := container.Resources.Requests.Memory().Value()
    memory_request = resource_list_memory(container.resources.requests).value()
    # Go's integer division truncates toward zero; the operands here are never negative.
    oom_score_adjust = 1000 - (1000 * memory_request) // memory_capacity
    # Go: if int(oomScoreAdjust) < (1000 + guaranteedOOMScoreAdj) {
    if oom_score_adjust < 1000 + guaranteedOOMScoreAdj:
        return 1000 + guaranteedOOMScoreAdj
    # Go: if int(oomScoreAdjust) == besteffortOOMScoreAdj {
    if oom_score_adjust == besteffortOOMScoreAdj:
        return oom_score_adjust - 1
    # Go: return int(oomScoreAdjust)
    return oom_score_adjust
