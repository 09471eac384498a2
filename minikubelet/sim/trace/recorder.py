"""The recorder: what the runtime and the port report during a recording, as trace steps.

Ours. `recording()` installs a `Recorder` as the runtime's tracer (`minikubelet.go.tracing`)
for the length of a `with` block; the port's hooks (`minikubelet.base.trace`) report to it
too. The format of what it produces is described in `minikubelet.sim.trace`.
"""

from __future__ import annotations

import contextlib
import linecache
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

from minikubelet.go import tracing

from .values import Describer, container_state

#: The port's package directory and the repository root that paths in a trace are relative to.
PACKAGE = Path(__file__).resolve().parents[2]
ROOT = PACKAGE.parent
#: Parts of the package that are not kubelet's (the simulation, the Go runtime, the foundation,
#: klog's format, the directory watcher): a step is located at the first frame outside them
#: (the kubelet code that called into them).
SIM = ("sim/", "go/", "base/", "k8s_io/klog/", "github_com/fsnotify/")
#: How many frames of the port a step's location keeps (innermost first).
DEPTH = 6
#: A recording stops adding steps after this many (the trace says it was truncated).
MAX_STEPS = 200_000

_SIM_FRAME = object()


class RecordingError(RuntimeError):
    """A recording that cannot be made (another one is under way, a second run)."""


