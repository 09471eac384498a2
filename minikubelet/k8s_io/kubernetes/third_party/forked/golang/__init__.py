"""k8s.io/kubernetes/third_party/forked/golang: small pieces of Go's own library, forked."""
