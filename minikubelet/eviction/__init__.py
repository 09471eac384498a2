"""pkg/kubelet/eviction: the eviction manager's types (the manager itself is not ported yet)."""
