"""Preempting other pods so that a critical pod can be admitted (pkg/kubelet/preemption)."""
