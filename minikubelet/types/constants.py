"""kubelet's constants shared across packages.

Go: pkg/kubelet/types/constants.go

Only the one the port reads is here.
"""

#: Go: pkg/kubelet/types/constants.go NodeAllocatableEnforcementKey: the value of
#: ``--enforce-node-allocatable`` that limits the pods' cgroup to the node's allocatable.
NodeAllocatableEnforcementKey = "pods"
