"""A container's security context, as the runtime gets it.

Go: pkg/kubelet/kuberuntime/security_context.go

The methods are in [`SecurityContextMethods`][], which
[`KubeGenericRuntimeManager`][minikubelet.kuberuntime.kuberuntime_manager.KubeGenericRuntimeManager]
inherits.

The port's API has no container ``securityContext`` and keeps only the sysctls of the pod's,
so the effective context Go computes from both (``securitycontext.DetermineEffectiveSecurityContext``)
is always empty here: no user, group, capabilities, privilege or SELinux options; what is left
is what kubelet adds itself: the image's user, the seccomp and AppArmor annotations, the
namespaces, and the masked and read-only paths.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.kubernetes.pkg.security.apparmor.helpers import (
    get_profile_name_from_pod_annotations,
)
from minikubelet.k8s_io.kubernetes.pkg.securitycontext.util import (
    convert_to_runtime_masked_paths,
    convert_to_runtime_readonly_paths,
)
from minikubelet.kuberuntime.helpers import namespaces_for_pod

if TYPE_CHECKING:
    from minikubelet.kuberuntime.kuberuntime_manager import KubeGenericRuntimeManager


class SecurityContextMethods:
    """The methods of ``kubeGenericRuntimeManager`` defined in security_context.go."""

    def determine_effective_security_context(
        self: KubeGenericRuntimeManager,
        pod: v1.Pod,
        container: v1.Container,
        uid: int | None,
        username: str,
    ) -> runtimeapi.LinuxContainerSecurityContext:
        """Go: pkg/kubelet/kuberuntime/security_context.go (*kubeGenericRuntimeManager).determineEffectiveSecurityContext"""
        # Go converts the effective context; an empty one converts to an empty runtime one.
        synthesized = runtimeapi.LinuxContainerSecurityContext()

        synthesized.seccomp_profile_path = self.get_seccomp_profile_path(
            pod.metadata.annotations, container.name
        )

        synthesized.seccomp = self.get_seccomp_profile()

        synthesized.apparmor_profile = get_profile_name_from_pod_annotations(
            pod.metadata.annotations, container.name
        )

        # Go: if synthesized.RunAsUser == nil {
        if synthesized.run_as_user is None:
            if uid is not None:
                synthesized.run_as_user = runtimeapi.Int64Value(value=uid)
            synthesized.run_as_username = username

        synthesized.namespace_options = namespaces_for_pod(pod)
        # Go omitted: if podSc != nil { -- the pod's securityContext here has no fsGroup or supplementalGroups
        # Go omitted: if groups := m.runtimeHelper.GetExtraSupplementalGroupsForPod(pod); len(groups) > 0 { -- no volume here asks for a group (a persistent volume's GID annotation)

        # No allowPrivilegeEscalation here: no_new_privs stays false.
        synthesized.masked_paths = convert_to_runtime_masked_paths()
        synthesized.readonly_paths = convert_to_runtime_readonly_paths()

        return synthesized
