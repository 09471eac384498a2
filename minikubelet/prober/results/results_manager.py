"""The latest result of each container's probe, and a channel announcing every change.

Go: pkg/kubelet/prober/results/results_manager.go

kubelet has three of these (liveness, readiness, startup); ``syncLoopIteration`` reads each one's
[`Manager.updates`][] channel in its ``select``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Protocol

from minikubelet.container.runtime import ContainerID
from minikubelet.go import Chan, RecvChan, make_chan
from minikubelet.k8s_io.api.core.v1 import Pod


class Result(IntEnum):
    """The result of a probe.

    Go: pkg/kubelet/prober/results/results_manager.go type Result
    """

    UNKNOWN = -1
    SUCCESS = 0
    FAILURE = 1

    def __str__(self) -> str:
        """Go: pkg/kubelet/prober/results/results_manager.go (Result).String"""
        match self:
            # Go: case Success:
            case Result.SUCCESS:
                return "Success"
            # Go: case Failure:
            case Result.FAILURE:
                return "Failure"
            # Go: default:
            case _:
                return "UNKNOWN"


#: It has a String() method in Go: klog quotes it.
Result.go_stringer = True  # type: ignore[attr-defined]

Unknown = Result.UNKNOWN
Success = Result.SUCCESS
Failure = Result.FAILURE


@dataclass(frozen=True)
class Update:
    """A probe result that changed.

    Go: pkg/kubelet/prober/results/results_manager.go type Update
    """

    container_id: ContainerID
    result: Result
    pod_uid: str


class Manager(Protocol):
    """Go: pkg/kubelet/prober/results/results_manager.go type Manager"""

    def get(self, container_id: ContainerID) -> tuple[Result, bool]:
        """Go: pkg/kubelet/prober/results/results_manager.go Manager.Get"""
        ...

    async def set(self, container_id: ContainerID, result: Result, pod: Pod) -> None:
        """Go: pkg/kubelet/prober/results/results_manager.go Manager.Set"""
        ...

    def remove(self, container_id: ContainerID) -> None:
        """Go: pkg/kubelet/prober/results/results_manager.go Manager.Remove"""
        ...

    def updates(self) -> RecvChan[Update]:
        """Go: pkg/kubelet/prober/results/results_manager.go Manager.Updates"""
        ...


class ResultsManager:
    """Go: pkg/kubelet/prober/results/results_manager.go type manager"""

    def __init__(self, name: str = "results") -> None:
        """Go: pkg/kubelet/prober/results/results_manager.go NewManager"""
        self.cache: dict[ContainerID, Result] = {}
        self._updates: Chan[Update] = make_chan(20, name=f"{name}.updates")

    def get(self, container_id: ContainerID) -> tuple[Result, bool]:
        """Go: pkg/kubelet/prober/results/results_manager.go (*manager).Get"""
        result = self.cache.get(container_id)
        return (result, True) if result is not None else (Result.UNKNOWN, False)

    async def set(self, container_id: ContainerID, result: Result, pod: Pod) -> None:
        """Store a result; announce it on the channel only if it changed.

        Go: pkg/kubelet/prober/results/results_manager.go (*manager).Set
        """
        if self.set_internal(container_id, result):
            await self._updates.send(Update(container_id, result, pod.metadata.uid))

    def set_internal(self, container_id: ContainerID, result: Result) -> bool:
        """Go: pkg/kubelet/prober/results/results_manager.go (*manager).setInternal"""
        prev = self.cache.get(container_id)
        if prev is None or prev != result:
            self.cache[container_id] = result
            return True
        return False

    def remove(self, container_id: ContainerID) -> None:
        """Go: pkg/kubelet/prober/results/results_manager.go (*manager).Remove"""
        self.cache.pop(container_id, None)

    def updates(self) -> RecvChan[Update]:
        """Go: pkg/kubelet/prober/results/results_manager.go (*manager).Updates"""
        return self._updates.recv_only()
