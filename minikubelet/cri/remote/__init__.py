"""pkg/kubelet/cri/remote: kubelet's gRPC client of the container runtime."""
