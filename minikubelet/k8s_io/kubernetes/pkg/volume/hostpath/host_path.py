"""The hostPath plugin: a directory or file of the node itself, checked by its ``type``.

Go: pkg/volume/hostpath/host_path.go

Nothing is mounted: the volume's path is the host path. SetUp only checks the path against
the volume's ``type`` (``Directory``, ``FileOrCreate`` …), on the simulated filesystem; with no
``type`` nothing is checked, and a path that does not exist is the runtime's to create.
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import (
    FileSystem,
    Spec,
    VolumeHost,
    VolumePlugin,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.volume import MounterArgs

#: Go: hostPathPluginName
hostPathPluginName = "kubernetes.io/host-path"


def probe_volume_plugins() -> list[VolumePlugin]:
    """Go: pkg/volume/hostpath/host_path.go ProbeVolumePlugins"""
    return [HostPathPlugin()]


class HostPathPlugin:
    """Go: pkg/volume/hostpath/host_path.go type hostPathPlugin"""

    host: VolumeHost

    def init(self, host: VolumeHost) -> None:
        """Go: pkg/volume/hostpath/host_path.go (*hostPathPlugin).Init"""
        self.host = host

    def get_plugin_name(self) -> str:
        """Go: pkg/volume/hostpath/host_path.go (*hostPathPlugin).GetPluginName"""
        return hostPathPluginName

    def can_support(self, spec: Spec) -> bool:
        """Go: pkg/volume/hostpath/host_path.go (*hostPathPlugin).CanSupport"""
        return spec.source("hostPath") is not None

    def requires_remount(self, spec: Spec) -> bool:
        """Go: pkg/volume/hostpath/host_path.go (*hostPathPlugin).RequiresRemount"""
        return False

    def new_mounter(self, spec: Spec, pod: Pod) -> HostPathMounter:
        """Go: pkg/volume/hostpath/host_path.go (*hostPathPlugin).NewMounter"""
        source = spec.source("hostPath") or {}
        return HostPathMounter(
            pod, spec.name(), source.get("path", ""), source.get("type", ""), self.host
        )

    def new_unmounter(self, vol_name: str, pod_uid: str) -> HostPathMounter:
        """Go: pkg/volume/hostpath/host_path.go (*hostPathPlugin).NewUnmounter"""
        return HostPathMounter(None, vol_name, "", "", self.host)


class HostPathMounter:
    """Go: pkg/volume/hostpath/host_path.go type hostPathMounter"""

    def __init__(
        self, pod: Pod | None, vol_name: str, path: str, path_type: str, host: VolumeHost
    ) -> None:
        self.pod = pod
        self.vol_name = vol_name
        self.path = path
        self.path_type = path_type
        self.host = host

    def get_path(self) -> str:
        """Go: pkg/volume/hostpath/host_path.go (*hostPath).GetPath"""
        return self.path

    async def set_up(self, mounter_args: MounterArgs) -> None:
        """Go: pkg/volume/hostpath/host_path.go (*hostPathMounter).SetUp"""
        assert self.pod is not None
        # Ours: the run's mount script may make this SetUp slow, or fail it.
        await self.host.scenario.play(self.pod, self.vol_name)
        # Go first validates the path (no ".." parts): the API server has already refused one.
        if self.path_type == "":
            return
        check_type_internal(self.host.fs, self.get_path(), self.path_type)

    def tear_down(self) -> None:
        """Nothing to undo: the host's files stay.

        Go: pkg/volume/hostpath/host_path.go (*hostPathUnmounter).TearDown
        """


def check_type_internal(fs: FileSystem, path: str, path_type: str) -> None:
    """Raise Go's error when ``path`` is not what ``path_type`` asks; make it for ``…OrCreate``.

    Go: pkg/volume/hostpath/host_path.go checkTypeInternal

    ``fs`` is the node's filesystem (Go's ``hostPathTypeChecker`` over the host's files). As
    in Go, ``DirectoryOrCreate`` makes the parents too (``os.MkdirAll``), but ``FileOrCreate``
    does not: a file whose directory is missing fails with ``open <path>: no such file or
    directory``.
    """
    match path_type:
        # Go: case v1.HostPathDirectoryOrCreate:
        # Go: case v1.HostPathDirectory:
        case "DirectoryOrCreate" | "Directory":
            if path_type == "DirectoryOrCreate" and not fs.exists(path):
                fs.mkdir_all(path)
                return
            if not fs.is_dir(path):
                raise ValueError(f"hostPath type check failed: {path} is not a directory")
        # Go: case v1.HostPathFileOrCreate:
        # Go: case v1.HostPathFile:
        case "FileOrCreate" | "File":
            if path_type == "FileOrCreate" and not fs.exists(path):
                fs.create_file(path)
                return
            if not fs.is_file(path):
                raise ValueError(f"hostPath type check failed: {path} is not a file")
        # Go: case v1.HostPathSocket:
        case "Socket":
            raise ValueError(f"hostPath type check failed: {path} is not a socket file")
        # Go: case v1.HostPathCharDev:
        case "CharDevice":
            raise ValueError(f"hostPath type check failed: {path} is not a character device")
        # Go: case v1.HostPathBlockDev:
        case "BlockDevice":
            raise ValueError(f"hostPath type check failed: {path} is not a block device")
        # Go: default:
        case _:
            raise ValueError(f"{path_type} is an invalid volume type")
