"""k8s.io/kubernetes/pkg/apis/core/v1/helper."""
