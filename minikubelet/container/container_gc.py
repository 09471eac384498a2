"""The container garbage collection policy, and the collector kubelet runs every minute.

Go: pkg/kubelet/container/container_gc.go

The collector itself only asks the runtime
([`ContainerGC.garbage_collect`][minikubelet.kuberuntime.kuberuntime_gc.ContainerGC.garbage_collect])
to apply the policy, telling it whether every pod source has been seen.
``DeleteAllUnusedContainers`` (the same with terminated pods emptied too) serves the eviction
manager, which frees disk with it before it evicts pods.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from minikubelet.k8s_io.klog.v2 import klog

if TYPE_CHECKING:
    from minikubelet.container.runtime import Runtime


@dataclass(frozen=True, slots=True)
class GCPolicy:
    """How many dead containers kubelet keeps, and from what age it may remove them.

    Go: pkg/kubelet/container/container_gc.go type GCPolicy

    Kubelet fills it from three command-line flags, whose v1.21 defaults (in
    cmd/kubelet/app/options/options.go ``NewKubeletFlags``) are the defaults here:
    ``--minimum-container-ttl-duration=0``, ``--maximum-dead-containers-per-container=1``,
    ``--maximum-dead-containers=-1``.
    """

    #: Seconds a dead container is kept at least; 0 for no minimum.
    min_age: float = 0.0
    #: Dead containers kept per (pod, container name); negative for no limit.
    max_per_pod_container: int = 1
    #: Dead containers kept in all; negative for no limit.
    max_containers: int = -1


class GC(Protocol):
    """Go: pkg/kubelet/container/container_gc.go type GC"""

    async def garbage_collect(self) -> Exception | None:
        """Go: pkg/kubelet/container/container_gc.go GC.GarbageCollect"""
        ...

    async def delete_all_unused_containers(self) -> None:
        """Go: pkg/kubelet/container/container_gc.go GC.DeleteAllUnusedContainers

        Raises where Go returns an error.
        """
        ...


class SourcesReadyProvider(Protocol):
    """Go: pkg/kubelet/container/container_gc.go type SourcesReadyProvider"""

    def all_ready(self) -> bool:
        """Go: pkg/kubelet/container/container_gc.go SourcesReadyProvider.AllReady"""
        ...


class RealContainerGC:
    """Go: pkg/kubelet/container/container_gc.go type realContainerGC"""

    def __init__(
        self,
        runtime: Runtime,
        policy: GCPolicy,
        sources_ready_provider: SourcesReadyProvider,
    ) -> None:
        self.runtime = runtime
        self.policy = policy
        self.sources_ready_provider = sources_ready_provider

    async def garbage_collect(self) -> Exception | None:
        """Go: pkg/kubelet/container/container_gc.go (*realContainerGC).GarbageCollect"""
        return await self.runtime.garbage_collect(
            self.policy, self.sources_ready_provider.all_ready(), False
        )

    async def delete_all_unused_containers(self) -> None:
        """Remove every dead container the policy allows, those of terminated pods included
        (``evictNonDeletedPods``); raises the runtime's error.

        Go: pkg/kubelet/container/container_gc.go (*realContainerGC).DeleteAllUnusedContainers
        """
        klog.info_s("Attempting to delete unused containers")
        err = await self.runtime.garbage_collect(
            self.policy, self.sources_ready_provider.all_ready(), True
        )
        if err is not None:
            raise err


def new_container_gc(
    runtime: Runtime,
    policy: GCPolicy,
    sources_ready_provider: SourcesReadyProvider,
) -> RealContainerGC:
    """A collector for this policy; raises ``ValueError`` for a negative minimum age.

    Go: pkg/kubelet/container/container_gc.go NewContainerGC
    """
    if policy.min_age < 0:
        raise ValueError(f"invalid minimum garbage collection age: {policy.min_age}s")

    return RealContainerGC(runtime, policy, sources_ready_provider)
