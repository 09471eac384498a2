"""Volume plugins and the manager that finds the one a volume needs.

Go: pkg/volume/plugins.go

kubelet probes its in-tree plugins at start (``ProbeVolumePlugins`` of each), and for every
volume of a pod asks the manager which plugin can support it. The port has the five plugins a
pod on a plain node uses: emptyDir, configMap, secret, hostPath and projected. A volume of any
other kind (a PVC, NFS, CSI …) matches none, as on a kubelet built without that plugin.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from minikubelet.k8s_io.api.core.v1 import Pod, Volume
from minikubelet.k8s_io.kubernetes.pkg.volume.volume import Mounter, Unmounter


@dataclass(slots=True)
class Spec:
    """Go: pkg/volume/plugins.go type Spec

    Only pod volumes here (no PersistentVolume).
    """

    volume: Volume
    read_only: bool = False

    def name(self) -> str:
        """Go: pkg/volume/plugins.go (*Spec).Name"""
        # Go: case spec.Volume != nil:
        # Go omitted: case spec.PersistentVolume != nil: -- a Spec here is always a pod volume
        # Go omitted: default: -- a Spec here is always a pod volume
        return self.volume.name

    def source(self, kind: str) -> dict[str, Any] | None:
        """The settings of the volume if it is of ``kind`` (``"configMap"`` …), else ``None``.

        Go reads a pointer field of ``VolumeSource`` (``spec.Volume.ConfigMap != nil``).
        """
        return self.volume.volume_source.get(kind)


def new_spec_from_volume(vs: Volume) -> Spec:
    """Go: pkg/volume/plugins.go NewSpecFromVolume"""
    return Spec(volume=vs)


class FileSystem(Protocol):
    """Ours: the node's files as the plugins use them (Go's plugins call ``os`` directly).

    The simulated node's in-memory tree implements it (``minikubelet.sim.volume_fs``).
    """

    def is_dir(self, path: str) -> bool: ...

    def is_file(self, path: str) -> bool: ...

    def exists(self, path: str) -> bool: ...

    def mkdir_all(self, path: str) -> None: ...

    def create_file(self, path: str) -> None: ...

    def write_file(self, path: str, data: bytes) -> None: ...

    def remove_all(self, path: str) -> None: ...

    def list_dir(self, path: str) -> list[str]: ...

    def mount(self, path: str, fstype: str) -> None: ...

    def unmount(self, path: str) -> None: ...

    def mount_type(self, path: str) -> str | None: ...

    def statfs(self, path: str) -> Any: ...


class MountScript(Protocol):
    """Ours: how each SetUp and TearDown goes on the simulated node, which has no real mounts to
    be slow or to fail (``minikubelet.sim.volume_scenario`` reads it from the pod's annotation)."""

    async def play(self, pod: Pod, volume_name: str) -> None:
        """Take as long as one SetUp of the volume takes; raise what a failed mount raises."""
        ...

    def tear_down(self, pod_uid: str, volume_name: str) -> None:
        """Raise what a failed TearDown of the volume raises, if the script says it fails."""
        ...


class VolumeHost(Protocol):
    """What kubelet gives the plugins: where pod volumes live, the API objects, the node's files.

    Go: pkg/volume/plugins.go type VolumeHost

    ``fs`` and ``scenario`` are the port's: the filesystem the plugins write to and the script
    of slow and failing mounts, both handed down by the simulation.
    """

    @property
    def fs(self) -> FileSystem: ...

    @property
    def scenario(self) -> MountScript: ...

    def get_pod_volume_dir(self, pod_uid: str, plugin_name: str, volume_name: str) -> str:
        """Go: pkg/volume/plugins.go VolumeHost.GetPodVolumeDir"""
        ...

    def get_pod_plugin_dir(self, pod_uid: str, plugin_name: str) -> str:
        """Go: pkg/volume/plugins.go VolumeHost.GetPodPluginDir"""
        ...

    def get_kube_client(self) -> Any:
        """Go: pkg/volume/plugins.go VolumeHost.GetKubeClient"""
        ...

    def get_config_map_func(self) -> Callable[[str, str], Any]:
        """Go: pkg/volume/plugins.go VolumeHost.GetConfigMapFunc"""
        ...

    def get_secret_func(self) -> Callable[[str, str], Any]:
        """Go: pkg/volume/plugins.go VolumeHost.GetSecretFunc"""
        ...

    def get_service_account_token_func(self) -> Callable[[str, str], str]:
        """Go: pkg/volume/plugins.go VolumeHost.GetServiceAccountTokenFunc"""
        ...


class VolumePlugin(Protocol):
    """Go: pkg/volume/plugins.go type VolumePlugin"""

    def init(self, host: VolumeHost) -> None:
        """Go: pkg/volume/plugins.go VolumePlugin.Init"""
        ...

    def get_plugin_name(self) -> str:
        """Go: pkg/volume/plugins.go VolumePlugin.GetPluginName"""
        ...

    def can_support(self, spec: Spec) -> bool:
        """Go: pkg/volume/plugins.go VolumePlugin.CanSupport"""
        ...

    def requires_remount(self, spec: Spec) -> bool:
        """Go: pkg/volume/plugins.go VolumePlugin.RequiresRemount"""
        ...

    def new_mounter(self, spec: Spec, pod: Pod) -> Mounter:
        """Go: pkg/volume/plugins.go VolumePlugin.NewMounter"""
        ...

    def new_unmounter(self, vol_name: str, pod_uid: str) -> Unmounter:
        """Go: pkg/volume/plugins.go VolumePlugin.NewUnmounter"""
        ...


class VolumePluginMgr:
    """Go: pkg/volume/plugins.go type VolumePluginMgr"""

    def __init__(self) -> None:
        self.plugins: dict[str, VolumePlugin] = {}
        self.host: VolumeHost | None = None

    def init_plugins(self, plugins: list[VolumePlugin], host: VolumeHost) -> None:
        """Go: pkg/volume/plugins.go (*VolumePluginMgr).InitPlugins"""
        self.host = host
        for plugin in plugins:
            plugin.init(host)
            self.plugins[plugin.get_plugin_name()] = plugin

    def find_plugin_by_spec(self, spec: Spec | None) -> VolumePlugin:
        """The one plugin that supports ``spec``; raises ``ValueError`` with Go's message.

        Go: pkg/volume/plugins.go (*VolumePluginMgr).FindPluginBySpec
        """
        if spec is None:
            raise ValueError("Could not find plugin because volume spec is nil")
        matched = [p for p in self.plugins.values() if p.can_support(spec)]
        if len(matched) == 0:
            raise ValueError("no volume plugin matched")
        if len(matched) > 1:
            names = ",".join(p.get_plugin_name() for p in matched)
            raise ValueError(f"multiple volume plugins matched: {names}")
        return matched[0]
