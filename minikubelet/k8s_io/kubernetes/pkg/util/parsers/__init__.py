"""k8s.io/kubernetes/pkg/util/parsers: parsing image names."""
