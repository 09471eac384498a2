"""k8s.io/apimachinery/pkg/types: named string types of the API."""
