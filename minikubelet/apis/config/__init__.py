"""The kubelet configuration, from pkg/kubelet/apis/config/ in Go."""
