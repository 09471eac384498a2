"""k8s.io/api: the API types (staging/src/k8s.io/api/ in the kubernetes repository)."""
