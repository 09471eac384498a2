"""kubelet's record of the pods it should run, from pkg/kubelet/pod/ in Go."""
