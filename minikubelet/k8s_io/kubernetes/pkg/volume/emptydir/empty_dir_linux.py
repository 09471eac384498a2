"""What is mounted on an emptyDir's directory: statfs(2) tells tmpfs from the node's disk.

Go: pkg/volume/emptydir/empty_dir_linux.go

kubelet asks before it mounts a tmpfs (a SetUp done before leaves one there) and before it
tears an emptyDir down (a tmpfs is unmounted, a directory on disk removed). It logs what statfs
said at ``-v 3``; here the simulated node's filesystem answers.
"""

from __future__ import annotations

from minikubelet.go import fmt as go_fmt
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import FileSystem

#: Go: linuxTmpfsMagic
linuxTmpfsMagic = 0x01021994
#: Go: linuxHugetlbfsMagic
linuxHugetlbfsMagic = 0x958458F6


class RealMountDetector:
    """Go: pkg/volume/emptydir/empty_dir_linux.go type realMountDetector

    Go's holds the mounter and calls the kernel; the port's asks the node's filesystem both.
    """

    def __init__(self, fs: FileSystem) -> None:
        self.fs = fs

    def get_mount_medium(self, path: str, requested_medium: str) -> tuple[str, bool]:
        """(the medium mounted on ``path``, whether ``path`` is a mount point).

        Go: pkg/volume/emptydir/empty_dir_linux.go (*realMountDetector).GetMountMedium

        Go also returns the page size of a hugetlbfs; the simulated node mounts none.
        """
        klog.v(5).infof("Determining mount medium of %v", path)
        not_mnt = self.fs.mount_type(path) is None
        buf = self.fs.statfs(path)
        klog.v(3).infof("Statfs_t of %v: %s", path, go_fmt.sprintf("%+v", buf))
        # Go: if buf.Type == linuxTmpfsMagic {
        if buf.type == linuxTmpfsMagic:
            return "Memory", not not_mnt
        # Go omitted: if int64(buf.Type) == linuxHugetlbfsMagic { -- the simulated node mounts no hugetlbfs
        return "", not not_mnt
