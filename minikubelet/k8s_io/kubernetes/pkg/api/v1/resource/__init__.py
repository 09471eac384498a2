"""k8s.io/kubernetes/pkg/api/v1/resource: how much of a resource a pod requests."""
