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

import uuid
from dataclasses import dataclass
from typing import Any

from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import describe
from minikubelet.k8s_io.apimachinery.pkg.util.yaml.decoder import (
    YAMLSyntaxError,
    has_json_prefix,
    json_loads,
    yaml_to_json,
)
from minikubelet.k8s_io.client_go.tools.cache.undelta_store import UndeltaStore
from minikubelet.sim.files import FileReadError, read_at_most
from minikubelet.sim.go import now, sleep
from minikubelet.sim.go.duration import parse_duration
from minikubelet.sim.i18n import Bilingual, both
from minikubelet.sim.manifest import ManifestError, pod_from_dict

EVENT_TYPES = ("ADDED", "MODIFIED", "DELETED")


@dataclass(frozen=True)
class WatchEvent:
    """One scripted event: when (seconds from the start), what, and the pod."""

    at: float
    type: str
    object: dict[str, Any]


class ScriptError(ValueError):
    """A script that cannot be replayed: names the script, the event and the field.

    Its message is [`Bilingual`][minikubelet.sim.i18n.Bilingual].
    """


def _error(where: Bilingual | str, en: str, zh: str) -> ScriptError:
    """``<where>: <en>``, and the same in Chinese."""
    return ScriptError(both(f"{where}: {en}", f"{getattr(where, 'zh', where)}：{zh}"))


def _from(err: ManifestError) -> ScriptError:
    return ScriptError(both(str(err), err.zh))


def _parse_events(text: str | bytes, source: str) -> list[Any]:
    if has_json_prefix(text):
        lines = (
            text.splitlines()
            if isinstance(text, str)
            else text.decode("utf-8", "replace").splitlines()
        )
        events = []
        for number, line in enumerate(lines, start=1):
            if line.strip():
                try:
                    events.append(json_loads(line))
                except YAMLSyntaxError as err:
                    where = both(f"{source}: line {number}", f"{source}：第 {number} 行")
                    raise _error(where, err.args[0], err.args[0].zh) from None
        return events
    try:
        data = yaml_to_json(text)
    except YAMLSyntaxError as err:
        raise _error(source, err.args[0], err.args[0].zh) from None
    if data is None:
        return []
    if not isinstance(data, list):
        got = describe(data)
        raise _error(
            source, f"a script is a list of events, not {got}", f"脚本应为事件列表，而不是{got.zh}"
        )
    return data


def load_script(text: str | bytes, source: str) -> list[WatchEvent]:
    """Parse a script; events are returned in time order (stable for equal times)."""
    events = []
    for i, raw in enumerate(_parse_events(text, source), start=1):
        where = _event(source, i)
        if not isinstance(raw, dict):
            raise _error(
                where,
                "an event is a mapping with at, type and object",
                "事件应为包含 at、type 和 object 的映射",
            )
        try:
            at = parse_duration(str(raw.get("at", "0s")))
        except ValueError as err:
            raise _error(where, f"at: {err}", f"at：{err}") from err
        kind = raw.get("type")
        if kind not in EVENT_TYPES:
            types = ", ".join(EVENT_TYPES)
            raise _error(where, f"type: must be one of {types}", f"type：必须是 {types} 之一")
        obj = raw.get("object")
        if not isinstance(obj, dict):
            raise _error(where, "object: a pod is required", "object：必须给出一个 Pod")
        # Every pod is checked now, so that a bad one is refused before anything runs.
        try:
            pod_from_dict(obj, source=_object(where))
        except ManifestError as err:
            raise _from(err) from err
        events.append(WatchEvent(at, kind, obj))
    return sorted(events, key=lambda e: e.at)


def _event(source: str, index: int) -> Bilingual:
    return both(f"{source}: event {index}", f"{source}：第 {index} 个事件")


def _object(where: Bilingual) -> Bilingual:
    return both(f"{where}: object", f"{where.zh}：object")


def load_script_file(path: str) -> list[WatchEvent]:
    """Read and parse a script file (at most ``maxConfigLength`` bytes, as a manifest)."""
    from minikubelet.config.common import maxConfigLength

    try:
        data = read_at_most(path, maxConfigLength)
    except FileReadError as err:
        raise _error(path, err.args[0], err.args[0].zh) from None
    return load_script(data, path)


def decode_pod(event: WatchEvent, index: int, source: str, node_name: str, start: float) -> Pod:
    """The event's pod, with what the API server would have filled in."""
    obj = event.object
    try:
        pod = pod_from_dict(obj, source=_object(_event(source, index)))
    except ManifestError as err:
        raise _from(err) from err
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
