"""k8s.io/kubernetes/third_party/forked."""
