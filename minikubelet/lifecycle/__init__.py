"""Pod admission and the other lifecycle hooks, from pkg/kubelet/lifecycle/ in Go."""
