"""k8s.io/apimachinery/pkg/util/runtime: errors that no caller can return, logged."""
