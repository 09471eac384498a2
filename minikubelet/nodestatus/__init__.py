"""pkg/kubelet/nodestatus: the setters that fill in the node's status."""
