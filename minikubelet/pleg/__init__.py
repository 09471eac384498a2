"""The pod lifecycle event generator (PLEG), from kubelet's pkg/kubelet/pleg/ in Go."""
