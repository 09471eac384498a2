"""The container runtime's vocabulary, from kubelet's pkg/kubelet/container/ in Go."""
