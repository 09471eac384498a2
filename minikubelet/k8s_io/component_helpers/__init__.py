"""k8s.io/component-helpers: helpers shared by Kubernetes components."""
