"""Enforcing a pod's ``activeDeadlineSeconds``: past it, the pod is failed (DeadlineExceeded).

Go: pkg/kubelet/active_deadline.go

The handler plays two parts kubelet gives it: a *sync-loop handler* (the sync ticker syncs a pod
past its deadline at once) and a *sync handler* (``generateAPIPodStatus`` asks it whether to
fail the pod, and then ``syncPod`` kills it).
"""

from __future__ import annotations

from typing import Any

from minikubelet.go import Clock
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.client_go.tools.record.event import EventTypeNormal
from minikubelet.lifecycle.interfaces import ShouldEvictResponse

#: Go: reason
reason = "DeadlineExceeded"
#: Go: message
message = "Pod was active on the node longer than the specified deadline"


class ActiveDeadlineHandler:
    """Go: pkg/kubelet/active_deadline.go type activeDeadlineHandler"""

    def __init__(self, pod_status_provider: Any, recorder: Any, clock: Clock) -> None:
        """Go: pkg/kubelet/active_deadline.go newActiveDeadlineHandler"""
        if clock is None or pod_status_provider is None or recorder is None:
            raise ValueError(
                f"required arguments must not be nil: {clock}, {pod_status_provider}, {recorder}"
            )
        self.clock = clock
        self.pod_status_provider = pod_status_provider
        self.recorder = recorder

    def should_sync(self, pod: Pod) -> bool:
        """True if the pod is past its active deadline.

        Go: pkg/kubelet/active_deadline.go (*activeDeadlineHandler).ShouldSync
        """
        return self.past_active_deadline(pod)

    def should_evict(self, pod: Pod) -> ShouldEvictResponse:
        """Fail the pod if it is past its deadline, with an event saying so.

        Go: pkg/kubelet/active_deadline.go (*activeDeadlineHandler).ShouldEvict
        """
        if not self.past_active_deadline(pod):
            return ShouldEvictResponse(evict=False)
        self.recorder.eventf(pod, EventTypeNormal, reason, message)
        return ShouldEvictResponse(evict=True, reason=reason, message=message)

    def past_active_deadline(self, pod: Pod) -> bool:
        """Whether the pod has been active longer than its ``activeDeadlineSeconds``.

        Go: pkg/kubelet/active_deadline.go (*activeDeadlineHandler).pastActiveDeadline
        """
        # Go: if pod.Spec.ActiveDeadlineSeconds == nil {
        if pod.spec.active_deadline_seconds is None:
            return False
        # The status manager's copy is newer than the pod's own status.
        # Go: podStatus, ok := m.podStatusProvider.GetPodStatus(pod.UID)
        pod_status, ok = self.pod_status_provider.get_pod_status(pod.metadata.uid)
        # Go: if !ok {
        if not ok:
            pod_status = pod.status
        # The clock starts when kubelet first stores a status (start_time), not at creation.
        # Go: if podStatus.StartTime.IsZero() {
        if not pod_status.start_time:
            return False
        # Go: duration := m.clock.Since(start)
        duration = self.clock.now() - pod_status.start_time
        # Go: allowedDuration := time.Duration(*pod.Spec.ActiveDeadlineSeconds) * time.Second
        allowed_duration = pod.spec.active_deadline_seconds
        # Go: return duration >= allowedDuration
        return duration >= allowed_duration
