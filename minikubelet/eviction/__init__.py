"""pkg/kubelet/eviction: the eviction manager, its helpers and types (``api``: signals and
thresholds)."""
