"""k8s.io/kubernetes/pkg/probe."""
