"""A container's AppArmor profile, from its pod's annotations.

Go: pkg/security/apparmor/helpers.go
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1.annotation_key_constants import (
    AppArmorBetaContainerAnnotationKeyPrefix,
)

__all__ = ["get_profile_name_from_pod_annotations"]


def get_profile_name_from_pod_annotations(annotations: dict[str, str], container_name: str) -> str:
    """``container.apparmor.security.beta.kubernetes.io/<name>``'s value, or ``""``.

    Go: pkg/security/apparmor/helpers.go GetProfileNameFromPodAnnotations
    """
    return annotations.get(AppArmorBetaContainerAnnotationKeyPrefix + container_name, "")
