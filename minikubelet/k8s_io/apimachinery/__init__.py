"""k8s.io/apimachinery (staging/src/k8s.io/apimachinery/ in the kubernetes repository)."""
