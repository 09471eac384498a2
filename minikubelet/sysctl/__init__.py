"""Which sysctls a pod may set (pkg/kubelet/sysctl)."""
