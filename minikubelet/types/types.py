"""Small helpers of kubelet's types package: timestamps, the order of init container statuses,
and the HTTP client lifecycle hooks use.

Go: pkg/kubelet/types/types.go
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

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


@dataclass(frozen=True, slots=True)
class HTTPResponse:
    """What an HTTP GET got back: its status code and body. Ours: it stands for the part of Go's
    ``*http.Response`` that kubelet reads (net/http is Go's standard library)."""

    status_code: int = 200
    body: bytes = b""


class HTTPGetter(Protocol):
    """Something that can make an HTTP GET (kubelet's HTTP client, for ``httpGet`` hooks).

    Go: pkg/kubelet/types/types.go type HTTPGetter
    """

    async def get(self, url: str) -> tuple[HTTPResponse | None, Exception | None]:
        """GET ``url``: the response (None when there is none) and the error, as Go's
        ``(*http.Response, error)``.

        Go: pkg/kubelet/types/types.go HTTPGetter.Get
        """
        ...
