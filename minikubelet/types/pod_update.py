"""Pod updates and the little vocabulary around them.

Go: pkg/kubelet/types/pod_update.go

Config sources talk to kubelet in [`PodUpdate`][]\\ s: a list of pods, an operation and the
name of the source. Everything else here answers small questions about a pod that kubelet asks
all the time: where it came from, whether it is a static or a mirror pod, whether it is critical.

Go functions that return ``(T, error)`` raise an exception here instead (see "Go → Python").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from minikubelet.k8s_io.api.core.v1 import Pod

#: The annotation kubelet adds to every pod: the name of the source it came from.
ConfigSourceAnnotationKey = "kubernetes.io/config.source"
#: Go: v1.MirrorPodAnnotationKey — set on the API server's copy ("mirror") of a static pod.
ConfigMirrorAnnotationKey = "kubernetes.io/config.mirror"
#: When kubelet first saw the pod (set by PodConfig).
ConfigFirstSeenAnnotationKey = "kubernetes.io/config.seen"
#: The hash (UID) of a static pod's manifest.
ConfigHashAnnotationKey = "kubernetes.io/config.hash"

#: Go: scheduling.SystemCriticalPriority (pkg/apis/scheduling/types.go): 2 × 10⁹.
SystemCriticalPriority = 2 * 1_000_000_000


class PodOperation(IntEnum):
    """What a [`PodUpdate`][] asks kubelet to do.

    Go: pkg/kubelet/types/pod_update.go type PodOperation
    """

    #: The full list of pods of one source (what sources send; PodConfig turns it into the rest).
    SET = 0
    #: Pods that are new to kubelet.
    ADD = 1
    #: Pods to stop gracefully: their deletion timestamp is set.
    DELETE = 2
    #: Pods that are gone from their source: stop them now.
    REMOVE = 3
    #: Pods whose spec, labels or annotations changed.
    UPDATE = 4
    #: Pods whose status changed but not their spec: kubelet reconciles the status (a sync if
    #: the Ready condition needs it).
    RECONCILE = 5


SET = PodOperation.SET
ADD = PodOperation.ADD
DELETE = PodOperation.DELETE
REMOVE = PodOperation.REMOVE
UPDATE = PodOperation.UPDATE
RECONCILE = PodOperation.RECONCILE

#: Pods from a manifest file or directory (``--pod-manifest-path``).
FileSource = "file"
#: Pods from an HTTP endpoint (``--manifest-url``).
HTTPSource = "http"
#: Pods from the API server (a watch on pods bound to this node).
ApiserverSource = "api"
#: Every source: used by PodConfig.Sync.
AllSource = "*"

#: Go: NamespaceDefault.
NamespaceDefault = "default"


@dataclass
class PodUpdate:
    """A batch of pods with one operation, from one source.

    Go: pkg/kubelet/types/pod_update.go type PodUpdate
    """

    pods: list[Pod] = field(default_factory=list)
    op: PodOperation = PodOperation.SET
    source: str = ""


def get_pod_source(pod: Pod) -> str:
    """The source a pod came from, read from its annotation.

    Go: pkg/kubelet/types/pod_update.go GetPodSource

    Raises LookupError when the pod has no source annotation.
    """
    annotations = pod.metadata.annotations
    if annotations is not None and ConfigSourceAnnotationKey in annotations:
        return annotations[ConfigSourceAnnotationKey]
    raise LookupError(f'cannot get source of pod "{pod.metadata.uid}"')


class SyncPodType(IntEnum):
    """Why a pod worker syncs a pod.

    Go: pkg/kubelet/types/pod_update.go type SyncPodType
    """

    SYNC = 0
    UPDATE = 1
    CREATE = 2
    KILL = 3

    def __str__(self) -> str:
        """Go: pkg/kubelet/types/pod_update.go (SyncPodType).String"""
        match self:
            # Go: case SyncPodCreate:
            case SyncPodType.CREATE:
                return "create"
            # Go: case SyncPodUpdate:
            case SyncPodType.UPDATE:
                return "update"
            # Go: case SyncPodSync:
            case SyncPodType.SYNC:
                return "sync"
            # Go: case SyncPodKill:
            case SyncPodType.KILL:
                return "kill"
            # Go: default:
            case _:
                return "unknown"


#: It has a String() method in Go: klog quotes it (``syncType="create"``).
SyncPodType.go_stringer = True  # type: ignore[attr-defined]

SyncPodSync = SyncPodType.SYNC
SyncPodUpdate = SyncPodType.UPDATE
SyncPodCreate = SyncPodType.CREATE
SyncPodKill = SyncPodType.KILL


def is_mirror_pod(pod: Pod) -> bool:
    """True for the API server's copy of a static pod.

    Go: pkg/kubelet/types/pod_update.go IsMirrorPod
    """
    return ConfigMirrorAnnotationKey in (pod.metadata.annotations or {})


def is_static_pod(pod: Pod) -> bool:
    """True for a pod that did not come from the API server (file or HTTP).

    Go: pkg/kubelet/types/pod_update.go IsStaticPod
    """
    try:
        source = get_pod_source(pod)
    except LookupError:
        return False
    return source != ApiserverSource


def is_critical_pod(pod: Pod) -> bool:
    """Static pods, mirror pods and pods of system-critical priority are critical.

    Go: pkg/kubelet/types/pod_update.go IsCriticalPod
    """
    if is_static_pod(pod):
        return True
    if is_mirror_pod(pod):
        return True
    return pod.spec.priority is not None and is_critical_pod_based_on_priority(pod.spec.priority)


def preemptable(preemptor: Pod | None, preemptee: Pod | None) -> bool:
    """Whether ``preemptor`` may evict ``preemptee`` to be admitted.

    Go: pkg/kubelet/types/pod_update.go Preemptable
    """
    # Like Go, the first check assumes both pods are given (Go would dereference nil here).
    if is_critical_pod(preemptor) and not is_critical_pod(preemptee):  # type: ignore[arg-type]
        return True
    if (preemptor is not None and preemptor.spec.priority is not None) and (
        preemptee is not None and preemptee.spec.priority is not None
    ):
        return preemptor.spec.priority > preemptee.spec.priority
    return False


def is_critical_pod_based_on_priority(priority: int) -> bool:
    """Go: pkg/kubelet/types/pod_update.go IsCriticalPodBasedOnPriority"""
    return priority >= SystemCriticalPriority
