"""The fakes Go's runtime-manager tests hand the manager: who is deleted, and the hooks' HTTP.

Go: pkg/kubelet/kuberuntime/fake_kuberuntime_manager.go

Go's file also builds a whole manager on fakes (``newFakeKubeRuntimeManager``), for its tests.
The port's runtime manager on the simulated CRI is the simulation's
([`new_fake_runtime`][minikubelet.sim.container_runtime.new_fake_runtime]): it is built as
kubelet builds its own, with kubelet's back-off and serial pulls, not with the test fake's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from minikubelet.types.types import HTTPResponse


@dataclass
class FakePodStateProvider:
    """Go: pkg/kubelet/kuberuntime/fake_kuberuntime_manager.go type fakePodStateProvider

    Go's fake says a pod is deleted unless it is in ``existing_pods``. With ``existing_pods``
    None (the default here), no pod is deleted or terminated: kubelet's own provider should be
    passed when it runs.
    """

    existing_pods: set[str] | None = None
    running_pods: set[str] | None = None

    def is_pod_deleted(self, uid: str) -> bool:
        """Go: pkg/kubelet/kuberuntime/fake_kuberuntime_manager.go (*fakePodStateProvider).IsPodDeleted"""
        return self.existing_pods is not None and uid not in self.existing_pods

    def is_pod_terminated(self, uid: str) -> bool:
        """Go: pkg/kubelet/kuberuntime/fake_kuberuntime_manager.go (*fakePodStateProvider).IsPodTerminated"""
        return self.running_pods is not None and uid not in self.running_pods


class PodNetwork(Protocol):
    """Ours: what answers kubelet's HTTP GETs on the fake node, the simulated runtime's pods
    ([`FakeRuntimeService.http_get`][minikubelet.sim.cri.fake_runtime.FakeRuntimeService.http_get])."""

    async def http_get(self, url: str) -> tuple[HTTPResponse | None, Exception | None]:
        """The pod at the URL's address answers, as its scenario says."""
        ...


@dataclass
class FakeHTTP:
    """kubelet's HTTP client for ``httpGet`` lifecycle hooks, on the fake node's pod network.

    Go: pkg/kubelet/kuberuntime/fake_kuberuntime_manager.go type fakeHTTP

    Go's fake records the URL and returns its set error. This one records the URLs too and
    asks the pod network how the pod at the URL's IP answers (ours: the hooks of the
    simulation play out as their scenario says).
    """

    runtime: PodNetwork | None = None
    #: The URLs it was asked for, in order.
    urls: list[str] = field(default_factory=list)

    async def get(self, url: str) -> tuple[HTTPResponse | None, Exception | None]:
        """Go: pkg/kubelet/kuberuntime/fake_kuberuntime_manager.go (*fakeHTTP).Get"""
        self.urls.append(url)
        if self.runtime is None:
            return None, None
        return await self.runtime.http_get(url)
