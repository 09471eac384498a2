"""pkg/kubelet/eviction/api: eviction signals and thresholds."""

from minikubelet.eviction.api.types import *  # noqa: F403
