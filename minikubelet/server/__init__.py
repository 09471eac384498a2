"""pkg/kubelet/server: kubelet's HTTP server (only the stats interfaces are ported)."""
