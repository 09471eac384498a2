"""CPU shares and CFS quota from millicores, as the runtime manager computes them.

Go: pkg/kubelet/kuberuntime/helpers_linux.go

The same arithmetic as the container manager's (``cm.helpers_linux``), kept apart as in Go:
here the shares have no upper bound.
"""

from __future__ import annotations

minShares = 2
sharesPerCPU = 1024
milliCPUToCPU = 1000

#: The CFS period, in microseconds (100 ms), and the smallest quota (1 ms).
quotaPeriod = 100000
minQuotaPeriod = 1000


def milli_cpu_to_shares(milli_cpu: int) -> int:
    """Go: pkg/kubelet/kuberuntime/helpers_linux.go milliCPUToShares"""
    if milli_cpu == 0:
        # No request gets the least weight, not the kernel's default of 1024.
        return minShares
    shares = (milli_cpu * sharesPerCPU) // milliCPUToCPU
    if shares < minShares:
        return minShares
    return shares


def milli_cpu_to_quota(milli_cpu: int, period: int) -> int:
    """The CFS quota of a CPU limit over ``period``, at least 1 ms; 0 (none) for no limit.

    Go: pkg/kubelet/kuberuntime/helpers_linux.go milliCPUToQuota
    """
    if milli_cpu == 0:
        return 0

    quota = (milli_cpu * period) // milliCPUToCPU

    if quota < minQuotaPeriod:
        quota = minQuotaPeriod

    return quota
