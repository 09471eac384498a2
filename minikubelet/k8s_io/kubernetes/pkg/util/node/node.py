"""The node's hostname, as kubelet settles it before anything else runs.

Go: pkg/util/node/node.go

``kubelet --hostname-override Node-A`` runs as node ``node-a``: [`get_hostname`][minikubelet.k8s_io.kubernetes.pkg.util.node.node.get_hostname] trims and
lower-cases the name, so that it is a valid DNS-1123 subdomain like every object name. The name
then names the node, suffixes the names of static pods and fills their ``spec.nodeName``.
"""

from __future__ import annotations

import ipaddress
import socket

from minikubelet.k8s_io.api.core.v1 import Node, NodeExternalIP, NodeInternalIP

__all__ = ["get_hostname", "get_node_host_ips", "parse_ip"]


def parse_ip(s: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """Go's ``net.ParseIP``: the address, or None (Go's nil) when ``s`` is not one."""
    try:
        return ipaddress.ip_address(s)
    except ValueError:
        return None


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


def get_node_host_ips(node: Node) -> list[str]:
    """The node's primary IP (internal ones first, then external ones) and, if it has one, the
    first of the other family.

    Go: pkg/util/node/node.go GetNodeHostIPs

    Raises ValueError where Go returns an error. The IPv6DualStack feature gate it checks is
    on by default in v1.21.
    """
    all_ips: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for kind in (NodeInternalIP, NodeExternalIP):
        for addr in node.status.addresses:
            if addr.type == kind:
                ip = parse_ip(addr.address)
                if ip is not None:
                    all_ips.append(ip)
    if len(all_ips) == 0:
        known = " ".join(f"{{{a.type} {a.address}}}" for a in node.status.addresses)
        raise ValueError(f"host IP unknown; known addresses: [{known}]")

    node_ips = [all_ips[0]]
    for ip in all_ips:
        if ip.version != node_ips[0].version:
            node_ips.append(ip)
            break
    return [str(ip) for ip in node_ips]