class Recorder:
    """Collects the steps of one run of the runtime. See `minikubelet.sim.trace` for the format."""

    def __init__(self, max_steps: int = MAX_STEPS) -> None:
        self.max_steps = max_steps
        self.steps: list[dict[str, Any]] = []
        self.truncated = False
        #: Python locations: ``{"py": file, "line": n, "fn": qualname}``; steps refer to them.
        self.locations: list[dict[str, Any]] = []
        self.goroutines: list[dict[str, Any]] = []
        self.channels: list[dict[str, Any]] = []
        self.describe = Describer()
        self.rt: Any = None
        self.seed: int | None = None
        self.clock = ""
        self._ran = False
        self._location_ids: dict[tuple[str, int, str], int] = {}
        self._codes: dict[CodeType, Any] = {}
        self._hook_lines: dict[tuple[str, int], int] = {}
        self._token = object()  # marks the channels numbered by this recording
        self._dirty: dict[int, Any] = {}
        # Each pod worker's last reported state: isWorking and the pending update itself (not
        # its description: a newer update can read the same and still replace the older one).
        self._workers: dict[str, tuple[bool, Any]] = {}

    # -- the run --------------------------------------------------------------------------------
    def run_started(self, rt: Any) -> None:
        if self._ran:
            raise RecordingError("a recording holds one run; start a new recording for the next")
        self._ran = True
        self.rt = rt
        self.seed = rt.seed
        self.clock = "virtual" if rt.clock.virtual else "real"
        self.describe.t0 = rt._t0

    def run_ended(self, rt: Any) -> None:
        self.rt = None

    def _on(self) -> bool:
        rt = self.rt
        if rt is None or rt._stopping or self.truncated:
            return False
        if len(self.steps) >= self.max_steps:
            self.truncated = True
            return False
        return True

    # -- where and when -------------------------------------------------------------------------
    def _code(self, code: CodeType) -> Any:
        """``(file, function)`` of a code object of the port, `_SIM_FRAME`, or None (elsewhere)."""
        if code in self._codes:
            return self._codes[code]
        path = Path(code.co_filename)
        info = None
        if path.is_absolute() and path.is_relative_to(PACKAGE):
            rel = path.relative_to(PACKAGE).as_posix()
            if rel.startswith(SIM):
                info = _SIM_FRAME
            else:
                info = (path.relative_to(ROOT).as_posix(), code.co_qualname)
        self._codes[code] = info
        return info

    def _where(self, frame: FrameType | None) -> list[int]:
        """Locations of the innermost port frames from ``frame`` outwards (the simulation and
        the runtime skipped)."""
        out: list[int] = []
        while frame is not None and len(out) < DEPTH:
            info = self._code(frame.f_code)
            if info is None:
                break
            if info is not _SIM_FRAME:
                line = frame.f_lineno
                if not out:
                    line = self._before_hook(frame.f_code.co_filename, line)
                out.append(self._location(info[0], line, info[1]))
            frame = frame.f_back
        return out

    def _before_hook(self, filename: str, line: int) -> int:
        """The line a step happened at: for a hook of the port (``trace.pod_worker(…)``, one line
        after the state change it reports), the code line above it."""
        key = (filename, line)
        if key not in self._hook_lines:
            found = line
            if linecache.getline(filename, line).lstrip().startswith("trace."):
                found -= 1
                while found > 1 and linecache.getline(filename, found).strip()[:1] in ("", "#"):
                    found -= 1
            self._hook_lines[key] = found
        return self._hook_lines[key]

    def _location(self, file: str, line: int, function: str) -> int:
        key = (file, line, function)
        i = self._location_ids.get(key)
        if i is None:
            i = self._location_ids[key] = len(self.locations)
            self.locations.append({"py": file, "line": line, "fn": function})
        return i

    def _step(self, kind: str, g: int | None = None, at: bool = True, **fields: Any) -> None:
        rt = self.rt
        step: dict[str, Any] = {
            "k": kind,
            "t": round((rt.clock.monotonic() - rt._t0) * 1e9),
        }
        if g is None:
            current = rt.current()
            g = 0 if current is None else current.id
        step["g"] = g
        step["at"] = self._where(sys._getframe(2)) if at else []
        step.update(fields)
        if self._dirty:
            step["bufs"] = [
                [cid, [self.describe(v) for v in h.buf]] for cid, h in sorted(self._dirty.items())
            ]
            self._dirty.clear()
        self.steps.append(step)

    # -- channels -------------------------------------------------------------------------------
    def _chan(self, h: Any) -> int:
        """The channel's number in this trace (numbered on first sight; the number is kept on
        the channel itself, so that the recording keeps no channel alive)."""
        mark = h.trace_id
        if mark is not None and mark[0] is self._token:
            return mark[1]
        cid = len(self.channels)
        h.trace_id = (self._token, cid)
        self.channels.append({"id": cid, "name": h.name, "cap": h.cap})
        return cid

    def buffer_changed(self, h: Any) -> None:
        if self.rt is not None and not self.truncated:
            self._dirty[self._chan(h)] = h

    def sent(self, h: Any, value: Any, waited: bool) -> None:
        if h.name and self._on():
            self._step("send", ch=self._chan(h), v=self.describe(value), waited=waited)

    def received(self, h: Any, value: Any, ok: bool, waited: bool) -> None:
        if h.name and self._on():
            v = self.describe(value) if ok else None
            self._step("recv", ch=self._chan(h), v=v, ok=ok, waited=waited)

    def closed(self, h: Any) -> None:
        if self._on():
            self._step("close", ch=self._chan(h))

    def _cases(self, cases: tuple[Any, ...]) -> list[list[Any]]:
        out: list[list[Any]] = []
        for c in cases:
            h = None if c is None else c._h
            send = c is not None and hasattr(c, "value")
            out.append(["s" if send else "r", None if h is None else self._chan(h)])
        return out

    def select_waits(self, cases: tuple[Any, ...]) -> None:
        if self._on():
            self._step("wait", cases=self._cases(cases))

    def selected(
        self, cases: tuple[Any, ...], ready: list[int], chosen: int, value: Any, waited: bool
    ) -> None:
        if not self._on():
            return
        fields: dict[str, Any] = {"cases": self._cases(cases), "ready": ready, "chosen": chosen}
        if chosen >= 0:
            case = cases[chosen]
            fields["v"] = self.describe(case.value if hasattr(case, "value") else value)
        fields["waited"] = waited
        self._step("select", **fields)

    def sleeps(self, d: float) -> None:
        if self._on():
            self._step("sleep", d=round(d * 1e9))

    # -- goroutines -----------------------------------------------------------------------------
    def goroutine_started(self, g: Any) -> None:
        if self._on():
            self.goroutines.append({"id": g.id, "name": g.name})
            self._step("go", id=g.id, name=g.name)

    def goroutine_ended(self, g: Any, how: str) -> None:
        if self._on():
            self._step("exit", g=g.id, at=False, how=how)

    # -- the port's hooks (see hooks.py) --------------------------------------------------------
    def pod_worker(self, uid: str, working: bool, pending: Any) -> None:
        if self._on():
            last = self._workers.get(uid)
            if last is not None and last[0] == working and last[1] is pending:
                return  # nothing changed (a hook that reports "nothing was waiting")
            self._workers[uid] = (working, pending)
            p = None if pending is None else self.describe(pending)
            self._step("worker", pod=self.describe.uid(uid), working=working, pending=p)

    def pod_status(self, pod: Any, status: Any) -> None:
        if not self._on():
            return
        containers = [
            [c.name, container_state(c), bool(c.ready)] for c in status.container_statuses
        ]
        init = [[c.name, container_state(c), bool(c.ready)] for c in status.init_container_statuses]
        phase = None if status.phase is None else str(status.phase)
        self._step(
            "status",
            pod=self.describe.pod(pod),
            phase=phase,
            reason=status.reason or None,
            containers=containers,
            init=init,
        )

    def cri(self, op: str, pod: str, detail: str | None) -> None:
        if self._on():
            self._step("cri", op=op, pod=pod, on=detail)

    def cgroup(self, op: str, path: str, files: dict[str, int | str] | None) -> None:
        if self._on():
            self._step("cgroup", op=op, path=path, set=files)

    def log(self, severity: str, msg: str, pairs: str) -> None:
        if self._on():
            self._step("log", sev=severity, msg=msg, kv=pairs[:300])

    # -- the result -----------------------------------------------------------------------------
    def trace(self, command: str | None = None) -> dict[str, Any]:
        """The trace as a JSON-ready dict (`minikubelet.sim.trace` describes it)."""
        from . import FORMAT, VERSION

        return {
            "format": FORMAT,
            "version": VERSION,
            "command": command,
            "seed": self.seed,
            "clock": self.clock,
            "truncated": self.truncated,
            "locations": self.locations,
            "goroutines": self.goroutines,
            "channels": self.channels,
            "steps": self.steps,
        }


@contextlib.contextmanager
def recording(max_steps: int = MAX_STEPS) -> Iterator[Recorder]:
    """Record the run of the runtime that happens inside the ``with`` block.

    ``with recording() as rec: go.run(main)`` then ``rec.trace()``. One recording at a time.
    """
    if tracing.tracer is not None:
        raise RecordingError("a recording is already under way in this process")
    rec = Recorder(max_steps)
    tracing.tracer = rec
    try:
        yield rec
    finally:
        tracing.tracer = None
