"""k8s.io/klog (the klog repository)."""
