"""Probes (liveness, readiness, startup), from kubelet's pkg/kubelet/prober/ in Go."""
