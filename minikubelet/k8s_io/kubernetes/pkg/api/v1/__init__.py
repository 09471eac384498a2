"""k8s.io/kubernetes/pkg/api/v1."""
