"""Image pulling with back-off, from kubelet's pkg/kubelet/images/ in Go."""
