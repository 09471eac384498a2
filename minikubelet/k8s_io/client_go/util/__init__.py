"""k8s.io/client-go/util."""
