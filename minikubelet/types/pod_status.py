"""Which pod conditions kubelet owns.

Go: pkg/kubelet/types/pod_status.go
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import PodConditionType

#: The pod conditions kubelet owns (others belong to other controllers).
#: Go: pkg/kubelet/types/pod_status.go PodConditionsByKubelet
PodConditionsByKubelet: list[str] = [
    PodConditionType.POD_SCHEDULED,
    PodConditionType.READY,
    PodConditionType.INITIALIZED,
    PodConditionType.CONTAINERS_READY,
]


def pod_condition_by_kubelet(condition_type: str) -> bool:
    """Whether kubelet owns conditions of this type.

    Go: pkg/kubelet/types/pod_status.go PodConditionByKubelet
    """
    return any(c == condition_type for c in PodConditionsByKubelet)
