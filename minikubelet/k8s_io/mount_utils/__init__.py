"""k8s.io/mount-utils: what kubelet asks of the node's mounts."""
