"""The part of kubelet's configuration the port reads, with v1beta1's defaults.

Go: pkg/kubelet/apis/config/types.go

Field names are Go's in snake_case; the defaults are those of
pkg/kubelet/apis/config/v1beta1/defaults.go (``SyncFrequency`` 1 min, ``FileCheckFrequency`` and
``HTTPCheckFrequency`` 20 s, ``MaxPods`` 110).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minikubelet.go import Millisecond, Minute, Second


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
