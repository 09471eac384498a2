"""k8s.io/client-go (staging/src/k8s.io/client-go/ in the kubernetes repository)."""
