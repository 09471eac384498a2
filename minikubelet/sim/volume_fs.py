"""Ours: the node's simulated filesystem, where the volume plugins make their directories.

Not a port. Real volume plugins create directories under ``/var/lib/kubelet/pods/<uid>/volumes/``
and write files there (a configMap's keys, a token); hostPath looks at the host's own tree. Here
both are one in-memory tree: a path is a directory or a file (its bytes). It starts with the
directories a Linux node has (``/``, ``/etc``, ``/tmp``, ``/var/lib/kubelet``, ``/var/log``, …).
Reads and writes cost a dictionary lookup, so a reconciler that runs every 100 ms stays cheap.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

#: The directories the node starts with.
NODE_DIRS = (
    "/",
    "/etc",
    "/tmp",
    "/var",
    "/var/lib",
    "/var/lib/kubelet",
    "/var/lib/kubelet/pods",
    "/var/log",
    "/var/log/pods",
    "/run",
)


@dataclass
class SimFS:
    """Directories (a set) and files (path → bytes), with absolute, normalised paths."""

    dirs: set[str] = field(default_factory=lambda: set(NODE_DIRS))
    files: dict[str, bytes] = field(default_factory=dict)
    #: Mount points → their filesystem type (``tmpfs``): the node's mount table.
    mounts: dict[str, str] = field(default_factory=dict)

    def is_dir(self, path: str) -> bool:
        return posixpath.normpath(path) in self.dirs

    def is_file(self, path: str) -> bool:
        return posixpath.normpath(path) in self.files

    def exists(self, path: str) -> bool:
        return self.is_dir(path) or self.is_file(path)

    def mkdir_all(self, path: str) -> None:
        """Make ``path`` and its parents (``os.MkdirAll``); a file in the way fails as in Go."""
        path = posixpath.normpath(path)
        missing = []
        while path not in self.dirs:
            if path in self.files:
                raise PathError("mkdir", path, "not a directory")
            missing.append(path)
            path = posixpath.dirname(path)
        self.dirs.update(missing)

    def create_file(self, path: str) -> None:
        """Make an empty file unless ``path`` exists (``os.OpenFile`` with ``O_CREATE``): its
        directory must exist."""
        path = posixpath.normpath(path)
        if self.exists(path):
            return
        parent = posixpath.dirname(path)
        if parent in self.files:
            raise PathError("open", path, "not a directory")
        if parent not in self.dirs:
            raise PathError("open", path, "no such file or directory")
        self.files[path] = b""

    def write_file(self, path: str, data: bytes) -> None:
        path = posixpath.normpath(path)
        self.mkdir_all(posixpath.dirname(path))
        self.files[path] = data

    def remove_all(self, path: str) -> None:
        """Remove ``path`` and everything under it (``os.RemoveAll``)."""
        path = posixpath.normpath(path)
        prefix = path.rstrip("/") + "/"
        self.dirs = {d for d in self.dirs if d != path and not d.startswith(prefix)}
        self.files = {f: b for f, b in self.files.items() if f != path and not f.startswith(prefix)}

    def mount(self, path: str, fstype: str) -> None:
        """Mount a filesystem of ``fstype`` on directory ``path`` (``mount -t tmpfs``)."""
        self.mounts[posixpath.normpath(path)] = fstype

    def unmount(self, path: str) -> None:
        """Unmount ``path`` (``umount``); a path that is no mount point is left alone."""
        self.mounts.pop(posixpath.normpath(path), None)

    def mount_type(self, path: str) -> str | None:
        """The filesystem type mounted on ``path``, or None when it is no mount point."""
        return self.mounts.get(posixpath.normpath(path))

    def statfs(self, path: str) -> Statfs:
        """What statfs(2) says of the filesystem holding ``path``: a tmpfs mounted on it or
        above, else the node's disk."""
        path = posixpath.normpath(path)
        while True:
            if self.mounts.get(path) == "tmpfs":
                return TMPFS
            if path == "/":
                return DISK
            path = posixpath.dirname(path)

    def list_dir(self, path: str) -> list[str]:
        """The names directly in directory ``path``, sorted."""
        prefix = posixpath.normpath(path).rstrip("/") + "/"
        names = {
            p[len(prefix) :].split("/", 1)[0]
            for p in (*self.dirs, *self.files)
            if p.startswith(prefix) and p != prefix
        }
        return sorted(names)


class PathError(Exception):
    """A failed file operation, worded as Go's ``*os.PathError``: ``open /x/y: no such file or
    directory``."""

    def __init__(self, op: str, path: str, err: str) -> None:
        super().__init__(f"{op} {path}: {err}")


@dataclass(frozen=True)
class Statfs:
    """What statfs(2) returns, as Go's ``unix.Statfs_t`` holds it (printed by kubelet at -v 3).

    The numbers are the simulated node's: a 100 GiB ext4 disk, and 8 GiB tmpfs mounts.
    """

    type: int
    blocks: int
    bfree: int
    files: int
    ffree: int
    flags: int

    def go_fields(self) -> list[tuple[str, object]]:
        """The fields of ``unix.Statfs_t`` on linux/amd64, in Go's order."""
        return [
            ("Type", self.type),
            ("Bsize", 4096),
            ("Blocks", self.blocks),
            ("Bfree", self.bfree),
            ("Bavail", self.bfree),
            ("Files", self.files),
            ("Ffree", self.ffree),
            ("Fsid", _Fsid()),
            ("Namelen", 255),
            ("Frsize", 4096),
            ("Flags", self.flags),
            ("Spare", [0, 0, 0, 0]),
        ]


@dataclass(frozen=True)
class _Fsid:
    """Go: unix.Fsid: ``{Val:[0 0]}``."""

    def go_fields(self) -> list[tuple[str, object]]:
        return [("Val", [0, 0])]


#: The node's disk (ext4: magic 0xEF53) and a tmpfs (0x01021994), as statfs describes them.
DISK = Statfs(
    type=0xEF53, blocks=26214400, bfree=20971520, files=6553600, ffree=6400000, flags=4128
)
TMPFS = Statfs(
    type=0x01021994, blocks=2097152, bfree=2097152, files=2041281, ffree=2041280, flags=4134
)
