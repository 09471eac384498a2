"""k8s.io/component-helpers/scheduling/corev1/nodeaffinity."""
