"""k8s.io/klog/v2: kubelet's logger, its output format."""
