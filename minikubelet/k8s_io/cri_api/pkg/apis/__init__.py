"""k8s.io/cri-api/pkg/apis: the CRI services."""
