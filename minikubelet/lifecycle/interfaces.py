"""The hooks kubelet calls around a pod's life: may it be admitted, should it be synced now,
should it be evicted.

Go: pkg/kubelet/lifecycle/interfaces.go

kubelet keeps a list of each kind of handler ([`PodAdmitHandlers`][] …); ``canAdmitPod``
asks every admit handler in turn, and the first that says no rejects the pod.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from minikubelet.k8s_io.api.core.v1 import Pod

__all__ = [
    "PodAdmitAttributes",
    "PodAdmitHandler",
    "PodAdmitHandlers",
    "PodAdmitResult",
    "PodSyncHandler",
    "PodSyncHandlers",
    "PodSyncLoopHandler",
    "PodSyncLoopHandlers",
    "ShouldEvictResponse",
]


@dataclass(slots=True)
class PodAdmitAttributes:
    """What an admission decision looks at. Never change it.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodAdmitAttributes
    """

    pod: Pod
    #: The pods already admitted and still alive (the one asking is not among them).
    other_pods: list[Pod] = field(default_factory=list)


@dataclass(slots=True)
class PodAdmitResult:
    """The result of an admission decision.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodAdmitResult
    """

    admit: bool = False
    #: One CamelCase word (``OutOfcpu``): the rejected pod's status reason and event reason.
    reason: str = ""
    #: For people; the pod's status message becomes "Pod " + this.
    message: str = ""


class PodAdmitHandler(Protocol):
    """Decides whether a pod may be admitted.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodAdmitHandler
    """

    async def admit(self, attrs: PodAdmitAttributes) -> PodAdmitResult:
        """Go: pkg/kubelet/lifecycle/interfaces.go PodAdmitHandler.Admit

        A coroutine: the predicate handler may wait for preempted pods to be killed, which
        blocks in Go.
        """
        ...


class PodSyncLoopHandler(Protocol):
    """Asked on each sync loop iteration whether a pod needs a sync.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodSyncLoopHandler
    """

    def should_sync(self, pod: Pod) -> bool:
        """True if the pod needs to be synced. Must return at once; must not change the pod.

        Go: pkg/kubelet/lifecycle/interfaces.go PodSyncLoopHandler.ShouldSync
        """
        ...


@dataclass(slots=True)
class ShouldEvictResponse:
    """The answer to "should this pod be evicted?".

    Go: pkg/kubelet/lifecycle/interfaces.go type ShouldEvictResponse
    """

    evict: bool = False
    #: Become the pod's status reason and message (``DeadlineExceeded`` …).
    reason: str = ""
    message: str = ""


class PodSyncHandler(Protocol):
    """Asked on each pod sync whether the pod should be evicted (its phase is then set to
    ``Failed`` with the reason and message, and it is killed).

    Go: pkg/kubelet/lifecycle/interfaces.go type PodSyncHandler
    """

    def should_evict(self, pod: Pod) -> ShouldEvictResponse:
        """Must return at once; must not change the pod.

        Go: pkg/kubelet/lifecycle/interfaces.go PodSyncHandler.ShouldEvict
        """
        ...


class PodAdmitHandlers(list[PodAdmitHandler]):
    """A list of admit handlers.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodAdmitHandlers
    """

    def add_pod_admit_handler(self, a: PodAdmitHandler) -> None:
        """Go: pkg/kubelet/lifecycle/interfaces.go (*PodAdmitHandlers).AddPodAdmitHandler"""
        self.append(a)


class PodSyncLoopHandlers(list[PodSyncLoopHandler]):
    """A list of sync loop handlers.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodSyncLoopHandlers
    """

    def add_pod_sync_loop_handler(self, a: PodSyncLoopHandler) -> None:
        """Go: pkg/kubelet/lifecycle/interfaces.go (*PodSyncLoopHandlers).AddPodSyncLoopHandler"""
        self.append(a)


class PodSyncHandlers(list[PodSyncHandler]):
    """A list of pod sync handlers.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodSyncHandlers
    """

    def add_pod_sync_handler(self, a: PodSyncHandler) -> None:
        """Go: pkg/kubelet/lifecycle/interfaces.go (*PodSyncHandlers).AddPodSyncHandler"""
        self.append(a)
