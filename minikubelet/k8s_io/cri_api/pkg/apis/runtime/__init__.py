"""k8s.io/cri-api/pkg/apis/runtime."""
