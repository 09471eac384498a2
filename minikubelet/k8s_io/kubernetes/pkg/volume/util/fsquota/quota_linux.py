"""Project quotas for emptyDir volumes: off in v1.21, and the one line that says so.

Go: pkg/volume/util/fsquota/quota_linux.go

kubelet can measure an emptyDir's disk use with filesystem project quotas instead of ``du``,
behind the alpha gate ``LocalStorageCapacityIsolationFSQuotaMonitoring``, off by default in
v1.21. With it off, every emptyDir SetUp that has a desired size (each one on the node's disk,
and each configMap volume) asks and is told no, with a line at ``-v 3``; and every TearDown of
one on the node's disk fails to clear its quota, which kubelet logs as a warning.
"""

from __future__ import annotations

from typing import Any

from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.volume.util.fsquota.quota import (
    enabled_quotas_for_monitoring,
)


def supports_quotas(m: Any, path: str) -> tuple[bool, Exception | None]:
    """Whether ``path``'s filesystem takes project quotas: never, with the gate off.

    Go: pkg/volume/util/fsquota/quota_linux.go SupportsQuotas
    """
    if not enabled_quotas_for_monitoring():
        klog.v(3).infof("SupportsQuotas called, but quotas disabled")
        return False, None
    # Go omitted: supportsQuotasLock.Lock() -- the gate is off in v1.21, so the filesystem is never asked
    return False, None


def clear_quota(m: Any, path: str) -> Exception | None:
    """Remove the quota of ``path``: an error, with the gate off.

    Go: pkg/volume/util/fsquota/quota_linux.go ClearQuota
    """
    klog.v(3).infof("ClearQuota %s", path)
    if not enabled_quotas_for_monitoring():
        return Exception("clearQuota called, but quotas disabled")
    # Go omitted: quotaLock.Lock() -- the gate is off in v1.21: no quota was ever set
    return None
