"""A directory watcher with fsnotify's interface, built on polling.

Stands in for github.com/fsnotify/fsnotify, which kubelet's file source uses on Linux (through
inotify). A goroutine compares the directory with its last snapshot once per
``watchPollPeriod`` of the runtime's clock and sends an [`Event`][] for each file that
appeared (Create), changed (Write), was renamed (Rename) or disappeared (Remove) on
``Watcher.events``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from minikubelet.sim.go import Chan, Second, after, go, make_chan, recv, select, send

#: How often the directory is compared with its last snapshot.
watchPollPeriod = 1 * Second

# The operations, as fsnotify's bit flags.
Create = 1
Write = 2
Remove = 4
Rename = 8
Chmod = 16

_OP_NAMES = {Create: "CREATE", Write: "WRITE", Remove: "REMOVE", Rename: "RENAME", Chmod: "CHMOD"}


@dataclass(frozen=True)
class Event:
    """One change: the file's path and what happened to it (fsnotify's Event)."""

    name: str
    op: int

    def __str__(self) -> str:
        ops = "|".join(n for bit, n in _OP_NAMES.items() if self.op & bit)
        return f'"{self.name}": {ops}'


Snapshot = dict[str, tuple[int, int, int]]


def snapshot(path: str) -> Snapshot:
    """Each entry of a directory with its inode, size and modification time.

    A symlink that cannot be followed (dangling, or a loop) is recorded as itself: inotify
    reports changes to directory entries and never follows links.
    """
    result: Snapshot = {}
    for entry in os.scandir(path):
        try:
            try:
                st = entry.stat()
            except OSError:
                st = entry.stat(follow_symlinks=False)
        except FileNotFoundError:
            continue
        result[entry.path] = (st.st_ino, st.st_size, st.st_mtime_ns)
    return result


def changes(before: Snapshot, after: Snapshot) -> list[Event]:
    """The events inotify would have sent for the difference between two snapshots.

    A poll cannot see in which order things happened; it reports what left the directory
    first, as inotify does for a rename (``IN_MOVED_FROM`` before ``IN_MOVED_TO``), so that a
    manifest renamed, or an editor's file renamed over it, is removed before it is added again
    and never the other way round. A file whose inode now lives under another name was renamed
    (Rename, then Create for the new name, as fsnotify reports a move within the directory).
    """
    inodes_after = {stat[0]: name for name, stat in after.items()}
    renamed_to: set[str] = set()
    events: list[Event] = []
    for name in sorted(before.keys() - after.keys()):
        target = inodes_after.get(before[name][0])
        if target is not None and target != name:
            renamed_to.add(target)
            events.append(Event(name, Rename))
        else:
            events.append(Event(name, Remove))
    for name in sorted(after):
        if name not in before or name in renamed_to:
            events.append(Event(name, Create))
        elif after[name] != before[name]:
            events.append(Event(name, Write))
    return events


class Watcher:
    """Watches directories for changes (fsnotify's Watcher)."""

    def __init__(self) -> None:
        self.events: Chan[Event] = make_chan(0, name="fsnotify.Events")
        self.errors: Chan[Exception] = make_chan(0, name="fsnotify.Errors")
        self._done: Chan[None] = make_chan(0, name="fsnotify.done")

    def add(self, path: str) -> None:
        """Start watching ``path`` (a directory). Raises OSError if it cannot be read."""
        before = snapshot(path)
        go(self._poll, path, before, name=f"fsnotify.poll({path})")

    async def _deliver(self, ch: Chan[Any], value: Any) -> bool:
        """Send ``value`` unless the watcher is closed first; False once it is closed."""
        chosen, _ = await select(send(ch, value), recv(self._done))
        return chosen == 0

    async def _poll(self, path: str, before: Snapshot) -> None:
        while True:
            chosen, _ = await select(recv(after(watchPollPeriod)), recv(self._done))
            if chosen == 1:
                return
            try:
                now_ = snapshot(path)
            except OSError as err:
                await self._deliver(self.errors, err)
                return
            events = changes(before, now_)
            for event in events:
                if not await self._deliver(self.events, event):
                    return
            before = now_

    def close(self) -> None:
        """Stop watching: every polling goroutine returns at once."""
        self._done.close()
