"""Where a trace recorder plugs into the runtime. Ours: Go has no such hook.

`tracer` is None unless a recording is under way (`minikubelet.sim.trace.recording`). The
runtime, channels and `select` test it before calling it, so a run that is not recorded pays one
global lookup per operation and nothing else. One recording at a time per process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .chan import _HChan
    from .runtime import Goroutine, Runtime


class Tracer(Protocol):
    """What the runtime tells a recorder (implemented by `minikubelet.sim.trace.Recorder`)."""

    def run_started(self, rt: Runtime) -> None: ...
    def run_ended(self, rt: Runtime) -> None: ...
    def goroutine_started(self, g: Goroutine) -> None: ...
    def goroutine_ended(self, g: Goroutine, how: str) -> None: ...
    def buffer_changed(self, h: _HChan) -> None: ...
    def sent(self, h: _HChan, value: Any, waited: bool) -> None: ...
    def received(self, h: _HChan, value: Any, ok: bool, waited: bool) -> None: ...
    def closed(self, h: _HChan) -> None: ...
    def select_waits(self, cases: tuple[Any, ...]) -> None: ...
    def selected(
        self, cases: tuple[Any, ...], ready: list[int], chosen: int, value: Any, waited: bool
    ) -> None: ...


#: The recorder of the recording under way, or None.
tracer: Tracer | None = None
