"""k8s.io/client-go/tools."""
