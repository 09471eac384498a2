"""Helpers on the core API's objects.

Go: pkg/apis/core/helper/helpers.go
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Pod, Toleration


def add_or_update_toleration_in_pod(pod: Pod, toleration: Toleration) -> bool:
    """Add a toleration unless an equal one is there. Returns whether the pod changed.

    Go: pkg/apis/core/helper/helpers.go AddOrUpdateTolerationInPod
    """
    for i, t in enumerate(pod.spec.tolerations):
        if (t.key, t.operator, t.value, t.effect) == (
            toleration.key,
            toleration.operator,
            toleration.value,
            toleration.effect,
        ):
            if t == toleration:
                return False
            pod.spec.tolerations[i] = toleration
            return True
    pod.spec.tolerations.append(toleration)
    return True
