"""k8s.io/kubernetes/pkg/security/apparmor."""
