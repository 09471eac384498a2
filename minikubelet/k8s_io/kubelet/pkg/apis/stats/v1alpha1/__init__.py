"""k8s.io/kubelet/pkg/apis/stats/v1alpha1: the stats summary (kubelet's ``/stats/summary``)."""

from minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1.types import *  # noqa: F403
