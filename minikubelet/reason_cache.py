"""Why each container last failed to start, so the pod status can say it (CrashLoopBackOff…).

Go: pkg/kubelet/reason_cache.go

``syncPod`` stores the runtime's ``SyncPod`` result here; ``generateAPIPodStatus`` turns a
recorded failure into the container's ``waiting`` reason and message.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from minikubelet.container.sync_result import StartContainer

#: Go: maxReasonCacheEntries
maxReasonCacheEntries = 1000


@dataclass(frozen=True)
class ReasonItem:
    """The error of a container's last start and its message.

    Go: pkg/kubelet/reason_cache.go type ReasonItem
    """

    err: Exception
    message: str


class ReasonCache:
    """An LRU cache of [`ReasonItem`][] keyed by pod UID and container name.

    Go: pkg/kubelet/reason_cache.go type ReasonCache
    """

    def __init__(self, size: int = maxReasonCacheEntries) -> None:
        """Go: pkg/kubelet/reason_cache.go NewReasonCache"""
        self.size = size
        self.cache: OrderedDict[str, ReasonItem] = OrderedDict()

    @staticmethod
    def compose_key(uid: str, name: str) -> str:
        """Go: pkg/kubelet/reason_cache.go (*ReasonCache).composeKey"""
        return f"{uid}_{name}"

    def add(self, uid: str, name: str, reason: Exception, message: str) -> None:
        """Go: pkg/kubelet/reason_cache.go (*ReasonCache).add"""
        key = self.compose_key(uid, name)
        self.cache[key] = ReasonItem(reason, message)
        self.cache.move_to_end(key)
        while len(self.cache) > self.size:
            self.cache.popitem(last=False)

    def update(self, uid: str, result: Any) -> None:
        """Record the failures of a SyncPod result's StartContainer actions; forget successes.

        Go: pkg/kubelet/reason_cache.go (*ReasonCache).Update
        """
        for r in result.sync_results:
            if r.action != StartContainer:
                continue
            name = str(r.target)
            if r.error is not None:
                self.add(uid, name, r.error, r.message)
            else:
                self.remove(uid, name)

    def remove(self, uid: str, name: str) -> None:
        """Go: pkg/kubelet/reason_cache.go (*ReasonCache).Remove"""
        self.cache.pop(self.compose_key(uid, name), None)

    def get(self, uid: str, name: str) -> tuple[ReasonItem | None, bool]:
        """Go: pkg/kubelet/reason_cache.go (*ReasonCache).Get"""
        item = self.cache.get(self.compose_key(uid, name))
        if item is None:
            return None, False
        self.cache.move_to_end(self.compose_key(uid, name))
        return item, True
