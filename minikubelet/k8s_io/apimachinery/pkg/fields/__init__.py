"""k8s.io/apimachinery/pkg/fields."""
