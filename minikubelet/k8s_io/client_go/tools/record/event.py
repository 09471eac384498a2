"""Events kubelet records about pods (what ``kubectl describe pod`` shows under *Events*).

Go: staging/src/k8s.io/client-go/tools/record/event.go

There is no API server here: the recorder logs each event the way kubelet's event broadcaster
does (``"Event occurred"`` at verbosity 3) and, for the tests and traces that read them, keeps
the events in a list. Kubelet without an API server keeps none: its broadcaster only logs them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from minikubelet.k8s_io.klog.v2 import klog

EventTypeNormal = "Normal"
EventTypeWarning = "Warning"


@dataclass(frozen=True)
class Event:
    """One recorded event: about which object, of which type, why, and what it says."""

    object: klog.ObjectRef
    type: str
    reason: str
    message: str
    #: Annotations of the event (the eviction manager's say which containers used too much).
    annotations: dict[str, str] | None = field(default=None, compare=False)


class EventRecorder(Protocol):
    """Go: staging/src/k8s.io/client-go/tools/record/event.go type EventRecorder"""

    def eventf(self, obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None:
        """Go: staging/src/k8s.io/client-go/tools/record/event.go EventRecorder.Eventf"""
        ...

    def annotated_eventf(
        self,
        obj: Any,
        annotations: dict[str, str] | None,
        event_type: str,
        reason: str,
        message_fmt: str,
        *args: Any,
    ) -> None:
        """Go: staging/src/k8s.io/client-go/tools/record/event.go EventRecorder.AnnotatedEventf"""
        ...


class Recorder:
    """An [`EventRecorder`][] that logs events and, unless told not to, keeps them.

    ``keep=False`` (ours) keeps none, as kubelet's broadcaster with no API server to send them
    to: a long run then holds no more than a short one. A kept list grows with every event
    (the node's pressure events come again with each sync of a static pod on a standalone node).
    """

    def __init__(self, keep: bool = True) -> None:
        self.events: list[Event] = []
        self.keep = keep

    def eventf(self, obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None:
        """Record an event; ``message_fmt`` uses ``%`` formatting like Go's ``Sprintf``."""
        self.annotated_eventf(obj, None, event_type, reason, message_fmt, *args)

    def annotated_eventf(
        self,
        obj: Any,
        annotations: dict[str, str] | None,
        event_type: str,
        reason: str,
        message_fmt: str,
        *args: Any,
    ) -> None:
        """Record an event with annotations (``eventf`` is this without them)."""
        message = message_fmt % args if args else message_fmt
        event = Event(klog.kobj(obj), event_type, reason, message, annotations)
        if self.keep:
            self.events.append(event)
        klog.v(3).info_s(
            "Event occurred",
            object=event.object,
            # The node's own events are about a Node; every other event here is about a pod.
            kind=getattr(obj, "kind", "") or "Pod",
            apiVersion="v1",
            type=event_type,
            reason=reason,
            message=message,
        )
