"""The sysctl admit handler: a pod may set only the sysctls kubelet allows.

Go: pkg/kubelet/sysctl/whitelist.go

kubelet allows the safe sysctls and those of ``--allowed-unsafe-sysctls`` (names, or prefixes
ending in ``*``), each of which must be namespaced. A pod that sets another one, or a network
sysctl with ``hostNetwork`` (an IPC one with ``hostIPC``), where it would change the node's own
setting, is rejected with the reason ``SysctlForbidden``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from minikubelet.k8s_io.kubernetes.pkg.apis.core.validation.validation import SysctlMaxLength
from minikubelet.k8s_io.kubernetes.pkg.apis.policy.validation.validation import (
    SysctlPatternFmt,
    is_valid_sysctl_pattern,
)
from minikubelet.lifecycle.interfaces import PodAdmitAttributes, PodAdmitResult
from minikubelet.sysctl.namespace import (
    Namespace,
    ipcNamespace,
    namespaced_by,
    netNamespace,
    unknownNamespace,
)

#: Go: ForbiddenReason
ForbiddenReason = "SysctlForbidden"


@dataclass(slots=True)
class PatternWhitelist:
    """The allowed sysctls, by whole name and by prefix, each with its namespace.

    Go: pkg/kubelet/sysctl/whitelist.go type patternWhitelist
    """

    sysctls: dict[str, Namespace] = field(default_factory=dict)
    prefixes: dict[str, Namespace] = field(default_factory=dict)

    def validate_sysctl(self, sysctl: str, host_net: bool, host_ipc: bool) -> str | None:
        """Why the pod may not set this sysctl, or None if it may.

        Go: pkg/kubelet/sysctl/whitelist.go (*patternWhitelist).validateSysctl
        """
        ns = self.sysctls.get(sysctl)
        if ns is None:
            ns = next((n for p, n in self.prefixes.items() if sysctl.startswith(p)), None)
        if ns is None:
            return f'"{sysctl}" not whitelisted'
        if (ns == ipcNamespace and host_ipc) or (ns == netNamespace and host_net):
            return f'"{sysctl}" not allowed with host {ns} enabled'
        return None

    async def admit(self, attrs: PodAdmitAttributes) -> PodAdmitResult:
        """Reject the pod at its first sysctl that is not allowed.

        Go: pkg/kubelet/sysctl/whitelist.go (*patternWhitelist).Admit
        """
        pod = attrs.pod
        if pod.spec.security_context is None or len(pod.spec.security_context.sysctls) == 0:
            return PodAdmitResult(admit=True)
        host_net = pod.spec.host_network
        host_ipc = pod.spec.host_ipc
        for s in pod.spec.security_context.sysctls:
            if (err := self.validate_sysctl(s.name, host_net, host_ipc)) is not None:
                return PodAdmitResult(
                    admit=False, reason=ForbiddenReason, message=f"forbidden sysctl: {err}"
                )
        return PodAdmitResult(admit=True)


def new_whitelist(patterns: list[str]) -> PatternWhitelist:
    """The handler for these names and ``prefix*`` patterns; raises ValueError, with kubelet's
    message, on a pattern that is malformed or not namespaced.

    Go: pkg/kubelet/sysctl/whitelist.go NewWhitelist
    """
    w = PatternWhitelist()
    for s in patterns:
        if not is_valid_sysctl_pattern(s):
            raise ValueError(
                f"sysctl {json.dumps(s, ensure_ascii=False)} must have at most {SysctlMaxLength} "
                f"characters and match regex {SysctlPatternFmt}"
            )
        if s.endswith("*"):
            prefix = s[:-1]
            ns = namespaced_by(prefix)
            if ns == unknownNamespace:
                raise ValueError(f'the sysctls "{s}" are not known to be namespaced')
            w.prefixes[prefix] = ns
        else:
            ns = namespaced_by(s)
            if ns == unknownNamespace:
                raise ValueError(f'the sysctl "{s}" are not known to be namespaced')
            w.sysctls[s] = ns
    return w
