"""Pods that want a sync after a delay: pod workers put them here, the sync ticker takes them.

Go: pkg/kubelet/util/queue/work_queue.go
"""

from __future__ import annotations

from typing import Protocol

from minikubelet.go import Clock


class WorkQueue(Protocol):
    """Go: pkg/kubelet/util/queue/work_queue.go type WorkQueue"""

    def get_work(self) -> list[str]:
        """Go: pkg/kubelet/util/queue/work_queue.go WorkQueue.GetWork"""
        ...

    def enqueue(self, item: str, delay: float) -> None:
        """Go: pkg/kubelet/util/queue/work_queue.go WorkQueue.Enqueue"""
        ...


class BasicWorkQueue:
    """Go: pkg/kubelet/util/queue/work_queue.go type basicWorkQueue"""

    def __init__(self, clock: Clock) -> None:
        """Go: pkg/kubelet/util/queue/work_queue.go NewBasicWorkQueue"""
        self.clock = clock
        #: pod UID → when it is due.
        self.queue: dict[str, float] = {}

    def get_work(self) -> list[str]:
        """Take every pod whose time has come.

        Go: pkg/kubelet/util/queue/work_queue.go (*basicWorkQueue).GetWork
        """
        now = self.clock.now()
        # Go walks a map (random order); the UIDs come out sorted here so runs repeat.
        items = sorted(k for k, v in self.queue.items() if v < now)
        for k in items:
            del self.queue[k]
        return items

    def enqueue(self, item: str, delay: float) -> None:
        """Go: pkg/kubelet/util/queue/work_queue.go (*basicWorkQueue).Enqueue"""
        self.queue[item] = self.clock.now() + delay
