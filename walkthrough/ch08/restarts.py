"""What the checks of chapter 8 build on: a crash-looping pod on the port's whole kubelet.

:func:`crash_loop` runs the real kubelet on the fake runtime with one pod whose container exits
with code 1 two seconds after every start, and records when the container was started and what
its status said meanwhile. Whatever the learner rewrote (``do_back_off``, ``Backoff.next``) runs
inside it.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minikubelet import go
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kubelet import Kubelet
from walkthrough.examples import run_kubelet

#: How long the container runs before it exits with code 1.
RUNS_FOR = 2.0

#: What the scripted API server sends (minikubelet run --api-script takes it too).
SCRIPT = Path(__file__).parent / "pods" / "restarts.yaml"


@dataclass
class CrashLoop:
    """What happened to the crash-looping container."""

    #: seconds from the start of the run at which the container was started
    starts: list[float] = field(default_factory=list)
    #: (seconds, reason, message) of each status in which the container was waiting
    waiting: list[tuple[float, str, str]] = field(default_factory=list)
    #: the (reason, message) of every event about the pod
    events: list[tuple[str, str]] = field(default_factory=list)

    def gaps(self) -> list[float]:
        """How long the container stayed down after each exit, before its next start."""
        return [
            round(b - (a + RUNS_FOR), 3) for a, b in zip(self.starts, self.starts[1:], strict=False)
        ]


@functools.cache
def crash_loop(until: float = 240.0) -> CrashLoop:
    """Run the crash-looping pod for ``until`` seconds of virtual time.

    Run once per check process and shared by its checks (ours: the run is deterministic, the
    learner's code in it is the same for each check, and a crash loop without a back-off is
    four virtual minutes of restarts every two seconds). The checks only read it.
    """
    out = CrashLoop()

    def setup(kl: Kubelet) -> None:
        runtime_service: Any = kl.container_runtime.runtime_service  # type: ignore[attr-defined]
        start_container = runtime_service.start_container
        set_pod_status = kl.status_manager.set_pod_status

        async def recorded_start(container_id: str) -> None:
            await start_container(container_id)
            out.starts.append(round(go.current_runtime().clock.monotonic(), 3))

        async def recorded_status(pod: Any, status: Any) -> None:
            for cs in status.container_statuses:
                if cs.state.waiting is not None:
                    at = round(go.current_runtime().clock.monotonic(), 3)
                    out.waiting.append((at, cs.state.waiting.reason, cs.state.waiting.message))
            await set_pod_status(pod, status)

        runtime_service.start_container = recorded_start
        kl.status_manager.set_pod_status = recorded_status  # type: ignore[method-assign]
        recorder: Any = kl.recorder
        out.events = recorder_events(recorder)

    klog.configure(verbosity=0, out=io.StringIO())
    try:
        run_kubelet(SCRIPT, seed=1, until=until, out=io.StringIO(), setup=setup)
    finally:
        klog.configure(verbosity=0, out=None)
    return out


def recorder_events(recorder: Any) -> list[tuple[str, str]]:
    """A list that fills with (reason, message) as ``recorder`` records events."""
    seen: list[tuple[str, str]] = []
    eventf = recorder.eventf

    def recorded(obj: Any, event_type: str, reason: str, message: str, *args: Any) -> None:
        seen.append((reason, message % args if args else message))
        eventf(obj, event_type, reason, message, *args)

    recorder.eventf = recorded
    return seen
