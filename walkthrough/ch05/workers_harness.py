"""What the checks of chapter 5 build on: the port's pod workers with a sync that only records.

:func:`run_workers` makes a real ``PodWorkersImpl`` (so the learner's methods, put in place of
the port's, run inside it), gives it a sync function that records each sync and takes a few
seconds of virtual time, lets a script send updates, and returns what happened.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from minikubelet import go
from minikubelet.go import Second
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.pod_workers import (
    KillPodOptions,
    NetworkNotReadyErrorMsg,
    PodWorkersImpl,
    SyncPodOptions,
    UpdatePodOptions,
)
from minikubelet.types import SyncPodType
from minikubelet.util.queue.work_queue import BasicWorkQueue
from walkthrough.fixtures import make_pod, run_go

#: kubelet's defaults: resync every minute, back off 10 s after a failed sync.
RESYNC = 60 * Second
BACK_OFF = 10 * Second


class FreshCache:
    """A pod cache that always has a status newer than asked."""

    async def get_newer_than(self, pod_uid: str, min_time: float) -> str:
        return f"status of {pod_uid}"


@dataclass
class Sync:
    """One sync the worker ran: when, which pod, which kind, which version of the pod."""

    at: float
    pod: str
    kind: str
    version: str

    def __str__(self) -> str:
        return f"{self.kind} v{self.version} at {self.at:g}s"


@dataclass
class Run:
    """What a script made the pod workers do."""

    syncs: list[Sync] = field(default_factory=list)
    #: pod UID → seconds from the start until the work queue would sync it again
    due: dict[str, float] = field(default_factory=dict)
    #: the kills whose completion callback ran, by the name given to their options
    completed: list[str] = field(default_factory=list)
    #: kubelet's log during the run
    log: str = ""

    def of(self, pod: str) -> list[str]:
        """The syncs of one pod, as text: "create v1 at 0s", …"""
        return [str(s) for s in self.syncs if s.pod == pod]


def version(name: str, v: int, uid: str | None = None) -> Pod:
    """Pod ``name`` with the label ``version=v``: each update carries a new version."""
    return make_pod(name, uid, labels={"version": str(v)})


def update(pod: Pod, kind: SyncPodType) -> UpdatePodOptions:
    """An update of ``kind`` for ``pod`` (a kill gets the options a kill needs)."""
    if kind == SyncPodType.KILL:
        return UpdatePodOptions(pod=pod, update_type=kind, kill_pod_options=KillPodOptions())
    return UpdatePodOptions(pod=pod, update_type=kind)


def run_workers(
    script: Callable[[PodWorkersImpl, Run], Awaitable[None]],
    *,
    sync_seconds: float = 5.0,
    errors: dict[str, str] | None = None,
    seed: int = 1,
    until: float = 200 * Second,
) -> Run:
    """Run ``script(workers, run)``; each sync takes ``sync_seconds`` and then raises
    ``errors[pod name]`` if there is one. The run stops ``until`` seconds in."""
    run = Run()

    async def main() -> None:
        start = go.now()

        async def sync_pod(o: SyncPodOptions) -> None:
            labels = o.pod.metadata.labels or {}
            run.syncs.append(
                Sync(
                    round(go.now() - start, 6),
                    o.pod.metadata.name,
                    str(o.update_type),
                    labels.get("version", "?"),
                )
            )
            await go.sleep(sync_seconds)
            if errors and o.pod.metadata.name in errors:
                raise RuntimeError(errors[o.pod.metadata.name])

        queue = BasicWorkQueue(go.current_runtime().clock)
        workers = PodWorkersImpl(sync_pod, Recorder(), queue, RESYNC, BACK_OFF, FreshCache())
        await script(workers, run)
        await go.sleep(until - 10 * Second)
        run.due = {uid: round(t - start, 6) for uid, t in queue.queue.items()}

    run.log = run_go(main, seed=seed, until=until)
    return run


def with_callback(options: UpdatePodOptions, run: Run, name: str) -> UpdatePodOptions:
    """``options`` whose completion callback records ``name`` in ``run.completed``."""

    def done(err: Exception | None) -> None:
        run.completed.append(name)

    options.on_complete_func = done
    return options


__all__ = [
    "BACK_OFF",
    "RESYNC",
    "NetworkNotReadyErrorMsg",
    "Run",
    "Sync",
    "run_workers",
    "update",
    "version",
    "with_callback",
]
