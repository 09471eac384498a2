"""The populator of the desired state of the world (pkg/kubelet/volumemanager/populator)."""
