"""k8s.io/kubernetes/pkg/scheduler/util."""
