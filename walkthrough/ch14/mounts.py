"""Watching the volume manager on the port's whole kubelet: each SetUp, each wait of syncPod.

Chapter 14's example prints what happens to a pod's volumes as it happens (:func:`watch_mounts`
with a printer); its exercises' checks run a scenario with :func:`run_mounts` and look at the
record afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minikubelet.kubelet import Kubelet
from walkthrough.ch06.syncs import Run, now, run_syncs

#: The API scripts the exercises run (``web-ready``, ``web-slow``, ``web-last-moment``,
#: ``web-missing``).
SCRIPTS = Path(__file__).with_name("scripts")


@dataclass(frozen=True)
class Step:
    """One thing that happened to a pod's volumes.

    ``kind`` is ``setup`` (a SetUp of ``volume`` starts), ``failed`` (a FailedMount event;
    ``detail`` is its message), ``wait`` (syncPod starts waiting for the volumes), ``gave-up``
    (the wait ended with an error, in ``detail``) or ``mounted`` (the wait ended: all mounted).
    """

    at: float
    kind: str
    pod: str
    volume: str = ""
    detail: str = ""


@dataclass
class Mounts:
    """A run's record: its steps in order, and what ``run_syncs`` records besides."""

    steps: list[Step] = field(default_factory=list)
    run: Run | None = None

    def of(self, kind: str, pod: str | None = None, volume: str | None = None) -> list[Step]:
        return [
            s
            for s in self.steps
            if s.kind == kind
            and (pod is None or s.pod == pod)
            and (volume is None or s.volume == volume)
        ]

    def started(self, pod: str) -> float | None:
        """When the first container of ``pod`` started, or None."""
        assert self.run is not None
        times = [t for t, p, _ in self.run.starts if p == pod]
        return times[0] if times else None


def watch_mounts(kl: Kubelet, on_step: Callable[[Step], None]) -> None:
    """Call ``on_step`` with each SetUp, FailedMount event and wait of ``kl``'s volume manager
    (which runs as before)."""
    vm: Any = kl.volume_manager
    script: Any = vm.volume_plugin_mgr.host.scenario
    play = script.play

    async def set_up(pod: Any, volume_name: str) -> None:
        on_step(Step(now(), "setup", pod.metadata.name, volume_name))
        await play(pod, volume_name)

    script.play = set_up
    wait = vm.wait_for_attach_and_mount

    async def waited(pod: Any) -> None:
        name = pod.metadata.name if pod is not None else ""
        on_step(Step(now(), "wait", name))
        try:
            await wait(pod)
        except Exception as err:
            on_step(Step(now(), "gave-up", name, detail=str(err)))
            raise
        on_step(Step(now(), "mounted", name))

    vm.wait_for_attach_and_mount = waited
    recorder: Any = kl.recorder
    eventf = recorder.eventf

    def event(obj: Any, event_type: str, reason: str, message: str, *args: Any) -> None:
        text = message % args if args else message
        if reason == "FailedMount" and text.startswith("MountVolume."):
            volume = text.split('"')[1] if '"' in text else ""
            on_step(Step(now(), "failed", obj.metadata.name, volume, text))
        eventf(obj, event_type, reason, message, *args)

    recorder.eventf = event


def run_mounts(script: str, *, until: float) -> Mounts:
    """Run the kubelet on the API script ``scripts/<script>.yaml`` for ``until`` virtual
    seconds, recording every step of its pods' volumes (and the syncs, starts and events)."""
    mounts = Mounts()
    mounts.run = run_syncs(
        (SCRIPTS / f"{script}.yaml").read_text(),
        until=until,
        setup=lambda kl: watch_mounts(kl, mounts.steps.append),
    )
    return mounts


def when(t: float | None, lang: str) -> str:
    """A time of a run for a message: ``60.4 s``, or that it never came."""
    if t is None:
        return "从未发生" if lang == "zh" else "never"
    return f"{t:g} 秒" if lang == "zh" else f"{t:g} s"
