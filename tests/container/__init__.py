"""Tests of minikubelet.container (pkg/kubelet/container)."""
