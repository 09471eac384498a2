"""Does the node match the pod's ``nodeSelector`` (and node affinity)?

Go: pkg/scheduler/framework/plugins/helper/node_affinity.go

A ``nodeSelector`` matches when the node has every one of its labels with the same value.
Node affinity is not checked: [`minikubelet.k8s_io.api.core.v1`][minikubelet.k8s_io.api.core.v1] has
no ``Affinity`` type (and its ``NodeSelectorTerm`` matching, in k8s.io/component-helpers, is not
ported), so a pod's affinity, if the api ever carries one, is accepted as matching.
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Node, Pod

__all__ = ["pod_matches_node_selector_and_affinity_terms"]


def pod_matches_node_selector_and_affinity_terms(pod: Pod, node: Node) -> bool:
    """Whether the node's labels satisfy the pod's ``nodeSelector`` (node affinity: see the
    module docstring).

    Go: pkg/scheduler/framework/plugins/helper/node_affinity.go PodMatchesNodeSelectorAndAffinityTerms
    """
    # minikubelet.k8s_io.api.core.v1's PodSpec has no node_selector yet: read it if it is there.
    node_selector: dict[str, str] = getattr(pod.spec, "node_selector", None) or {}
    if len(node_selector) > 0:
        # Go: labels.SelectorFromSet(...).Matches(labels.Set(node.Labels)): every key present,
        # with an equal value.
        node_labels = node.metadata.labels or {}
        if not all(k in node_labels and node_labels[k] == v for k, v in node_selector.items()):
            return False
    if getattr(pod.spec, "affinity", None) is None:
        return True
    # Go: return NodeMatchesNodeAffinity(pod.Spec.Affinity.NodeAffinity, node) -- not ported
    # (see the module docstring).
    return True
