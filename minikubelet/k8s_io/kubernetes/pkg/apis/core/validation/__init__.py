"""k8s.io/kubernetes/pkg/apis/core/validation: the API server's checks of core objects."""
