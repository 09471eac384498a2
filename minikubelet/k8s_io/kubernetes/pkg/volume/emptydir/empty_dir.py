"""The emptyDir plugin: a fresh directory per pod, on the node's disk or in memory.

Go: pkg/volume/emptydir/empty_dir.go

The directory is made in the simulated filesystem; ``medium: Memory`` (tmpfs in Go) is a
directory there too. configMap, secret and projected volumes wrap this plugin, as in Go.
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.volume.emptydir.empty_dir_linux import RealMountDetector
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import Spec, VolumeHost, VolumePlugin
from minikubelet.k8s_io.kubernetes.pkg.volume.util.fsquota.quota_linux import (
    clear_quota,
    supports_quotas,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.util.util import is_ready, set_ready
from minikubelet.k8s_io.kubernetes.pkg.volume.volume import MounterArgs

#: Go: emptyDirPluginName
emptyDirPluginName = "kubernetes.io/empty-dir"

#: Go: v1.StorageMediumDefault, v1.StorageMediumMemory, v1.StorageMediumHugePages (the prefix
#: of ``HugePages-2Mi`` too)
StorageMediumDefault = ""
StorageMediumMemory = "Memory"
StorageMediumHugePages = "HugePages"


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

    async def set_up(self, mounter_args: MounterArgs) -> None:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).SetUp"""
        assert self.pod is not None
        # Ours: the run's mount script may make this SetUp slow, or fail it.
        await self.plugin.host.scenario.play(self.pod, self.vol_name)
        self.set_up_at(self.get_path(), mounter_args)

    def set_up_at(self, dir: str, mounter_args: MounterArgs) -> None:
        """Make the directory (and mount a tmpfs on it for ``medium: Memory``), unless an earlier
        SetUp left it ready; a medium the port does not know fails as in Go.

        Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).SetUpAt
        """
        fs = self.plugin.host.fs
        not_mnt = fs.mount_type(dir) is None
        ready_dir = self.get_meta_dir()
        # Go: if volumeutil.IsReady(readyDir) {
        if is_ready(fs, ready_dir):
            if self.medium == StorageMediumMemory and not not_mnt:
                return
            elif self.medium == StorageMediumDefault:
                if fs.exists(dir):
                    return
                klog.warningf(
                    "volume ready file dir %s exist, but volume dir %s does not. Remove ready dir",
                    ready_dir,
                    dir,
                )
                fs.remove_all(ready_dir)

        err: Exception | None = None
        try:
            # Go: case ed.medium == v1.StorageMediumDefault:
            if self.medium == StorageMediumDefault:
                self.setup_dir(dir)
            # Go: case ed.medium == v1.StorageMediumMemory:
            elif self.medium == StorageMediumMemory:
                self.setup_tmpfs(dir)
            # Go: case v1helper.IsHugePageMedium(ed.medium):
            elif self.medium.startswith(StorageMediumHugePages):
                # The simulated node has no huge pages to mount (Go mounts a hugetlbfs).
                self.setup_dir(dir)
            # Go: default:
            else:
                raise ValueError(f'unknown storage medium "{self.medium}"')
        except Exception as setup_err:
            err = setup_err

        # Go's SetVolumeOwnership has nothing to do: no pod here asks for an fsGroup.
        if err is None:
            set_ready(fs, self.get_meta_dir())
            if mounter_args.desired_size is not None:
                has_quotas, quota_err = supports_quotas(fs, dir)
                if quota_err is not None:
                    klog.v(3).infof("Unable to check for quota support on %s: %s", dir, quota_err)
                # Go omitted: if hasQuotas { -- quotas are off in v1.21 (fsquota): never true
                assert not has_quotas
        if err is not None:
            raise err

    def setup_dir(self, dir: str) -> None:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).setupDir

        Go then checks the directory's permission bits; the simulated files have none.
        """
        self.plugin.host.fs.mkdir_all(dir)

    def setup_tmpfs(self, dir: str) -> None:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).setupTmpfs"""
        assert self.pod is not None
        self.setup_dir(dir)
        fs = self.plugin.host.fs
        medium, is_mnt = RealMountDetector(fs).get_mount_medium(dir, self.medium)
        if is_mnt and medium == StorageMediumMemory:
            return
        klog.v(3).infof(
            "pod %v: mounting tmpfs for volume %v", self.pod.metadata.uid, self.vol_name
        )
        fs.mount(dir, "tmpfs")

    def get_meta_dir(self) -> str:
        """Where the ``ready`` file of the volume is: the pod's plugin directory.

        Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).getMetaDir
        """
        plugin_dir = self.plugin.host.get_pod_plugin_dir(
            self.pod_uid, emptyDirPluginName.replace("/", "~")
        )
        return f"{plugin_dir}/{self.vol_name}"

    def tear_down(self) -> None:
        """Remove the ready file, unmount a tmpfs, remove the directory.

        Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).TearDown
        """
        # Ours: the scenario may make the removal fail, as a busy mount makes it fail on a node.
        self.plugin.host.scenario.tear_down(self.pod_uid, self.vol_name)
        self.tear_down_at(self.get_path())

    def tear_down_at(self, dir: str) -> None:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).TearDownAt"""
        fs = self.plugin.host.fs
        fs.remove_all(self.get_meta_dir())
        if not fs.exists(dir):
            klog.warningf("Warning: Unmount skipped because path does not exist: %v", dir)
            return
        medium, is_mnt = RealMountDetector(fs).get_mount_medium(dir, self.medium)
        # Go: if isMnt {
        if is_mnt:
            # Go: if medium == v1.StorageMediumMemory {
            if medium == StorageMediumMemory:
                self.medium = StorageMediumMemory
                self.teardown_tmpfs_or_hugetlbfs(dir)
                return
            # Go omitted: if medium == v1.StorageMediumHugePages { -- the simulated node mounts no hugetlbfs
        self.teardown_default(dir)

    def teardown_default(self, dir: str) -> None:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).teardownDefault"""
        err = clear_quota(self.plugin.host.fs, dir)
        if err is not None:
            klog.warningf("Warning: Failed to clear quota on %s: %v", dir, err)
        self.plugin.host.fs.remove_all(dir)

    def teardown_tmpfs_or_hugetlbfs(self, dir: str) -> None:
        """Go: pkg/volume/emptydir/empty_dir.go (*emptyDir).teardownTmpfsOrHugetlbfs"""
        self.plugin.host.fs.unmount(dir)
        self.plugin.host.fs.remove_all(dir)
