"""k8s.io/kubernetes/pkg/apis/core/v1/helper/qos: a pod's quality-of-service class (kubelet imports it as v1qos)."""
