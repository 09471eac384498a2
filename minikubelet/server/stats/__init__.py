"""pkg/kubelet/server/stats: where the stats summary comes from."""
