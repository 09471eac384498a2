"""Small helpers of kubelet's types package: timestamps and the order of init container statuses.

Go: pkg/kubelet/types/types.go
"""

from __future__ import annotations

from datetime import UTC, datetime

from minikubelet.k8s_io.api.core.v1 import ContainerStatus, Pod


def sort_init_container_statuses(p: Pod, statuses: list[ContainerStatus]) -> None:
    """Put init container statuses in the order their containers appear in the spec, in place.

    Go: pkg/kubelet/types/types.go SortInitContainerStatuses
    """
    containers = p.spec.init_containers
    current = 0
    for container in containers:
        for j in range(current, len(statuses)):
            if container.name == statuses[j].name:
                statuses[current], statuses[j] = statuses[j], statuses[current]
                current += 1
                break


def timestamp_string(t: float) -> str:
    """``t`` in Go's RFC3339NanoFixed layout (nine fractional digits).

    Go: pkg/kubelet/types/types.go (*Timestamp).GetString
    """
    seconds = int(t)
    nanos = round((t - seconds) * 1e9)
    stamp = datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S")
    return f"{stamp}.{nanos:09d}Z"
