"""k8s.io/kubernetes/pkg/scheduler: the bits of the scheduler kubelet runs at admission.

kubelet re-checks a pod against its node before running it (``GeneralPredicates``, in
[`minikubelet.lifecycle.predicate`][minikubelet.lifecycle.predicate]), with the scheduler's own
code: the node's resources as a ``NodeInfo`` ([`types`][.framework.types]), the resource fit
([`fit`][.framework.plugins.noderesources.fit]), the node name
([`node_name`][.framework.plugins.nodename.node_name]), host ports
([`node_ports`][.framework.plugins.nodeports.node_ports]) and the node selector
([`node_affinity`][.framework.plugins.helper.node_affinity],
[`node_affinity`][.framework.plugins.nodeaffinity.node_affinity]).
"""
