"""k8s.io/cri-api/pkg."""
