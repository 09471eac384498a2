"""k8s.io/kubernetes/pkg/apis/core/v1: the API server's defaulting of v1 objects."""
