"""Watching the node's cgroup tree on the port's whole kubelet: each cgroup made, written, removed.

Chapter 13's example prints each change of the tree as it happens (:func:`watch_cgroups` with a
printer); its exercises' checks run a scenario with :func:`run_cgroups` and look at the record
and at the tree the run left.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minikubelet.kubelet import Kubelet
from walkthrough.ch06.syncs import Run, now, run_syncs

#: The API scripts the exercises run (``qos-pods``, ``limits``, ``delete``, …).
SCRIPTS = Path(__file__).with_name("scripts")

#: The files a reader follows; the huge page limits kubelet writes beside them are left out.
SHOWN = ("cpu.shares", "cpu.cfs_quota_us", "cpu.cfs_period_us", "memory.limit_in_bytes")


@dataclass(frozen=True)
class Change:
    """One change of the tree: ``op`` is ``mkdir``, ``write`` (``files`` written) or ``rmdir``;
    in a record of :func:`run_cgroups`, also ``runtime``: the runtime's SyncPod was called for
    the pod named ``path`` (so that a check can tell what came first)."""

    at: float
    op: str
    path: str
    files: dict[str, int | str] = field(default_factory=dict)


@dataclass
class Tree:
    """A run's record: the tree's changes in order, the tree at the end, and what ``run_syncs``
    records besides (syncs, container starts, events, statuses)."""

    changes: list[Change] = field(default_factory=list)
    final: dict[str, dict[str, int | str]] = field(default_factory=dict)
    run: Run | None = None

    def of(self, op: str, path: str | None = None) -> list[Change]:
        return [c for c in self.changes if c.op == op and (path is None or c.path == path)]

    def pod_cgroup(self, uid: str) -> str | None:
        """The path of the cgroup made for the pod of ``uid`` (the first one), or None."""
        made = [c.path for c in self.of("mkdir") if c.path.endswith("/pod" + uid)]
        return made[0] if made else None

    def written(self, path: str) -> dict[str, int | str]:
        """Every file written in ``path`` during the run, with its last value."""
        files: dict[str, int | str] = {}
        for c in self.of("write", path):
            files.update(c.files)
        return files


def watch_cgroups(kl: Kubelet, on_change: Callable[[Change], None]) -> None:
    """Call ``on_change`` with each change of ``kl``'s cgroup tree (which works as before)."""
    fs: Any = kl.container_manager.subsystems
    mkdir_all, write, remove = fs.mkdir_all, fs.write, fs.remove

    def made(path: str) -> None:
        before = set(fs.cgroups)
        mkdir_all(path)
        for p in sorted(set(fs.cgroups) - before, key=len):
            on_change(Change(now(), "mkdir", p))

    def wrote(path: str, files: dict[str, int | str]) -> None:
        write(path, files)
        on_change(Change(now(), "write", path, dict(files)))

    def removed(path: str) -> None:
        before = set(fs.cgroups)
        remove(path)
        for p in sorted(before - set(fs.cgroups), key=len, reverse=True):
            on_change(Change(now(), "rmdir", p))

    fs.mkdir_all, fs.write, fs.remove = made, wrote, removed


def run_cgroups(
    script: str, *, until: float, setup: Callable[[Kubelet], None] | None = None
) -> Tree:
    """Run the kubelet on the API script ``scripts/<script>.yaml`` for ``until`` virtual
    seconds, recording every change of the node's cgroup tree (and the syncs, starts, events
    and statuses); ``setup(kl)`` may change the kubelet before it runs."""
    tree = Tree()

    def prepare(kl: Kubelet) -> None:
        watch_cgroups(kl, tree.changes.append)
        runtime: Any = kl.container_runtime
        sync_pod = runtime.sync_pod

        async def synced(pod: Any, *args: Any) -> Any:
            tree.changes.append(Change(now(), "runtime", pod.metadata.name))
            return await sync_pod(pod, *args)

        runtime.sync_pod = synced
        if setup is not None:
            setup(kl)

    tree.run = run_syncs((SCRIPTS / f"{script}.yaml").read_text(), until=until, setup=prepare)
    assert tree.run.kubelet is not None
    fs: Any = tree.run.kubelet.container_manager.subsystems
    tree.final = {path: dict(files) for path, files in fs.cgroups.items()}
    return tree


def shown(files: dict[str, int | str]) -> str:
    """The files a reader follows, ``cpu.shares=256 memory.limit_in_bytes=134217728``."""
    return " ".join(f"{k}={files[k]}" for k in SHOWN if k in files)
