"""The volume manager, from pkg/kubelet/volumemanager/ in Go (simulated)."""
