"""Object metadata: the part of k8s.io/apimachinery's meta/v1 API the port reads.

Go: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minikubelet.go.ints import int64
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1.time import Time


@dataclass(slots=True, kw_only=True)
class ObjectMeta:
    """Name, namespace, UID, labels and annotations of an object.

    Go: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go type ObjectMeta

    ``namespace`` stays ``""`` when a manifest does not set it (see
    [`minikubelet.k8s_io.api.core.v1.types`][minikubelet.k8s_io.api.core.v1.types]).
    ``annotations`` keeps every annotation, including minikubelet's own
    (``MinikubeletScenarioAnnotation``); values are always strings.
    """

    name: str = ""
    namespace: str = ""
    self_link: str = ""
    uid: str = ""
    resource_version: str = ""
    generation: int64 = 0
    creation_timestamp: Time | None = None
    deletion_timestamp: Time | None = None
    deletion_grace_period_seconds: int64 | None = None
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
