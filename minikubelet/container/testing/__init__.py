"""Fakes of kubelet's container package, from pkg/kubelet/container/testing/ in Go."""
