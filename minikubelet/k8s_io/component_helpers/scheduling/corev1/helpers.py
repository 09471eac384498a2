"""Scheduling helpers on core/v1 objects.

Go: staging/src/k8s.io/component-helpers/scheduling/corev1/helpers.go
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import (
    Node,
    NodeSelector,
    Pod,
    Taint,
    Toleration,
    toleration_tolerates_taint,
)
from minikubelet.k8s_io.component_helpers.scheduling.corev1.nodeaffinity.nodeaffinity import (
    new_lazy_error_node_selector,
)


def pod_priority(pod: Pod) -> int:
    """The pod's priority; 0 when it has none (a pod made before any default priority class).

    Go: staging/src/k8s.io/component-helpers/scheduling/corev1/helpers.go PodPriority
    """
    if pod.spec.priority is not None:
        return pod.spec.priority
    return 0


def match_node_selector_terms(
    node: Node | None, node_selector: NodeSelector
) -> tuple[bool, list[str]]:
    """Does at least one of the selector's terms match the node? With the problems of the terms
    that could not be read.

    Go: staging/src/k8s.io/component-helpers/scheduling/corev1/helpers.go MatchNodeSelectorTerms
    """
    if node is None:
        return False, []
    return new_lazy_error_node_selector(node_selector).match(node)


def tolerations_tolerate_taint(tolerations: list[Toleration], taint: Taint) -> bool:
    """Whether any of the tolerations tolerates the taint.

    Go: staging/src/k8s.io/component-helpers/scheduling/corev1/helpers.go TolerationsTolerateTaint
    """
    return any(toleration_tolerates_taint(t, taint) for t in tolerations)
