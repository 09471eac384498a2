"""k8s.io/apimachinery/pkg/api/errors: the errors an API server returns, and what they mean."""
