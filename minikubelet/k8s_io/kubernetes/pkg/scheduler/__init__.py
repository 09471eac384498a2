"""k8s.io/kubernetes/pkg/scheduler: the bits of the scheduler kubelet runs at admission.

kubelet re-checks a pod against its node before running it (``GeneralPredicates``, in
:mod:`minikubelet.lifecycle.predicate`), with the scheduler's own code: the node's resources as
a ``NodeInfo`` (:mod:`.framework.types`), the resource fit (:mod:`.framework.plugins.noderesources.fit`),
the node name (:mod:`.framework.plugins.nodename.node_name`), host ports
(:mod:`.framework.plugins.nodeports.node_ports`) and the node selector
(:mod:`.framework.plugins.helper.node_affinity`, :mod:`.framework.plugins.nodeaffinity.node_affinity`).
"""
