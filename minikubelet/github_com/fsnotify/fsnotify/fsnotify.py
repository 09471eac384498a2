"""A directory watcher with fsnotify's interface, built on polling.

Stands in for github.com/fsnotify/fsnotify, which kubelet's file source uses on Linux (through
inotify). A goroutine compares the directory with its last snapshot once per
``watchPollPeriod`` of the runtime's clock and sends an [`Event`][] for each file that
appeared (Create), changed (Write), was renamed (Rename) or disappeared (Remove) on
``Watcher.events``.

On Linux, an inotify descriptor (the one fsnotify itself would read) tells each poll whether
anything in the directory changed since the last one; when nothing did, the poll does not
``stat`` every file again, since the comparison would find nothing ([`InotifyGate`][], ours).
A directory holding anything but plain files is compared every time: a symlink's target, or a
subdirectory's entries, can change without an event in the watched directory. The kernel queues an event during the call that changed the file, so a
change made before a poll is seen by that poll, under the virtual clock as under the real one.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from dataclasses import dataclass
from typing import Any

from minikubelet.go import Chan, Second, after, go, make_chan, recv, select, send

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


#: Each entry: (inode, size, modification time, is a plain file).
Snapshot = dict[str, tuple[int, int, int, bool]]


def snapshot(path: str) -> Snapshot:
    """Each entry of a directory with its inode, size, modification time, and whether it is a
    plain file (not a symlink, a directory, a FIFO …).

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
            plain = entry.is_file(follow_symlinks=False)
        except FileNotFoundError:
            continue
        result[entry.path] = (st.st_ino, st.st_size, st.st_mtime_ns, plain)
    return result


# inotify(7): what changes a directory entry or a file's contents, size or times.
_IN_MASK = (
    0x002  # IN_MODIFY
    | 0x004  # IN_ATTRIB
    | 0x008  # IN_CLOSE_WRITE
    | 0x040  # IN_MOVED_FROM
    | 0x080  # IN_MOVED_TO
    | 0x100  # IN_CREATE
    | 0x200  # IN_DELETE
    | 0x400  # IN_DELETE_SELF
    | 0x800  # IN_MOVE_SELF
)
_IN_NONBLOCK_CLOEXEC = os.O_NONBLOCK | os.O_CLOEXEC


class InotifyGate:
    """Ours: whether a watched directory may have changed since the last question.

    Reads (and discards) the events an inotify descriptor queued; any event at all, a full
    queue, or a descriptor that cannot be made means "maybe", and the caller compares the
    directory as before. Only "certainly not" saves the comparison.
    """

    def __init__(self, path: str) -> None:
        self.fd = -1
        libc = _libc()
        if libc is None:
            return
        fd = libc.inotify_init1(_IN_NONBLOCK_CLOEXEC)
        if fd < 0:
            return
        if libc.inotify_add_watch(fd, os.fsencode(path), _IN_MASK) < 0:
            os.close(fd)
            return
        self.fd = fd

    def maybe_changed(self) -> bool:
        """True unless inotify is certain that nothing changed since the last call."""
        if self.fd < 0:
            return True
        changed = False
        while True:
            try:
                if not os.read(self.fd, 65536):
                    return True
            except BlockingIOError:
                return changed
            except OSError:
                return True
            changed = True

    def close(self) -> None:
        """Release the descriptor."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _libc() -> Any:
    """The C library, if it has inotify (Linux); None elsewhere."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        libc.inotify_init1, libc.inotify_add_watch  # noqa: B018 (present, or AttributeError)
    except (OSError, AttributeError, TypeError):
        return None
    return libc


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
        self._gates: list[InotifyGate] = []

    def add(self, path: str) -> None:
        """Start watching ``path`` (a directory). Raises OSError if it cannot be read."""
        gate = InotifyGate(path)  # before the first snapshot: a change after it is queued
        self._gates.append(gate)
        before = snapshot(path)
        go(self._poll, path, before, gate, name=f"fsnotify.poll({path})")

    async def _deliver(self, ch: Chan[Any], value: Any) -> bool:
        """Send ``value`` unless the watcher is closed first; False once it is closed."""
        chosen, _ = await select(send(ch, value), recv(self._done))
        return chosen == 0

    async def _poll(self, path: str, before: Snapshot, gate: InotifyGate) -> None:
        plain = all(entry[3] for entry in before.values())
        while True:
            chosen, _ = await select(recv(after(watchPollPeriod)), recv(self._done))
            if chosen == 1:
                return
            if not gate.maybe_changed() and plain:
                continue  # the comparison would find nothing: no event since the last one
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
            plain = all(entry[3] for entry in before.values())

    def close(self) -> None:
        """Stop watching: every polling goroutine returns at once."""
        self._done.close()
        for gate in self._gates:
            gate.close()
