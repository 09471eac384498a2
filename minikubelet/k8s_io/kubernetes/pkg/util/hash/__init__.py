"""k8s.io/kubernetes/pkg/util/hash: the hash kubelet keeps of a container's spec."""
