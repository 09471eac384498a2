"""k8s.io/api/core: the core API group."""
