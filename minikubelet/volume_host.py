"""What kubelet gives the volume plugins: pod volume directories, configMaps, secrets, tokens.

Go: pkg/kubelet/volume_host.go

The plugins are the five the port has (``cmd/kubelet/app/plugins.go`` probes some thirty in
Go). configMaps and secrets are read from the API server at each SetUp (as kubelet's
configMap and secret managers do, through a watch); without an API server (static pods only)
no object exists, so a configMap or secret volume never mounts, and a projected volume fails
as Go's does without a kube client. The filesystem and the mount script are the simulation's,
handed down by [`new_main_kubelet`][minikubelet.kubelet.new_main_kubelet].
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minikubelet.k8s_io.apimachinery.pkg.api.errors.errors import StatusError
from minikubelet.k8s_io.client_go.kubernetes.clientset import Interface
from minikubelet.k8s_io.kubernetes.pkg.volume.configmap import configmap
from minikubelet.k8s_io.kubernetes.pkg.volume.emptydir import empty_dir
from minikubelet.k8s_io.kubernetes.pkg.volume.hostpath import host_path
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import (
    FileSystem,
    MountScript,
    VolumePlugin,
    VolumePluginMgr,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.projected import projected
from minikubelet.k8s_io.kubernetes.pkg.volume.secret import secret

#: Go: pkg/kubelet/config/defaults.go DefaultKubeletPodsDirName under the root directory
KUBELET_PODS_DIR = "/var/lib/kubelet/pods"


def probe_volume_plugins() -> list[VolumePlugin]:
    """The in-tree plugins the port has, in the order of Go's ``ProbeVolumePlugins``
    (``cmd/kubelet/app/plugins.go``, which probes some thirty)."""
    return [
        *empty_dir.probe_volume_plugins(),
        *host_path.probe_volume_plugins(),
        *secret.probe_volume_plugins(),
        *configmap.probe_volume_plugins(),
        *projected.probe_volume_plugins(),
    ]


def new_initialized_volume_plugin_mgr(
    kube_client: Interface | None, fs: FileSystem, scenario: MountScript
) -> VolumePluginMgr:
    """Go: pkg/kubelet/volume_host.go NewInitializedVolumePluginMgr

    ``fs`` and ``scenario`` are the simulated node's files and mount script (ours).
    """
    kvh = KubeletVolumeHost(kube_client, fs, scenario)
    mgr = VolumePluginMgr()
    mgr.init_plugins(probe_volume_plugins(), kvh)
    return mgr


class KubeletVolumeHost:
    """Go: pkg/kubelet/volume_host.go type kubeletVolumeHost"""

    def __init__(
        self, kube_client: Interface | None, fs: FileSystem, scenario: MountScript
    ) -> None:
        self.kube_client = kube_client
        self.fs = fs
        self.scenario = scenario

    def get_pod_volume_dir(self, pod_uid: str, plugin_name: str, volume_name: str) -> str:
        """Go: pkg/volume/plugins.go VolumeHost.GetPodVolumeDir"""
        return f"{KUBELET_PODS_DIR}/{pod_uid}/volumes/{plugin_name}/{volume_name}"

    def get_pod_plugin_dir(self, pod_uid: str, plugin_name: str) -> str:
        """Go: pkg/kubelet/volume_host.go (*kubeletVolumeHost).GetPodPluginDir"""
        return f"{KUBELET_PODS_DIR}/{pod_uid}/plugins/{plugin_name}"

    def get_kube_client(self) -> Interface | None:
        """Go: pkg/kubelet/volume_host.go (*kubeletVolumeHost).GetKubeClient"""
        return self.kube_client

    def _getter(self, kind: str) -> Callable[[str, str], Any]:
        def get(namespace: str, name: str) -> Any:
            if self.kube_client is None:
                # The resource as kubelet's managers name it: "configmap", "secret".
                raise StatusError("NotFound", f'{kind.lower()} "{name}" not found')
            return self.kube_client.get_object(kind, namespace, name)

        return get

    def get_config_map_func(self) -> Callable[[str, str], Any]:
        """Go: pkg/kubelet/volume_host.go (*kubeletVolumeHost).GetConfigMapFunc"""
        return self._getter("ConfigMap")

    def get_secret_func(self) -> Callable[[str, str], Any]:
        """Go: pkg/kubelet/volume_host.go (*kubeletVolumeHost).GetSecretFunc"""
        return self._getter("Secret")

    def get_service_account_token_func(self) -> Callable[[str, str], str]:
        """Go: pkg/kubelet/volume_host.go (*kubeletVolumeHost).GetServiceAccountTokenFunc"""

        def get(namespace: str, service_account: str) -> str:
            # collectData asks for a token only once it has found a kube client.
            assert self.kube_client is not None
            return self.kube_client.create_token(namespace, service_account)

        return get
