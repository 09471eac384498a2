"""The hooks kubelet calls around a pod's life: may it be admitted, should it be synced now,
should it be evicted.

Go: pkg/kubelet/lifecycle/interfaces.go

kubelet keeps a list of each kind of handler (:class:`PodAdmitHandlers` …); ``canAdmitPod``
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
    "PodAdmitTarget",
    "PodLifecycleTarget",
    "PodSyncHandler",
    "PodSyncHandlers",
    "PodSyncLoopHandler",
    "PodSyncLoopHandlers",
    "PodSyncLoopTarget",
    "PodSyncTarget",
    "ShouldEvictResponse",
]


@dataclass(slots=True)
class PodAdmitAttributes:
    """What an admission decision looks at. Never change it.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodAdmitAttributes
    """

    #: the pod to evaluate for admission
    pod: Pod
    #: all pods bound to the kubelet excluding the pod being evaluated
    other_pods: list[Pod] = field(default_factory=list)


@dataclass(slots=True)
class PodAdmitResult:
    """The result of an admission decision.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodAdmitResult
    """

    #: if true, the pod should be admitted.
    admit: bool = False
    #: a brief single-word reason why the pod could not be admitted.
    reason: str = ""
    #: a brief message explaining why the pod could not be admitted.
    message: str = ""


class PodAdmitHandler(Protocol):
    """Decides whether a pod may be admitted.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodAdmitHandler
    """

    async def admit(self, attrs: PodAdmitAttributes) -> PodAdmitResult:
        """Evaluate if a pod can be admitted.

        Go: pkg/kubelet/lifecycle/interfaces.go PodAdmitHandler.Admit

        A coroutine: the predicate handler may wait for preempted pods to be killed, which
        blocks in Go.
        """
        ...


class PodAdmitTarget(Protocol):
    """Keeps a list of admit handlers.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodAdmitTarget
    """

    def add_pod_admit_handler(self, a: PodAdmitHandler) -> None:
        """Go: pkg/kubelet/lifecycle/interfaces.go PodAdmitTarget.AddPodAdmitHandler"""
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


class PodSyncLoopTarget(Protocol):
    """Keeps a list of sync loop handlers.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodSyncLoopTarget
    """

    def add_pod_sync_loop_handler(self, a: PodSyncLoopHandler) -> None:
        """Go: pkg/kubelet/lifecycle/interfaces.go PodSyncLoopTarget.AddPodSyncLoopHandler"""
        ...


@dataclass(slots=True)
class ShouldEvictResponse:
    """The answer to "should this pod be evicted?".

    Go: pkg/kubelet/lifecycle/interfaces.go type ShouldEvictResponse
    """

    #: if true, the pod should be evicted.
    evict: bool = False
    #: a brief CamelCase reason why the pod should be evicted.
    reason: str = ""
    #: a brief message why the pod should be evicted.
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


class PodSyncTarget(Protocol):
    """Keeps a list of pod sync handlers.

    Go: pkg/kubelet/lifecycle/interfaces.go type PodSyncTarget
    """

    def add_pod_sync_handler(self, a: PodSyncHandler) -> None:
        """Go: pkg/kubelet/lifecycle/interfaces.go PodSyncTarget.AddPodSyncHandler"""
        ...


class PodLifecycleTarget(PodAdmitTarget, PodSyncLoopTarget, PodSyncTarget, Protocol):
    """The three handler lists together (kubelet is one).

    Go: pkg/kubelet/lifecycle/interfaces.go type PodLifecycleTarget
    """


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
