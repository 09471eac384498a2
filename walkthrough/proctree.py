"""The processes a check leaves behind: keep them below the check, then end them all (ours).

A learner's code may start processes. Ending the check's process group ends most of them, but a
process that calls ``setsid()`` (a daemon's double fork) leaves the group and would outlive the
check. So the check's process makes itself a *child subreaper* (Linux ``prctl``): a process
whose parent exits is handed to the nearest subreaper above it instead of to init, and so every
process the check started stays below it in the process tree, where ``/proc`` shows it. Ending
the check then walks that tree: each process found is stopped first, so that none can fork away
while the walk goes on, and killed when no new one appears.

Where there is no ``prctl`` or ``/proc`` (not Linux) these do nothing and the group kill holds.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal

#: ``PR_SET_CHILD_SUBREAPER`` from Linux's ``<linux/prctl.h>``.
PR_SET_CHILD_SUBREAPER = 36
#: Walks of the tree before the kill: a process forking in a loop is stopped within a few.
_ROUNDS = 50


def become_subreaper() -> bool:
    """Make this process the subreaper of everything it starts; whether the system allowed it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _parents() -> dict[int, int]:
    """Every process's parent, read from ``/proc/<pid>/stat`` (empty without ``/proc``)."""
    parents: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return parents
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                text = stat.read()
        except OSError:
            continue  # it ended while we looked
        # After "pid (comm) " come the state and the parent's pid; comm may hold ")" or spaces.
        fields = text[text.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            parents[int(name)] = int(fields[1])
    return parents


def descendants(pid: int) -> list[int]:
    """The processes below ``pid`` in the process tree, parents before their children."""
    children: dict[int, list[int]] = {}
    for child, parent in _parents().items():
        children.setdefault(parent, []).append(child)
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def kill_descendants(pid: int) -> None:
    """Stop every process below ``pid`` until the walk finds no new one, then kill them all."""
    stopped: list[int] = []
    seen: set[int] = set()
    for _ in range(_ROUNDS):
        new = [p for p in descendants(pid) if p not in seen]
        if not new:
            break
        for p in new:
            seen.add(p)
            with contextlib.suppress(OSError):
                os.kill(p, signal.SIGSTOP)
                stopped.append(p)
    for p in stopped:
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGKILL)


def busy_seconds(pid: int) -> float | None:
    """The seconds ``pid``'s threads together ran or were ready to run (on a CPU, or waiting
    for one on a busy machine) rather than asleep: Linux's ``/proc/<pid>/task/*/schedstat``.
    None where the system does not say."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat", "rb") as stat:
                ran, waited = stat.read().split()[:2]
            total += int(ran) + int(waited)
    except (OSError, ValueError):
        return None
    return total / 1e9
