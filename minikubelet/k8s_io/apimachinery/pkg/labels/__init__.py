"""k8s.io/apimachinery/pkg/labels."""
