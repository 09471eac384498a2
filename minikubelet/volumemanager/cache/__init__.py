"""The volume manager's caches: the desired and the actual state of the world (Go: pkg/kubelet/volumemanager/cache)."""
