"""The pod cache: the latest [`PodStatus`][minikubelet.container.runtime.PodStatus] of every pod, as
the PLEG last inspected it, and a way to wait for a status newer than a given time.

Go: pkg/kubelet/container/cache.go

The PLEG writes (``set`` after each inspection, ``update_time`` after each relist); pod workers
read with [`CacheImpl.get_newer_than`][], which blocks until the cache holds a status of the pod
newer than the worker's last sync. Every entry is at least as new as the global timestamp.

Go's ``Get``/``GetNewerThan`` return ``(status, err)``, ``err`` being the error the PLEG got when it
inspected the pod. Here they return the status and **raise** that error. ``set`` and
``update_time`` are ``async`` because they notify subscribers by sending on channels (which never
blocks: each subscriber's channel has room for its one value).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from minikubelet.container.runtime import PodStatus
from minikubelet.go import Chan


class Cache(Protocol):
    """Go: pkg/kubelet/container/cache.go type Cache"""

    def get(self, id: str) -> PodStatus:
        """Go: pkg/kubelet/container/cache.go Cache.Get"""
        ...

    async def set(
        self, id: str, status: PodStatus | None, err: BaseException | None, timestamp: float
    ) -> None:
        """Go: pkg/kubelet/container/cache.go Cache.Set"""
        ...

    async def get_newer_than(self, id: str, min_time: float) -> PodStatus:
        """Go: pkg/kubelet/container/cache.go Cache.GetNewerThan"""
        ...

    def delete(self, id: str) -> None:
        """Go: pkg/kubelet/container/cache.go Cache.Delete"""
        ...

    async def update_time(self, timestamp: float) -> None:
        """Go: pkg/kubelet/container/cache.go Cache.UpdateTime"""
        ...


@dataclass(slots=True)
class Data:
    """Go: pkg/kubelet/container/cache.go type data"""

    #: None exactly when ``err`` is set: GetPodStatus either answered or failed.
    status: PodStatus | None
    err: BaseException | None
    #: When the PLEG asked the runtime (not when it wrote the entry).
    modified: float = 0.0


@dataclass(slots=True)
class SubRecord:
    """Go: pkg/kubelet/container/cache.go type subRecord"""

    time: float
    ch: Chan[Data]


@dataclass
class CacheImpl:
    """Go: pkg/kubelet/container/cache.go type cache

    Go guards the maps with a ``sync.RWMutex``. Here goroutines switch only at an ``await``, and
    no method awaits while the maps are half-updated, so there is no lock.
    """

    pods: dict[str, Data] = field(default_factory=dict)
    #: How fresh the whole cache is; None until the first relist has finished.
    timestamp: float | None = None
    subscribers: dict[str, list[SubRecord]] = field(default_factory=dict)

    def get(self, id: str) -> PodStatus:
        """The cached status (an empty one with just the ID if none); raises the stored error.

        Go: pkg/kubelet/container/cache.go (*cache).Get
        """
        d = self._get(id)
        if d.err is not None:
            raise d.err
        assert d.status is not None
        return d.status

    async def get_newer_than(self, id: str, min_time: float) -> PodStatus:
        """Block until the cache has a status of the pod newer than ``min_time``; return it.

        Go: pkg/kubelet/container/cache.go (*cache).GetNewerThan
        """
        ch = await self.subscribe(id, min_time)
        d, _ = await ch.recv()
        assert d is not None
        if d.err is not None:
            raise d.err
        assert d.status is not None
        return d.status

    async def set(
        self, id: str, status: PodStatus | None, err: BaseException | None, timestamp: float
    ) -> None:
        """Go: pkg/kubelet/container/cache.go (*cache).Set"""
        self.pods[id] = Data(status=status, err=err, modified=timestamp)
        # Go: defer c.notify(id, timestamp)
        await self.notify(id, timestamp)

    def delete(self, id: str) -> None:
        """Go: pkg/kubelet/container/cache.go (*cache).Delete"""
        self.pods.pop(id, None)

    async def update_time(self, timestamp: float) -> None:
        """Set the global timestamp and notify the subscribers it satisfies.

        Go: pkg/kubelet/container/cache.go (*cache).UpdateTime
        """
        self.timestamp = timestamp
        for id in list(self.subscribers):
            await self.notify(id, self.timestamp)

    def _get(self, id: str) -> Data:
        """Go: pkg/kubelet/container/cache.go (*cache).get"""
        d = self.pods.get(id)
        if d is None:
            # The PLEG writes every pod the runtime knows, so a missing pod has nothing in the
            # runtime: an empty status says exactly that.
            return make_default_data(id)
        return d

    def get_if_newer_than(self, id: str, min_time: float) -> Data | None:
        """The data if it is newer than ``min_time``, else None.

        Go: pkg/kubelet/container/cache.go (*cache).getIfNewerThan
        """
        # Go: d, ok := c.pods[id]
        d = self.pods.get(id)
        # Go: globalTimestampIsNewer := (c.timestamp != nil && c.timestamp.After(minTime))
        global_timestamp_is_newer = self.timestamp is not None and self.timestamp > min_time
        # A relist that finished after min_time saw every pod, so even an old entry (or none)
        # is as new as asked.
        # Go: if !ok && globalTimestampIsNewer {
        if d is None and global_timestamp_is_newer:
            return make_default_data(id)
        # Go: if ok && (d.modified.After(minTime) || globalTimestampIsNewer) {
        if d is not None and (d.modified > min_time or global_timestamp_is_newer):
            return d
        # Go: return nil
        return None

    async def notify(self, id: str, timestamp: float) -> None:
        """Send the pod's data to each subscriber whose time ``timestamp`` has reached.

        Go: pkg/kubelet/container/cache.go (*cache).notify
        """
        # Go: list, ok := c.subscribers[id]
        lst = self.subscribers.get(id)
        # Go: if !ok {
        if lst is None:
            return
        # Go: newList := []*subRecord{}
        new_list: list[SubRecord] = []
        # Go: for i, r := range list {
        for r in lst:
            # Go: if timestamp.Before(r.time) {
            if timestamp < r.time:
                new_list.append(r)
                continue
            # Go: r.ch <- c.get(id)
            await r.ch.send(self._get(id))
            # Go: close(r.ch)
            r.ch.close()
        # Go: if len(newList) == 0 {
        if not new_list:
            del self.subscribers[id]
        else:
            self.subscribers[id] = new_list

    async def subscribe(self, id: str, timestamp: float) -> Chan[Data]:
        """Go: pkg/kubelet/container/cache.go (*cache).subscribe"""
        ch: Chan[Data] = Chan(1, name="podCache.subscribe")
        d = self.get_if_newer_than(id, timestamp)
        if d is not None:
            await ch.send(d)  # capacity 1: does not block
            return ch
        self.subscribers.setdefault(id, []).append(SubRecord(time=timestamp, ch=ch))
        return ch


def new_cache() -> CacheImpl:
    """Go: pkg/kubelet/container/cache.go NewCache"""
    return CacheImpl()


def make_default_data(id: str) -> Data:
    """Go: pkg/kubelet/container/cache.go makeDefaultData"""
    return Data(status=PodStatus(id=id), err=None)
