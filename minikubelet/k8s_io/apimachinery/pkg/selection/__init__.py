"""k8s.io/apimachinery/pkg/selection."""
