"""Annotation keys with a meaning for kubelet: here, the seccomp and AppArmor ones.

Go: staging/src/k8s.io/api/core/v1/annotation_key_constants.go
"""

from __future__ import annotations

#: A pod's seccomp profile, by annotation (deprecated in v1.19 for the securityContext field).
SeccompPodAnnotationKey = "seccomp.security.alpha.kubernetes.io/pod"
#: A container's seccomp profile, by annotation: this prefix, then the container's name.
SeccompContainerAnnotationKeyPrefix = "container.seccomp.security.alpha.kubernetes.io/"
#: The container runtime's default seccomp profile.
SeccompProfileRuntimeDefault = "runtime/default"
#: A profile read from the node's disk: this prefix, then its path.
SeccompLocalhostProfileNamePrefix = "localhost/"
#: A container's AppArmor profile, by annotation: this prefix, then the container's name.
AppArmorBetaContainerAnnotationKeyPrefix = "container.apparmor.security.beta.kubernetes.io/"
