"""kubelet's CRI client, from pkg/kubelet/cri/ in Go."""
