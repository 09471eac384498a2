"""k8s.io/kubelet: the API types kubelet publishes (here: its stats summary)."""
