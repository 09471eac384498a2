"""k8s.io/kubernetes/pkg/api/v1/pod: helpers about pods and their status."""
