"""The node-affinity plugin's name and rejection reason.

Go: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go

kubelet only borrows these two constants (in ``GeneralPredicates``); the check itself is
[`minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.plugins.helper.node_affinity.pod_matches_node_selector_and_affinity_terms`][minikubelet.k8s_io.kubernetes.pkg.scheduler.framework.plugins.helper.node_affinity.pod_matches_node_selector_and_affinity_terms].
"""

from __future__ import annotations

__all__ = ["ErrReasonPod", "Name"]

#: The name of the plugin. Go: nodeaffinity.Name
Name = "NodeAffinity"

#: The reason for a pod's node affinity/selector not matching. Go: nodeaffinity.ErrReasonPod
ErrReasonPod = "node(s) didn't match Pod's node affinity/selector"
