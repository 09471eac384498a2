"""The part of kubelet's configuration the port reads, with v1beta1's defaults.

Go: pkg/kubelet/apis/config/types.go

Field names are Go's in snake_case; the defaults are those of
pkg/kubelet/apis/config/v1beta1/defaults.go (``SyncFrequency`` 1 min, ``FileCheckFrequency`` and
``HTTPCheckFrequency`` 20 s, ``MaxPods`` 110).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minikubelet.go import Minute, Second


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
