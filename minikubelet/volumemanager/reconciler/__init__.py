"""The reconciler of the volume manager (pkg/kubelet/volumemanager/reconciler)."""
