"""What a plugin hands the operation executor to mount and unmount one volume of one pod.

Go: pkg/volume/volume.go
"""

from __future__ import annotations

from typing import Protocol


class Mounter(Protocol):
    """Go: pkg/volume/volume.go type Mounter"""

    def get_path(self) -> str:
        """Go: pkg/volume/volume.go Volume.GetPath"""
        ...

    async def set_up(self) -> None:
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
