"""k8s.io/client-go/kubernetes: the clientset kubelet is handed (its API client)."""
