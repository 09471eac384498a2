"""Ours: the node's simulated filesystem, where the volume plugins make their directories.

Not a port. Real volume plugins create directories under ``/var/lib/kubelet/pods/<uid>/volumes/``
and write files there (a configMap's keys, a token); hostPath looks at the host's own tree. Here
both are one in-memory tree: a path is a directory or a file (its bytes). It starts with the
directories a Linux node has (``/``, ``/etc``, ``/tmp``, ``/var/lib/kubelet``, ``/var/log``, …).
Reads and writes cost a dictionary lookup, so a reconciler that runs every 100 ms stays cheap.
"""

from __future__ import annotations

import errno
import os
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

    def is_dir(self, path: str) -> bool:
        return posixpath.normpath(path) in self.dirs

    def is_file(self, path: str) -> bool:
        return posixpath.normpath(path) in self.files

    def exists(self, path: str) -> bool:
        return self.is_dir(path) or self.is_file(path)

    def mkdir_all(self, path: str) -> None:
        """Make ``path`` and its parents (``os.MkdirAll``)."""
        path = posixpath.normpath(path)
        while path not in self.dirs:
            self.dirs.add(path)
            path = posixpath.dirname(path)

    def write_file(self, path: str, data: bytes) -> None:
        path = posixpath.normpath(path)
        self.mkdir_all(posixpath.dirname(path))
        self.files[path] = data

    def remove(self, path: str) -> None:
        """Remove a file or an empty directory (``os.Remove``)."""
        path = posixpath.normpath(path)
        if path in self.files:
            del self.files[path]
            return
        self._rmdir(path, "remove")

    def rmdir(self, path: str) -> None:
        """Remove an empty directory (``syscall.Rmdir``): not a file, not one with something
        in it."""
        self._rmdir(posixpath.normpath(path), "")

    def _rmdir(self, path: str, op: str) -> None:
        if path in self.files:
            raise SyscallError(errno.ENOTDIR, op, path)
        if path not in self.dirs:
            raise SyscallError(errno.ENOENT, op, path)
        if self.list_dir(path):
            raise SyscallError(errno.ENOTEMPTY, op, path)
        self.dirs.discard(path)

    def is_likely_not_mount_point(self, path: str) -> bool:
        """Whether ``path`` is no mount point (k8s.io/mount-utils ``IsLikelyNotMountPoint``);
        raises as a stat of a missing path does."""
        path = posixpath.normpath(path)
        if not self.exists(path):
            raise SyscallError(errno.ENOENT, "lstat", path)
        return True

    def remove_all(self, path: str) -> None:
        """Remove ``path`` and everything under it (``os.RemoveAll``)."""
        path = posixpath.normpath(path)
        prefix = path.rstrip("/") + "/"
        self.dirs = {d for d in self.dirs if d != path and not d.startswith(prefix)}
        self.files = {f: b for f, b in self.files.items() if f != path and not f.startswith(prefix)}

    def list_dir(self, path: str) -> list[str]:
        """The names directly in directory ``path``, sorted."""
        prefix = posixpath.normpath(path).rstrip("/") + "/"
        names = {
            p[len(prefix) :].split("/", 1)[0]
            for p in (*self.dirs, *self.files)
            if p.startswith(prefix) and p != prefix
        }
        return sorted(names)


class SyscallError(OSError):
    """A failed system call, printed as Go prints it: the call's own text (``directory not
    empty``) from package syscall, or ``remove /x/y: directory not empty`` (an ``*os.PathError``)
    from package os when ``op`` is given. ``errno`` is the code, as for any ``OSError``."""

    def __init__(self, code: int, op: str, path: str) -> None:
        text = os.strerror(code)
        super().__init__(code, text[:1].lower() + text[1:], path)
        self.op = op

    def __str__(self) -> str:
        return f"{self.op} {self.filename}: {self.strerror}" if self.op else str(self.strerror)
