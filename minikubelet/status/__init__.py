"""kubelet's status manager and pod conditions, from pkg/kubelet/status/ in Go."""
