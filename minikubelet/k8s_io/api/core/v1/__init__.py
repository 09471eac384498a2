"""k8s.io/api/core/v1: the part of the core v1 API that kubelet's pod-creation path reads.

Import it as Go does, ``from minikubelet.k8s_io.api.core import v1``, and write ``v1.Pod``,
``v1.PodPending``: the package holds the names of all its files ([`types`][.types],
[`resource`][.resource], [`toleration`][.toleration], [`well_known_taints`][.well_known_taints]), as a
Go package does.
"""

from minikubelet.k8s_io.api.core.v1.resource import *  # noqa: F403
from minikubelet.k8s_io.api.core.v1.toleration import *  # noqa: F403
from minikubelet.k8s_io.api.core.v1.types import *  # noqa: F403
from minikubelet.k8s_io.api.core.v1.well_known_taints import *  # noqa: F403
