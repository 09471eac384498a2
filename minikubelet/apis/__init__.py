"""kubelet's configuration types, from pkg/kubelet/apis/ in Go."""
