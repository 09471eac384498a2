"""kubelet's queue of pods to sync later, from pkg/kubelet/util/queue/ in Go."""
