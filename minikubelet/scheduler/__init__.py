"""The bits of the scheduler kubelet runs at admission, from pkg/scheduler/ in Go.

kubelet re-checks a pod against its node before running it (``GeneralPredicates``, in
[`minikubelet.lifecycle.predicate`][minikubelet.lifecycle.predicate]), with the scheduler's own
code: the node's resources as a ``NodeInfo``
([`framework_types`][minikubelet.scheduler.framework_types]), the resource fit
([`noderesources_fit`][minikubelet.scheduler.noderesources_fit]), the node name
([`nodename`][minikubelet.scheduler.nodename]), host ports
([`nodeports`][minikubelet.scheduler.nodeports]) and the node selector
([`helper_node_affinity`][minikubelet.scheduler.helper_node_affinity],
[`nodeaffinity`][minikubelet.scheduler.nodeaffinity]).
"""
