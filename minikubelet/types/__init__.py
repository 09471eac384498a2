"""kubelet's types package: pod updates, the conditions kubelet owns, container labels.

The Go package is pkg/kubelet/types/, one module per Go file (:mod:`.pod_update`, :mod:`.pod_status`,
:mod:`.types`, :mod:`.labels`). The package holds the names of all of them, as a Go package does,
so ``from minikubelet import types as kubetypes`` reads like Go's ``kubetypes.ADD``.
"""

from minikubelet.types.labels import *  # noqa: F403
from minikubelet.types.pod_status import *  # noqa: F403
from minikubelet.types.pod_update import *  # noqa: F403
from minikubelet.types.types import *  # noqa: F403
