"""Short, stable descriptions of the values a trace shows (channel items, received values).

Ours. A description names what a reader needs (``ADD api [default/web]``, ``ContainerStarted
default/web``) and never depends on memory addresses or hash order, so that the same run gives
the same text. Types are recognised by class name, so that this module imports nothing of the
kubelet port.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from minikubelet.go.duration import format_duration

#: Longest description kept (longer ones end in "…").
LIMIT = 80
#: Pods named in a PodUpdate before the rest are counted ("+3").
PODS_SHOWN = 3


def _short(text: str, limit: int = LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pod_name(pod: Any) -> str:
    """``namespace/name`` of a pod (or of anything with ``metadata``)."""
    meta = pod.metadata
    return f"{meta.namespace}/{meta.name}" if meta.namespace else str(meta.name)


class Describer:
    """Describes values, and remembers pod UIDs → names on the way (events carry only UIDs)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.t0 = 0.0  # monotonic reading at the start of the run (ticks are shown relative)
        self._by_type: dict[str, Callable[[Any], str]] = {
            "PodUpdate": self._pod_update,
            "PodLifecycleEvent": self._pleg_event,
            "UpdatePodOptions": self._update_pod_options,
            "Update": self._probe_update,
            "PodStatusSyncRequest": self._status_request,
            "Pod": self.pod,
            "Time": self._time,
        }

    def pod(self, pod: Any) -> str:
        """A pod's ``namespace/name``, remembering its UID."""
        name = pod_name(pod)
        uid = getattr(pod.metadata, "uid", "")
        if uid:
            self.names[uid] = name
        return name

    def uid(self, uid: str) -> str:
        """The name of the pod with this UID, if one was seen; else the UID's first 8 digits."""
        return self.names.get(uid) or str(uid)[:8]

    def __call__(self, value: Any) -> str:
        """The description of ``value``."""
        if value is None:
            return "struct{}{}"
        describe = self._by_type.get(type(value).__name__)
        if describe is not None:
            return _short(describe(value))
        if isinstance(value, BaseException):
            return _short(f"error: {value}")
        if isinstance(value, Enum):
            return _short(str(value.name))
        if isinstance(value, bool | int | float | str):
            return _short(repr(value) if isinstance(value, str) else str(value))
        # Anything else by its type only: a repr may hold an address, which changes every run.
        return type(value).__name__

    def _pod_update(self, u: Any) -> str:
        names = [self.pod(p) for p in u.pods]
        shown = " ".join(names[:PODS_SHOWN])
        if len(names) > PODS_SHOWN:
            shown += f" +{len(names) - PODS_SHOWN}"
        return f"{u.op.name} {u.source} [{shown}]"

    def _pleg_event(self, e: Any) -> str:
        return f"{e.type} {self.uid(e.id)}"

    def _update_pod_options(self, o: Any) -> str:
        return f"{o.update_type} {self.pod(o.pod)}"

    def _probe_update(self, u: Any) -> str:
        return f"{u.result.name} {self.uid(u.pod_uid)}"

    def _status_request(self, r: Any) -> str:
        return f"status {self.uid(r.pod_uid)}"

    def _time(self, t: Any) -> str:
        return f"tick {format_duration(t.mono - self.t0)}"


def container_state(status: Any) -> str:
    """``running``, ``waiting:ContainerCreating``, ``terminated:Completed(0)`` of a status."""
    state = status.state
    if state.running is not None:
        return "running"
    if state.terminated is not None:
        t = state.terminated
        return f"terminated:{t.reason or 'Error'}({t.exit_code})"
    reason = state.waiting.reason if state.waiting is not None else ""
    return f"waiting:{reason}" if reason else "waiting"
