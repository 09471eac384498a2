"""k8s.io/utils/exec."""
