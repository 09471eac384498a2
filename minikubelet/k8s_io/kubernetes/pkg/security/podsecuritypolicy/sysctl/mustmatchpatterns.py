"""The sysctls every pod may set.

Go: pkg/security/podsecuritypolicy/sysctl/mustmatchpatterns.go
"""

from __future__ import annotations


def safe_sysctl_whitelist() -> list[str]:
    """The sysctls that are namespaced and cannot hurt other pods on the node, so kubelet allows
    them without ``--allowed-unsafe-sysctls``.

    Go: pkg/security/podsecuritypolicy/sysctl/mustmatchpatterns.go SafeSysctlWhitelist
    """
    return [
        "kernel.shm_rmid_forced",
        "net.ipv4.ip_local_port_range",
        "net.ipv4.tcp_syncookies",
        "net.ipv4.ping_group_range",
    ]
