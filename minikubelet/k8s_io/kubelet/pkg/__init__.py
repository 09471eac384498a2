"""k8s.io/kubelet/pkg."""
