"""k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources."""
