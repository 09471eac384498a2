"""k8s.io/client-go/tools/record: recording events."""
