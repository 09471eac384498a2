"""k8s.io/kubernetes outside kubelet: the scheduler's admission code, API helpers, utilities.

kubelet itself (``pkg/kubelet``) is the top of the [`minikubelet`][minikubelet] package.
"""
