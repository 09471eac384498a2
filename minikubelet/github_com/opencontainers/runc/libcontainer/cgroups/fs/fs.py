"""The huge page sizes of the machine, as runc's cgroupfs driver lists them.

Stands in for runc's ``HugePageSizes`` (libcontainer/cgroups/fs/fs.go, vendored by
Kubernetes). runc fills ``HugePageSizes`` once, when the package loads, from the names in
``/sys/kernel/mm/hugepages`` (``hugepages-2048kB`` → ``2MB``), in the order the directory lists
them. kubelet gives every container a huge page limit for each size, and every QoS cgroup too.
"""

from __future__ import annotations

__all__ = ["HugePageSizes"]

#: Ours: the simulated machine's sizes. An x86-64 host offers these two; the order is the one
#: the host that made the oracle's golden traces listed them in (tests/oracle/golden/), which
#: is the order the limits appear in a container's CRI config.
HugePageSizes: tuple[str, ...] = ("2MB", "1GB")
