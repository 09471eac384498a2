"""Which Linux namespace a sysctl belongs to.

Go: pkg/kubelet/sysctl/namespace.go

A sysctl is safe to set for one pod only if the kernel keeps it per namespace: the IPC ones
(``kernel.shm*``, ``kernel.msg*``, ``kernel.sem``, ``fs.mqueue.*``) and the network ones
(``net.*``). Any other sysctl is node-wide.
"""

from __future__ import annotations

from enum import StrEnum


class Namespace(StrEnum):
    """Go: pkg/kubelet/sysctl/namespace.go type Namespace"""

    IPC = "ipc"
    NET = "net"
    UNKNOWN = ""


ipcNamespace = Namespace.IPC
netNamespace = Namespace.NET
unknownNamespace = Namespace.UNKNOWN

# Whole names, then prefixes. Go: namespaces, prefixNamespaces
_namespaces = {"kernel.sem": ipcNamespace}
_prefix_namespaces = {
    "kernel.shm": ipcNamespace,
    "kernel.msg": ipcNamespace,
    "fs.mqueue.": ipcNamespace,
    "net.": netNamespace,
}


def namespaced_by(val: str) -> Namespace:
    """The namespace of a sysctl (or of the sysctls a prefix starts), or ``unknownNamespace``.

    Go: pkg/kubelet/sysctl/namespace.go NamespacedBy
    """
    if val in _namespaces:
        return _namespaces[val]
    for p, ns in _prefix_namespaces.items():
        if val.startswith(p):
            return ns
    return unknownNamespace
