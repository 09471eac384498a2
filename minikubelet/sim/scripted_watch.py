"""A scripted stand-in for the API server's list and watch of the pods bound to this node.

There is no API server in the port. A script says, at which time of the clock, which watch event
happens to which pod; [`reflector_run`][] replays it into a store the way client-go's
Reflector feeds a store from a real watch (events at ``0s`` are the initial list).

A script is YAML (a list) or JSON lines (one event per line)::

    - at: 0s                 # when, as a Go duration from the start of the run
      type: ADDED            # ADDED, MODIFIED or DELETED
      object:                # the pod, as the API server would send it
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: default}
        spec: {containers: [{name: nginx, image: nginx:1.21}]}

An object without a ``uid`` gets one derived from its namespace and name (as stable as a real
one for the life of the pod); one without ``creationTimestamp`` gets the event's time; one
without ``spec.nodeName`` is taken as bound to this node (the API source only sees pods bound
to it). Errors name the script, the event and the field.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.client_go.tools.cache.undelta_store import UndeltaStore
from minikubelet.sim.go import now, sleep
from minikubelet.sim.go.duration import parse_duration
from minikubelet.sim.manifest import ManifestError, pod_from_dict

EVENT_TYPES = ("ADDED", "MODIFIED", "DELETED")


@dataclass(frozen=True)
class WatchEvent:
    """One scripted event: when (seconds from the start), what, and the pod."""

    at: float
    type: str
    object: dict[str, Any]


class ScriptError(ValueError):
    """A script that cannot be replayed: names the script, the event and the field."""


def _parse_events(text: str, source: str) -> list[Any]:
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as err:
            raise ScriptError(f"{source}: line {err.lineno}: not JSON: {err.msg}") from err
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise ScriptError(f"{source}: not YAML: {err}") from err
    if data is None:
        return []
    if not isinstance(data, list):
        raise ScriptError(f"{source}: a script is a list of events, not {type(data).__name__}")
    return data


def load_script(text: str, source: str) -> list[WatchEvent]:
    """Parse a script; events are returned in time order (stable for equal times)."""
    events = []
    for i, raw in enumerate(_parse_events(text, source), start=1):
        where = f"{source}: event {i}"
        if not isinstance(raw, dict):
            raise ScriptError(f"{where}: an event is a mapping with at, type and object")
        try:
            at = parse_duration(str(raw.get("at", "0s")))
        except ValueError as err:
            raise ScriptError(f"{where}: at: {err}") from err
        kind = raw.get("type")
        if kind not in EVENT_TYPES:
            raise ScriptError(f"{where}: type: must be one of {', '.join(EVENT_TYPES)}")
        obj = raw.get("object")
        if not isinstance(obj, dict):
            raise ScriptError(f"{where}: object: a pod is required")
        events.append(WatchEvent(at, kind, obj))
    return sorted(events, key=lambda e: e.at)


def load_script_file(path: str) -> list[WatchEvent]:
    """Read and parse a script file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise ScriptError(f"{path}: cannot read: {err.strerror or err}") from err
    return load_script(text, path)


def decode_pod(event: WatchEvent, index: int, source: str, node_name: str, start: float) -> Pod:
    """The event's pod, with what the API server would have filled in."""
    obj = event.object
    try:
        pod = pod_from_dict(obj, source=f"{source}: event {index}: object")
    except ManifestError as err:
        raise ScriptError(str(err)) from err
    meta = pod.metadata
    if not meta.namespace:
        meta.namespace = "default"
    if not meta.uid:
        meta.uid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"pod/{meta.namespace}/{meta.name}"))
    if meta.creation_timestamp is None:
        meta.creation_timestamp = start + event.at
    if not pod.spec.node_name:
        pod.spec.node_name = node_name
    return pod


async def reflector_run(
    events: list[WatchEvent], store: UndeltaStore, node_name: str, source: str
) -> None:
    """Replay the script into ``store``: list first (events at 0 s), then each event on time.

    Plays the part of client-go's ``Reflector.Run`` over a ListWatch of the pods whose
    ``spec.nodeName`` is this node: pods bound elsewhere are not seen.
    """
    start = now()
    initial: dict[str, Pod] = {}
    index = 0
    for index, event in enumerate(events, start=1):
        if event.at > 0:
            break
        pod = decode_pod(event, index, source, node_name, start)
        if pod.spec.node_name != node_name:
            continue
        key = f"{pod.metadata.namespace}/{pod.metadata.name}"
        if event.type == "DELETED":
            initial.pop(key, None)
        else:
            initial[key] = pod
    else:
        index = len(events) + 1
    await store.replace(list(initial.values()), "")

    for i, event in enumerate(events[index - 1 :], start=index):
        wait = start + event.at - now()
        if wait > 0:
            await sleep(wait)
        pod = decode_pod(event, i, source, node_name, start)
        if pod.spec.node_name != node_name:
            continue
        if event.type == "ADDED":
            await store.add(pod)
        elif event.type == "MODIFIED":
            await store.update(pod)
        else:
            await store.delete(pod)
