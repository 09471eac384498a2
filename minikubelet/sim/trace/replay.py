"""Replaying a trace step by step: the state a reader of the trace sees, and what names things.

Ours, not kubelet's. Whoever shows a trace (the site's player in ``tools.trace.player``, the
terminal's ``minikubelet trace show``) walks its steps in order with a [`State`][] (each
channel's buffer, each pod worker's state, each pod's last status) and explains each step with
a [`Context`][] (channel labels as the Go names them, a select's case names, goroutine names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .explain import channel_of_case
from .schema import schema

#: The kinds of step a trace holds, as its schema lists them (`minikubelet.sim.trace` describes
#: each).
KINDS: tuple[str, ...] = tuple(schema()["$defs"]["step"]["properties"]["k"]["enum"])
#: Kinds left out unless the reader asks for them (a close or a goroutine's end says little).
HIDDEN = ("close", "exit")
#: The kinds shown by default.
SHOWN = tuple(k for k in KINDS if k not in HIDDEN)


@dataclass
class State:
    """What the steps so far have left: buffers, pod workers, pod statuses (and what changed)."""

    ch: dict[int, list[str]] = field(default_factory=dict)
    w: dict[str, list[Any]] = field(default_factory=dict)
    p: dict[str, dict[str, Any]] = field(default_factory=dict)
    changed: dict[str, set[Any]] = field(
        default_factory=lambda: {"ch": set(), "w": set(), "p": set()}
    )

    def apply(self, step: dict[str, Any]) -> None:
        for cid, items in step.get("bufs", ()):
            self.ch[cid] = items
            self.changed["ch"].add(cid)
        if step["k"] == "worker":
            self.w[step["pod"]] = [step["working"], step["pending"]]
            self.changed["w"].add(step["pod"])
        elif step["k"] == "status":
            self.p[step["pod"]] = {
                "phase": step["phase"],
                "reason": step["reason"],
                "containers": step["containers"],
                "init": step["init"],
            }
            self.changed["p"].add(step["pod"])

    def take(self, shown: set[int], everything: bool = False) -> dict[str, Any]:
        """What changed since the last take (everything so far with ``everything``)."""
        pick = {
            "ch": set(self.ch) if everything else self.changed["ch"],
            "w": set(self.w) if everything else self.changed["w"],
            "p": set(self.p) if everything else self.changed["p"],
        }
        out: dict[str, Any] = {}
        chans = {str(c): self.ch[c] for c in sorted(pick["ch"]) if c in shown}
        if chans:
            out["ch"] = chans
        if pick["w"]:
            out["w"] = {pod: self.w[pod] for pod in sorted(pick["w"])}
        if pick["p"]:
            out["p"] = {pod: self.p[pod] for pod in sorted(pick["p"])}
        for s in self.changed.values():
            s.clear()
        return out


class Context:
    """What sentences need: channel labels, a select's case names, goroutine names."""

    def __init__(self, trace: dict[str, Any], labels: dict[int, str], state: State) -> None:
        self.trace = trace
        self.labels = labels
        self.state = state
        self.focus: dict[str, Any] | None = None
        self.before: dict[str, list[Any]] = {}
        self.names = {g["id"]: g["name"] for g in trace["goroutines"]}

    def chan(self, cid: int) -> str:
        return self.labels.get(cid) or f"chan {cid}"

    def buffered(self, cid: int) -> int | None:
        ch = self.trace["channels"][cid]
        return len(self.state.ch.get(cid, [])) if ch["cap"] else None

    def case_names(self, step: dict[str, Any]) -> list[str | None]:
        cases = (self.focus or {}).get("go", {}).get("cases") or []
        names = []
        for i, (_, cid) in enumerate(step["cases"]):
            name = channel_of_case(cases[i]) if i < len(cases) else None
            names.append(name or (None if cid is None else self.chan(cid)))
        return names

    def goroutine(self, gid: int) -> str:
        """A goroutine's name (``podWorker default/web``)."""
        return self.names.get(gid, "?")

    def worker_before(self, pod: str) -> list[Any] | None:
        """The pod worker's state before the step being explained."""
        return self.before.get(pod)


def focus_of(trace: dict[str, Any], step: dict[str, Any]) -> int | None:
    """The step's *focus*: the first location of its ``at`` that has Go lines, else the first."""
    at = step.get("at") or []
    for i in at:
        if "go" in trace["locations"][i]:
            return i
    return at[0] if at else None


def channel_labels(trace: dict[str, Any]) -> dict[int, str]:
    """Channel labels: the Go name of the first select case that uses it, else its name."""
    labels: dict[int, str] = {}
    for step in trace["steps"]:
        if step["k"] not in ("select", "wait"):
            continue
        focus = focus_of(trace, step)
        cases = [] if focus is None else trace["locations"][focus].get("go", {}).get("cases") or []
        for i, (_, cid) in enumerate(step["cases"]):
            if cid is not None and cid not in labels and i < len(cases):
                name = channel_of_case(cases[i])
                if name:
                    labels[cid] = name
    for ch in trace["channels"]:
        if ch["id"] not in labels and ch["name"]:
            labels[ch["id"]] = ch["name"]
    return labels
