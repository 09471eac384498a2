"""A cache of the runtime's pod list, refreshed when it is older than two seconds.

Go: pkg/kubelet/container/runtime_cache.go

kubelet reads running pods through it when it cleans up (``HandlePodCleanups``) and when it
deletes a pod (``deletePod``), so that it does not list every container of the runtime each time.
"""

from __future__ import annotations

from typing import Protocol

from minikubelet.container.runtime import Pod
from minikubelet.go import Clock, Mutex, Second

#: How long the cached list is good for. Go: defaultCachePeriod
defaultCachePeriod = Second * 2


class RuntimeCache(Protocol):
    """Go: pkg/kubelet/container/runtime_cache.go type RuntimeCache"""

    async def get_pods(self) -> list[Pod]:
        """Go: pkg/kubelet/container/runtime_cache.go RuntimeCache.GetPods"""
        ...

    async def force_update_if_older(self, min_expected_cache_time: float) -> Exception | None:
        """Go: pkg/kubelet/container/runtime_cache.go RuntimeCache.ForceUpdateIfOlder"""
        ...


class PodsGetter(Protocol):
    """Go: pkg/kubelet/container/runtime_cache.go type podsGetter"""

    async def get_pods(self, all: bool) -> list[Pod]:
        """Go: pkg/kubelet/container/runtime_cache.go podsGetter.GetPods"""
        ...


def new_runtime_cache(getter: PodsGetter, clock: Clock | None = None) -> RuntimeCacheImpl:
    """Go: pkg/kubelet/container/runtime_cache.go NewRuntimeCache

    ``clock`` defaults to the running runtime's (Go reads ``time.Now``).
    """
    return RuntimeCacheImpl(getter, clock)


class RuntimeCacheImpl:
    """Go: pkg/kubelet/container/runtime_cache.go type runtimeCache

    The mutex is needed here (unlike in most of the port): a refresh awaits the runtime, and
    another goroutine must not start a second one meanwhile.
    """

    def __init__(self, getter: PodsGetter, clock: Clock | None = None) -> None:
        self.mu = Mutex()
        self.getter = getter
        #: When the list in ``pods`` was asked for (0: never, Go's zero time).
        self.cache_time = 0.0
        self.pods: list[Pod] = []
        self._clock = clock

    def _now(self) -> float:
        if self._clock is not None:
            return self._clock.now()
        from minikubelet.go import now

        return now()

    async def get_pods(self) -> list[Pod]:
        """The cached pods, refreshed first if older than ``defaultCachePeriod``; raises
        the runtime's error if the refresh fails.

        Go: pkg/kubelet/container/runtime_cache.go (*runtimeCache).GetPods
        """
        async with self.mu:
            if self._now() - self.cache_time > defaultCachePeriod:
                await self.update_cache()
            return self.pods

    async def force_update_if_older(self, min_expected_cache_time: float) -> Exception | None:
        """Refresh if the cache is older than ``min_expected_cache_time``; return the runtime's
        error, if any (Go returns an ``error``).

        Go: pkg/kubelet/container/runtime_cache.go (*runtimeCache).ForceUpdateIfOlder
        """
        async with self.mu:
            if self.cache_time < min_expected_cache_time:
                try:
                    await self.update_cache()
                except Exception as err:
                    return err
            return None

    async def update_cache(self) -> None:
        """Raises the runtime's error (Go returns it).

        Go: pkg/kubelet/container/runtime_cache.go (*runtimeCache).updateCache
        """
        pods, timestamp = await self.get_pods_with_timestamp()
        self.pods, self.cache_time = pods, timestamp

    async def get_pods_with_timestamp(self) -> tuple[list[Pod], float]:
        """Go: pkg/kubelet/container/runtime_cache.go (*runtimeCache).getPodsWithTimestamp"""
        # Taken before the call: the list is at least this new, never claimed newer than it is.
        timestamp = self._now()
        pods = await self.getter.get_pods(False)
        return pods, timestamp
