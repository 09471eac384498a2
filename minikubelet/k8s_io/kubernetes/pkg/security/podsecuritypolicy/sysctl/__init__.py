"""k8s.io/kubernetes/pkg/security/podsecuritypolicy/sysctl."""
