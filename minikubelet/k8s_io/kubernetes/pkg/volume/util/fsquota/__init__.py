"""k8s.io/kubernetes/pkg/volume/util/fsquota."""
