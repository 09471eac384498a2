"""The function types the eviction manager and the critical-pod admission handler share.

Go: pkg/kubelet/eviction/types.go
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from minikubelet.k8s_io.api.core.v1 import Pod, PodStatus

#: Go: pkg/kubelet/eviction/types.go type KillPodFunc: kill a pod, with the status to report and
#: an optional grace period in seconds. Go's returns an error; the port's raises one.
KillPodFunc = Callable[[Pod, PodStatus, int | None], Awaitable[None]]

#: Go: pkg/kubelet/eviction/types.go type ActivePodsFunc: the pods kubelet runs that are not
#: terminated (kubelet passes its ``GetActivePods``).
ActivePodsFunc = Callable[[], list[Pod]]
