"""What ``SyncPod`` and ``KillPod`` did: one result per action, each with its error if it failed.

Go: pkg/kubelet/container/sync_result.go

The errors are Go's sentinel errors (``errors.New("CrashLoopBackOff")``): module-level exception
instances compared with ``is``, as Go compares them with ``==``. Their text is the *reason*
kubelet shows in a container's waiting state (``CrashLoopBackOff``, ``ImagePullBackOff`` …), and
``SyncResult.message`` the message next to it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from minikubelet.k8s_io.apimachinery.pkg.util.errors.errors import AggregateError, new_aggregate

#: The container terminated and kubelet is backing off its restart. Go: ErrCrashLoopBackOff
ErrCrashLoopBackOff = RuntimeError("CrashLoopBackOff")
#: Go: ErrContainerNotFound
ErrContainerNotFound = RuntimeError("no matching container")
#: The runtime failed to start a container. Go: ErrRunContainer
ErrRunContainer = RuntimeError("RunContainerError")
#: The runtime failed to kill a container. Go: ErrKillContainer
ErrKillContainer = RuntimeError("KillContainerError")
#: The runtime failed to create the pod's sandbox. Go: ErrCreatePodSandbox
ErrCreatePodSandbox = RuntimeError("CreatePodSandboxError")
#: kubelet could not make the sandbox's config. Go: ErrConfigPodSandbox
ErrConfigPodSandbox = RuntimeError("ConfigPodSandboxError")
#: The runtime failed to stop the pod's sandbox. Go: ErrKillPodSandbox
ErrKillPodSandbox = RuntimeError("KillPodSandboxError")


class SyncAction(StrEnum):
    """Go: pkg/kubelet/container/sync_result.go type SyncAction"""

    START_CONTAINER = "StartContainer"
    KILL_CONTAINER = "KillContainer"
    SETUP_NETWORK = "SetupNetwork"
    TEARDOWN_NETWORK = "TeardownNetwork"
    INIT_CONTAINER = "InitContainer"
    CREATE_POD_SANDBOX = "CreatePodSandbox"
    CONFIG_POD_SANDBOX = "ConfigPodSandbox"
    KILL_POD_SANDBOX = "KillPodSandbox"


StartContainer = SyncAction.START_CONTAINER
KillContainer = SyncAction.KILL_CONTAINER
SetupNetwork = SyncAction.SETUP_NETWORK
TeardownNetwork = SyncAction.TEARDOWN_NETWORK
InitContainer = SyncAction.INIT_CONTAINER
CreatePodSandbox = SyncAction.CREATE_POD_SANDBOX
ConfigPodSandbox = SyncAction.CONFIG_POD_SANDBOX
KillPodSandbox = SyncAction.KILL_POD_SANDBOX


@dataclass(slots=True)
class SyncResult:
    """The result of one action: which, on what (a container name, a pod…), and how it failed.

    Go: pkg/kubelet/container/sync_result.go type SyncResult
    """

    action: SyncAction
    target: Any
    #: Brief reason (one of the sentinel errors), None on success.
    error: BaseException | None = None
    #: Human-readable details.
    message: str = ""

    def fail(self, err: BaseException | None, msg: str) -> None:
        """Go: pkg/kubelet/container/sync_result.go (*SyncResult).Fail"""
        self.error, self.message = err, msg


def new_sync_result(action: SyncAction, target: Any) -> SyncResult:
    """Go: pkg/kubelet/container/sync_result.go NewSyncResult"""
    return SyncResult(action=action, target=target)


@dataclass(slots=True)
class PodSyncResult:
    """The summary of one ``SyncPod`` or ``KillPod``.

    Go: pkg/kubelet/container/sync_result.go type PodSyncResult
    """

    sync_results: list[SyncResult] = field(default_factory=list)
    #: An error of SyncPod/KillPod itself, not already in ``sync_results``.
    sync_error: BaseException | None = None

    def add_sync_result(self, *result: SyncResult) -> None:
        """Go: pkg/kubelet/container/sync_result.go (*PodSyncResult).AddSyncResult"""
        self.sync_results.extend(result)

    def add_pod_sync_result(self, result: PodSyncResult) -> None:
        """Go: pkg/kubelet/container/sync_result.go (*PodSyncResult).AddPodSyncResult"""
        self.add_sync_result(*result.sync_results)
        self.sync_error = result.sync_error

    def fail(self, err: BaseException | None) -> None:
        """Go: pkg/kubelet/container/sync_result.go (*PodSyncResult).Fail"""
        self.sync_error = err

    def error(self) -> AggregateError | None:
        """All the errors as one, or None when every action succeeded.

        Go: pkg/kubelet/container/sync_result.go (*PodSyncResult).Error
        """
        errlist: list[Exception] = []
        if self.sync_error is not None:
            errlist.append(RuntimeError(f"failed to SyncPod: {self.sync_error}"))
        for result in self.sync_results:
            if result.error is not None:
                errlist.append(
                    RuntimeError(
                        f"failed to {_q(result.action)} for {_q(result.target)} with "
                        f"{result.error}: {_q(result.message)}"
                    )
                )
        return new_aggregate(errlist)


def _q(v: Any) -> str:
    """Go's ``%q`` of a string (a double-quoted, escaped literal)."""
    return json.dumps(str(v), ensure_ascii=False)
