"""How much the kernel's OOM killer should prefer each container (Go: ``pkg/kubelet/qos``)."""
