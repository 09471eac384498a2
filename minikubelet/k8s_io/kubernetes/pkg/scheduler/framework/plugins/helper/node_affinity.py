"""Does the node match the pod's ``nodeSelector`` and required node affinity?

Go: pkg/scheduler/framework/plugins/helper/node_affinity.go

A ``nodeSelector`` matches when the node has every one of its labels with the same value. Node
affinity matches when its ``requiredDuringSchedulingIgnoredDuringExecution`` selector does: at
least one of its terms, each term needing all of its expressions
([`minikubelet.k8s_io.component_helpers.scheduling.corev1.nodeaffinity.nodeaffinity`][minikubelet.k8s_io.component_helpers.scheduling.corev1.nodeaffinity.nodeaffinity]).
The preferred terms are the scheduler's business: they never stop a pod.
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Node, NodeAffinity, NodeSelector, Pod
from minikubelet.k8s_io.apimachinery.pkg.labels.selector import selector_from_set
from minikubelet.k8s_io.component_helpers.scheduling.corev1.helpers import (
    match_node_selector_terms,
)

__all__ = ["node_matches_node_affinity", "pod_matches_node_selector_and_affinity_terms"]


def pod_matches_node_selector_and_affinity_terms(pod: Pod, node: Node) -> bool:
    """Whether the node's labels satisfy the pod's ``nodeSelector`` and its node affinity.

    Go: pkg/scheduler/framework/plugins/helper/node_affinity.go PodMatchesNodeSelectorAndAffinityTerms
    """
    if len(pod.spec.node_selector) > 0:
        selector = selector_from_set(pod.spec.node_selector)
        if not selector.matches(dict(node.metadata.labels or {})):
            return False
    if pod.spec.affinity is None:
        return True
    return node_matches_node_affinity(pod.spec.affinity.node_affinity, node)


def node_matches_node_affinity(affinity: NodeAffinity | None, node: Node) -> bool:
    """No affinity matches every node; otherwise its required selector must match.

    Go: pkg/scheduler/framework/plugins/helper/node_affinity.go NodeMatchesNodeAffinity

    Go keeps a commented-out check of ``RequiredDuringSchedulingRequiredDuringExecution``, a
    field the API does not have; there is nothing to port.
    """
    if affinity is None:
        return True
    required = affinity.required_during_scheduling_ignored_during_execution
    return required is None or node_matches_node_selector(node, required)


def node_matches_node_selector(node: Node, node_selector: NodeSelector) -> bool:
    """At least one term matches; a term that cannot be read matches nothing (its problems are
    dropped, as Go drops them).

    Go: pkg/scheduler/framework/plugins/helper/node_affinity.go nodeMatchesNodeSelector
    """
    matches, _ = match_node_selector_terms(node, node_selector)
    return matches
