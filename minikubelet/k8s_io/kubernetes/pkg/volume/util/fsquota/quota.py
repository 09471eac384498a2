"""Whether kubelet watches emptyDir use with filesystem quotas.

Go: pkg/volume/util/fsquota/quota.go
"""

from __future__ import annotations


def enabled_quotas_for_monitoring() -> bool:
    """The feature gate ``LocalStorageCapacityIsolationFSQuotaMonitoring``: alpha in v1.21, off.

    Go: pkg/volume/util/fsquota/quota.go enabledQuotasForMonitoring
    """
    return False
