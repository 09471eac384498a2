"""k8s.io/kubernetes/pkg/securitycontext."""
