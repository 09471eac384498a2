"""k8s.io/kubernetes/pkg/apis/policy/validation."""
