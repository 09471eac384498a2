"""k8s.io/apimachinery/pkg/runtime/serializer/json: manifests to and from the API's types."""
