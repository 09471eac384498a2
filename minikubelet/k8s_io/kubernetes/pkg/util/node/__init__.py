"""k8s.io/kubernetes/pkg/util/node: helpers about nodes (kubelet imports it as nodeutil)."""
