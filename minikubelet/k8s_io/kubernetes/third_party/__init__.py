"""k8s.io/kubernetes/third_party: code kubelet keeps a fork of."""
