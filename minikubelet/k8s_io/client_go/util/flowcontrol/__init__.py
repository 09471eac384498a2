"""k8s.io/client-go/util/flowcontrol: rate limiting and back-off."""
