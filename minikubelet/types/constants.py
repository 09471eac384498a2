"""Constants kubelet's packages share.

Go: pkg/kubelet/types/constants.go

Only the values of ``--enforce-node-allocatable`` are ported.
"""

from __future__ import annotations

#: The values of --enforce-node-allocatable: which cgroups get node allocatable's limits.
NodeAllocatableEnforcementKey = "pods"
SystemReservedEnforcementKey = "system-reserved"
KubeReservedEnforcementKey = "kube-reserved"
