"""The part of kubelet's configuration the port reads, with v1beta1's defaults.

Go: pkg/kubelet/apis/config/types.go

Field names are Go's in snake_case; the defaults are those of
pkg/kubelet/apis/config/v1beta1/defaults.go (``SyncFrequency`` 1 min, ``FileCheckFrequency`` and
``HTTPCheckFrequency`` 20 s, ``MaxPods`` 110; the eviction thresholds of ``DefaultEvictionHard`` in
defaults_linux.go, a five-minute pressure transition period, ``EnforceNodeAllocatable`` ``[pods]``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minikubelet.go import Millisecond, Minute, Second


def default_eviction_hard() -> dict[str, str]:
    """kubelet's hard eviction thresholds when none are given on Linux: Go's
    ``DefaultEvictionHard`` variable (pkg/kubelet/apis/config/v1beta1/defaults_linux.go)."""
    return {
        "memory.available": "100Mi",
        "nodefs.available": "10%",
        "nodefs.inodesFree": "5%",
        "imagefs.available": "15%",
    }


@dataclass
class KubeletConfiguration:
    """Go: pkg/kubelet/apis/config/types.go type KubeletConfiguration"""

    #: The directory of static pod manifests (``--pod-manifest-path``); empty: none.
    static_pod_path: str = ""
    #: A URL to poll for pods (``--manifest-url``); empty: none.
    static_pod_url: str = ""
    #: Headers sent with each request to ``static_pod_url``.
    static_pod_url_header: dict[str, list[str]] = field(default_factory=dict)
    #: How often to list the manifest directory.
    file_check_frequency: float = 20 * Second
    #: How often to poll ``static_pod_url``.
    http_check_frequency: float = 20 * Second
    #: How often a running pod is synced again (the pod workers' resync interval).
    sync_frequency: float = 1 * Minute
    #: The most pods this node admits.
    max_pods: int = 110
    #: The QoS cgroup tree and a cgroup per pod (``--cgroups-per-qos``, default true).
    cgroups_per_qos: bool = True
    #: How cgroups are named: ``cgroupfs`` or ``systemd`` (``--cgroup-driver``), as the
    #: container runtime names them.
    cgroup_driver: str = "cgroupfs"
    #: Where the pods' cgroups go (``--cgroup-root``); kubelet's command line makes an empty
    #: one ``/`` when ``cgroups_per_qos`` is on.
    cgroup_root: str = "/"
    #: CPU limits become CFS quotas (``--cpu-cfs-quota``, default true).
    cpu_cfs_quota: bool = True
    #: The CFS period (``--cpu-cfs-quota-period``, default 100ms).
    cpu_cfs_quota_period: float = 100 * Millisecond
    #: The most processes a pod may run (``--pod-max-pids``, default -1: no limit).
    pod_pids_limit: int = -1
    #: ``--eviction-hard``: signal → threshold (``memory.available: 100Mi``, ``nodefs.available: 10%``).
    eviction_hard: dict[str, str] = field(default_factory=default_eviction_hard)
    #: ``--eviction-soft``: thresholds that evict only after their grace period.
    eviction_soft: dict[str, str] = field(default_factory=dict)
    #: ``--eviction-soft-grace-period``: signal → how long a soft threshold must hold (``1m30s``).
    eviction_soft_grace_period: dict[str, str] = field(default_factory=dict)
    #: ``--eviction-pressure-transition-period``: how long a pressure condition stays after its
    #: threshold was last met.
    eviction_pressure_transition_period: float = 5 * Minute
    #: ``--eviction-max-pod-grace-period``: the grace period (seconds) of a pod evicted by a soft
    #: threshold (0: none).
    eviction_max_pod_grace_period: int = 0
    #: ``--eviction-minimum-reclaim``: signal → how much beyond the threshold must be free again.
    eviction_minimum_reclaim: dict[str, str] = field(default_factory=dict)
    #: ``--enforce-node-allocatable``; with ``pods``, the hard memory threshold also applies to
    #: the pods' cgroup (``allocatableMemory.available``).
    enforce_node_allocatable: list[str] = field(default_factory=lambda: ["pods"])
