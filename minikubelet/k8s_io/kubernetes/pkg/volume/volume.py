"""What a plugin hands the operation executor to mount and unmount one volume of one pod.

Go: pkg/volume/volume.go
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity


@dataclass(frozen=True)
class MounterArgs:
    """Go: pkg/volume/volume.go type MounterArgs

    Only the size is ported: the pods here have no fsUser, fsGroup nor change policy.
    """

    #: The size limit of a local ephemeral volume (emptyDir on disk, configMap), else None.
    desired_size: Quantity | None = None


class Mounter(Protocol):
    """Go: pkg/volume/volume.go type Mounter"""

    def get_path(self) -> str:
        """Go: pkg/volume/volume.go Volume.GetPath"""
        ...

    async def set_up(self, mounter_args: MounterArgs) -> None:
        """Make the volume ready at ``get_path()``; raises on failure.

        Go: pkg/volume/volume.go Mounter.SetUp
        """
        ...


class Unmounter(Protocol):
    """Go: pkg/volume/volume.go type Unmounter"""

    def get_path(self) -> str:
        """Go: pkg/volume/volume.go Volume.GetPath"""
        ...

    def tear_down(self) -> None:
        """Go: pkg/volume/volume.go Unmounter.TearDown"""
        ...
