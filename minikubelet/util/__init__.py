"""Small helpers of kubelet, from pkg/kubelet/util/ in Go."""
