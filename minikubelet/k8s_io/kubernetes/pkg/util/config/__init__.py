"""k8s.io/kubernetes/pkg/util/config: a multiplexer of configuration sources."""
