"""What kubelet asks of the node's mounts.

Go: staging/src/k8s.io/mount-utils/mount.go

kubelet is handed a mounter by its command line (``kubeDeps.Mounter``); the port is handed the
simulated node's files, which keep the mount table (``minikubelet.sim.volume_fs``).
"""

from __future__ import annotations

from typing import Protocol


class Interface(Protocol):
    """The part of Go's mount ``Interface`` the port uses.

    Go: staging/src/k8s.io/mount-utils/mount.go type Interface
    """

    def is_likely_not_mount_point(self, file: str) -> bool:
        """Whether ``file`` is no mount point; raises when it cannot be looked at.

        Go: staging/src/k8s.io/mount-utils/mount.go Interface.IsLikelyNotMountPoint
        """
        ...
