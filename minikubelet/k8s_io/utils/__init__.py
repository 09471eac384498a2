"""k8s.io/utils."""
