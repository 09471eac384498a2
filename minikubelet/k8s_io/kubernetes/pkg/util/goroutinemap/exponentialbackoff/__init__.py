"""k8s.io/kubernetes/pkg/util/goroutinemap/exponentialbackoff."""
