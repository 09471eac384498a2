"""The taints Kubernetes itself puts on nodes.

Go: staging/src/k8s.io/api/core/v1/well_known_taints.go

Only the pressure taints are here: the eviction manager's admission checks a pod's tolerations
against the memory-pressure one.
"""

#: Go: staging/src/k8s.io/api/core/v1/well_known_taints.go TaintNodeMemoryPressure
TaintNodeMemoryPressure = "node.kubernetes.io/memory-pressure"
#: Go: staging/src/k8s.io/api/core/v1/well_known_taints.go TaintNodeDiskPressure
TaintNodeDiskPressure = "node.kubernetes.io/disk-pressure"
#: Go: staging/src/k8s.io/api/core/v1/well_known_taints.go TaintNodePIDPressure
TaintNodePIDPressure = "node.kubernetes.io/pid-pressure"
