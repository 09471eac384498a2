"""kubelet's types package: pod updates, the conditions kubelet owns, container labels.

The Go package is pkg/kubelet/types/, one module per Go file ([`pod_update`][.pod_update],
[`pod_status`][.pod_status], [`types`][.types], [`labels`][.labels], [`constants`][.constants]). The package holds the names of
all of them, as a Go package does, so ``from minikubelet import types as kubetypes`` reads like Go's
``kubetypes.ADD``.
"""

from minikubelet.types.constants import *  # noqa: F403
from minikubelet.types.labels import *  # noqa: F403
from minikubelet.types.pod_status import *  # noqa: F403
from minikubelet.types.pod_update import *  # noqa: F403
from minikubelet.types.types import *  # noqa: F403
