"""Ours: the node's simulated cgroup file system, where kubelet's cgroup manager writes.

Not a port. On a real node kubelet (through runc's libcontainer) makes directories under
``/sys/fs/cgroup/<controller>/`` and writes numbers into their files: ``cpu.shares``,
``cpu.cfs_quota_us``, ``memory.limit_in_bytes``… Here the tree is one dictionary: a cgroup's
path, as kubelet's cgroup driver spells it (``/kubepods/burstable/pod<uid>``, or
``/kubepods.slice/…`` with the systemd driver), maps to the files kubelet wrote in it. One
tree stands for every controller (cgroup v1 keeps one per controller, with the same paths).
It starts with the root cgroup only. Each change is reported to a trace recording.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from minikubelet.base import trace

__all__ = ["SimCgroupFS"]


@dataclass
class SimCgroupFS:
    """Cgroups by path; each holds the files written in it (name → value)."""

    cgroups: dict[str, dict[str, int | str]] = field(default_factory=lambda: {"/": {}})

    def exists(self, path: str) -> bool:
        return posixpath.normpath(path) in self.cgroups

    def mkdir_all(self, path: str) -> None:
        """Make the cgroup and any missing parent, as libcontainer's ``Apply`` does."""
        path = posixpath.normpath(path)
        missing = []
        while path not in self.cgroups:
            missing.append(path)
            path = posixpath.dirname(path)
        for p in reversed(missing):
            self.cgroups[p] = {}
            trace.cgroup("mkdir", p, None)

    def write(self, path: str, files: dict[str, int | str]) -> None:
        """Write files of an existing cgroup; raises ``FileNotFoundError`` when it is missing
        (the kernel's ENOENT)."""
        path = posixpath.normpath(path)
        if path not in self.cgroups:
            raise FileNotFoundError(f"cgroup {path}: no such file or directory")
        self.cgroups[path].update(files)
        trace.cgroup("write", path, dict(files))

    def remove(self, path: str) -> None:
        """Remove the cgroup and the cgroups under it (libcontainer removes the children
        first); a missing one is no error, as in libcontainer."""
        path = posixpath.normpath(path)
        prefix = path.rstrip("/") + "/"
        gone = sorted((p for p in self.cgroups if p == path or p.startswith(prefix)), reverse=True)
        for p in gone:
            del self.cgroups[p]
            trace.cgroup("rmdir", p, None)

    def children(self, path: str) -> list[str]:
        """The names of the cgroups directly under ``path``, sorted."""
        prefix = posixpath.normpath(path).rstrip("/") + "/"
        return sorted(
            p[len(prefix) :]
            for p in self.cgroups
            if p.startswith(prefix) and p != prefix and "/" not in p[len(prefix) :]
        )

    def render(self, hide: tuple[str, ...] = ()) -> list[str]:
        """The tree, one cgroup a line, indented under its parent, with its files (but those
        whose names start with one of ``hide``)."""
        lines = []
        for path in sorted(self.cgroups, key=lambda p: p.split("/")):
            depth = 0 if path == "/" else path.count("/")
            name = path if path == "/" else posixpath.basename(path)
            files = " ".join(
                f"{k}={v}" for k, v in sorted(self.cgroups[path].items()) if not k.startswith(hide)
            )
            lines.append("  " * depth + name + (f"  {files}" if files else ""))
        return lines
