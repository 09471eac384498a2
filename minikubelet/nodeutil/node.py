"""The node's hostname, as kubelet settles it before anything else runs.

Go: pkg/util/node/node.go

``kubelet --hostname-override Node-A`` runs as node ``node-a``: :func:`get_hostname` trims and
lower-cases the name, so that it is a valid DNS-1123 subdomain like every object name. The name
then names the node, suffixes the names of static pods and fills their ``spec.nodeName``.
"""

from __future__ import annotations

import socket

__all__ = ["get_hostname"]


def get_hostname(hostname_override: str) -> str:
    """The override, or else the machine's hostname: trimmed and lower-cased.

    Go: pkg/util/node/node.go GetHostname

    Raises ValueError where Go returns an error.
    """
    host_name = hostname_override
    if len(host_name) == 0:
        try:
            node_name = socket.gethostname()
        except OSError as err:
            raise ValueError(f"couldn't determine hostname: {err}") from err
        host_name = node_name

    # Trimmed first, so that a name of blanks counts as empty.
    host_name = host_name.strip()
    if len(host_name) == 0:
        raise ValueError("empty hostname is invalid")
    return host_name.lower()
