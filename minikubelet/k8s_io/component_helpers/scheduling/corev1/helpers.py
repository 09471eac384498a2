"""Scheduling helpers on core/v1 objects.

Go: staging/src/k8s.io/component-helpers/scheduling/corev1/helpers.go
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Node, NodeSelector
from minikubelet.k8s_io.component_helpers.scheduling.corev1.nodeaffinity.nodeaffinity import (
    new_lazy_error_node_selector,
)


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
