"""k8s.io/kubernetes/pkg/apis/core/helper: helpers on the core API's objects."""
