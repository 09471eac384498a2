"""The interface of kubelet's stats summary.

Go: pkg/kubelet/server/stats/summary.go

Go's ``summaryProviderImpl`` builds the summary from cAdvisor and the CRI; the port has neither,
so the summary comes from the simulated node
([`minikubelet.sim.cri.fake_stats`][minikubelet.sim.cri.fake_stats]), which implements this protocol.
"""

from __future__ import annotations

from typing import Protocol

from minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1 import Summary


class SummaryProvider(Protocol):
    """Go: pkg/kubelet/server/stats/summary.go type SummaryProvider

    Go's ``GetCPUAndMemoryStats`` is left out: only the metrics endpoint calls it.
    """

    def get(self, update_stats: bool) -> Summary:
        """The stats of the node and its pods, measured afresh when ``update_stats``.

        Go: pkg/kubelet/server/stats/summary.go SummaryProvider.Get

        Raises where Go returns an error.
        """
        ...
