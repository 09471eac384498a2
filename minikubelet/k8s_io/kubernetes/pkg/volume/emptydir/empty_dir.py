"""The emptyDir plugin: a fresh directory per pod, on the node's disk or in memory.

Go: pkg/volume/emptydir/empty_dir.go

The directory is made in the simulated filesystem; ``medium: Memory`` (tmpfs in Go) is a
directory there too. configMap, secret and projected volumes wrap this plugin, as in Go.
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import Spec, VolumeHost, VolumePlugin

#: Go: emptyDirPluginName
emptyDirPluginName = "kubernetes.io/empty-dir"


def probe_volume_plugins() -> list[VolumePlugin]:
    """Go: pkg/volume/emptydir/empty_dir.go ProbeVolumePlugins"""
    return [EmptyDirPlugin()]


def get_path(host: VolumeHost, uid: str, vol_name: str, plugin_name: str) -> str:
    """``<root>/pods/<uid>/volumes/<plugin, / as ~>/<name>``.

    Go: pkg/volume/emptydir/empty_dir.go getPath
    """
    return host.get_pod_volume_dir(uid, plugin_name.replace("/", "~"), vol_name)


class EmptyDirPlugin:
    """Go: pkg/volume/emptydir/empty_dir.go type emptyDirPlugin"""

    host: VolumeHost

    def init(self, host: VolumeHost) -> None:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDirPlugin).Init"""
        self.host = host

    def get_plugin_name(self) -> str:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDirPlugin).GetPluginName"""
        return emptyDirPluginName

    def can_support(self, spec: Spec) -> bool:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDirPlugin).CanSupport"""
        return spec.source("emptyDir") is not None

    def requires_remount(self, spec: Spec) -> bool:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDirPlugin).RequiresRemount"""
        return False

    def new_mounter(self, spec: Spec, pod: Pod) -> EmptyDir:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDirPlugin).NewMounter"""
        medium = (spec.source("emptyDir") or {}).get("medium", "")
        return EmptyDir(pod, spec.name(), medium, self)

    def new_unmounter(self, vol_name: str, pod_uid: str) -> EmptyDir:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDirPlugin).NewUnmounter"""
        return EmptyDir(None, vol_name, "", self, pod_uid)


class EmptyDir:
    """Go: pkg/volume/emptydir/empty_dir.go type emptyDir"""

    def __init__(
        self,
        pod: Pod | None,
        vol_name: str,
        medium: str,
        plugin: EmptyDirPlugin,
        pod_uid: str = "",
    ) -> None:
        self.pod = pod
        self.vol_name = vol_name
        self.medium = medium
        self.plugin = plugin
        self.pod_uid = pod.metadata.uid if pod is not None else pod_uid

    def get_path(self) -> str:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).GetPath"""
        return get_path(self.plugin.host, self.pod_uid, self.vol_name, emptyDirPluginName)

    async def set_up(self) -> None:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).SetUp"""
        assert self.pod is not None
        await self.plugin.host.scenario.play(self.pod, self.vol_name)
        self.set_up_at(self.get_path())

    def set_up_at(self, dir: str) -> None:
        """Make the directory; a medium the port does not know fails as in Go.

        Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).SetUpAt
        """
        fs = self.plugin.host.fs
        # Go: case ed.medium == v1.StorageMediumDefault:
        # Go: case ed.medium == v1.StorageMediumMemory:
        # Go: case v1helper.IsHugePageMedium(ed.medium):
        if self.medium in ("", "Memory") or self.medium.startswith("HugePages"):
            fs.mkdir_all(dir)
        # Go: default:
        else:
            raise ValueError(f'unknown storage medium "{self.medium}"')

    def tear_down(self) -> None:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).TearDown"""
        # Ours: the scenario may make the removal fail, as a busy mount makes it fail on a node.
        self.plugin.host.scenario.tear_down(self.pod_uid, self.vol_name)
        self.plugin.host.fs.remove_all(self.get_path())
