"""k8s.io/kubernetes/pkg/util/pod: writing a pod's status to the API server (kubelet imports it as statusutil)."""
