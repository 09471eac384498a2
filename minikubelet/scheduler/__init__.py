"""The bits of the scheduler kubelet runs at admission, from pkg/scheduler/ in Go.

kubelet re-checks a pod against its node before running it (``GeneralPredicates``, in
:mod:`minikubelet.lifecycle.predicate`), with the scheduler's own code: the node's resources as
a ``NodeInfo`` (:mod:`.framework_types`), the resource fit (:mod:`.noderesources_fit`), the node
name (:mod:`.nodename`), host ports (:mod:`.nodeports`) and the node selector
(:mod:`.helper_node_affinity`, :mod:`.nodeaffinity`).
"""
