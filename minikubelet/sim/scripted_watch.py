"""A script of what the rest of the cluster does to the pods bound to this node.

Ours, not a port. ``minikubelet run --api-script`` replays a script into the fake API server
([`minikubelet.sim.fake_apiserver`][minikubelet.sim.fake_apiserver]): at each event's time
(``at``), another client (the scheduler binding a pod here, a user changing or deleting one)
writes the pod. kubelet's API source lists and watches the server as client-go's Reflector does
([`reflector_run`][minikubelet.k8s_io.client_go.tools.cache.reflector.reflector_run]), and sees kubelet's own writes
there too (status patches, mirror pods).

A script is YAML (a list) or JSON lines (one event per line)::

    - at: 0s                 # when, as a Go duration from the start of the run
      type: ADDED            # ADDED, MODIFIED or DELETED
      object:                # the pod, as the other client sends it
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: default}
        spec: {containers: [{name: nginx, image: nginx:1.21}]}
    - at: 30s                # a configMap (or a Secret) the pods' volumes read
      type: ADDED
      object:
        kind: ConfigMap
        metadata: {name: web-config}
        data: {index.html: hello}

The API server gives each new pod its UID, creation time and ``Pending`` status (an object that
has a ``uid`` or ``creationTimestamp`` keeps it: it stands for a pod created before); an update
keeps the pod's status, unless the object has a ``status``, which is then written too (as a
client updating the status subresource would). An object
without ``spec.nodeName`` is taken as bound to this node (the API source only sees pods bound
to it). Every object is decoded and validated when the script is loaded, as the API server
would refuse an invalid pod: errors name the script, the event and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from minikubelet.base.files import FileReadError, read_at_most
from minikubelet.base.i18n import Bilingual, both
from minikubelet.config.manifest import ManifestError, pod_from_dict
from minikubelet.go import go, now, sleep
from minikubelet.go.duration import parse_duration
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import cut, describe, shown
from minikubelet.k8s_io.apimachinery.pkg.util.yaml.decoder import (
    YAMLSyntaxError,
    has_json_prefix,
    json_loads,
    yaml_to_json,
)
from minikubelet.sim.fake_apiserver import FakeAPIServer

EVENT_TYPES = ("ADDED", "MODIFIED", "DELETED")


@dataclass(frozen=True)
class WatchEvent:
    """One scripted event: when (seconds from the start), what, and the pod."""

    at: float
    type: str
    object: dict[str, Any]


class ScriptError(ValueError):
    """A script that cannot be replayed: names the script, the event and the field.

    Its message is [`Bilingual`][minikubelet.base.i18n.Bilingual].
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
        at_raw = raw.get("at", "0s")
        try:
            if not isinstance(at_raw, str | int | float):
                raise ValueError(f"expected a duration like 5s, got {shown(at_raw)}")
            at = parse_duration(str(at_raw))
        except ValueError as err:
            bad = str(err).replace(str(at_raw), cut(str(at_raw), 60))
            raise _error(where, f"at: {bad}", f"at：{bad}") from None
        kind = raw.get("type")
        if kind not in EVENT_TYPES:
            types = ", ".join(EVENT_TYPES)
            raise _error(where, f"type: must be one of {types}", f"type：必须是 {types} 之一")
        obj = raw.get("object")
        if not isinstance(obj, dict):
            raise _error(
                where,
                "object: a pod, configMap or secret is required",
                "object：必须给出一个 Pod、ConfigMap 或 Secret",
            )
        # Every object is checked now, so that a bad one is refused before anything runs.
        if obj.get("kind") in OBJECT_KINDS:
            check_object(obj, _object(where))
        else:
            try:
                pod_from_dict(obj, source=_object(where))
            except ManifestError as err:
                raise _from(err) from err
        events.append(WatchEvent(at, kind, obj))
    return sorted(events, key=lambda e: e.at)


#: The kinds besides Pod a script may write: what pods' volumes read.
OBJECT_KINDS = ("ConfigMap", "Secret")


def check_object(obj: dict[str, Any], where: Bilingual) -> None:
    """A configMap or secret as the API server would take it: a name, and ``data`` (and a
    configMap's ``binaryData``, a secret's ``stringData``) mapping keys to strings."""
    meta = obj.get("metadata")
    if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) or not meta["name"]:
        raise _error(where, "metadata.name: required", "metadata.name：必须给出")
    if not isinstance(meta.get("namespace", ""), str):
        raise _error(
            where, "metadata.namespace: must be a string", "metadata.namespace：必须是字符串"
        )
    fields = ("data", "binaryData") if obj["kind"] == "ConfigMap" else ("data", "stringData")
    for name in fields:
        value = obj.get(name, {})
        if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        ):
            raise _error(
                where,
                f"{name}: must map keys to strings",
                f"{name}：必须是键到字符串的映射",
            )


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


def decode_pod(event: WatchEvent, index: int, source: str, node_name: str) -> Pod:
    """The event's pod, with what its client leaves to defaults (namespace, node)."""
    obj = event.object
    try:
        pod = pod_from_dict(obj, source=_object(_event(source, index)))
    except ManifestError as err:
        raise _from(err) from err
    meta = pod.metadata
    if not meta.namespace:
        meta.namespace = "default"
    if not pod.spec.node_name:
        pod.spec.node_name = node_name
    return pod


async def replay_script(
    server: FakeAPIServer, events: list[WatchEvent], source: str, node_name: str
) -> None:
    """Write each event's pod into ``server`` at its time (the script's other clients)."""
    start = now()
    for i, event in enumerate(events, start=1):
        wait = start + event.at - now()
        if wait > 0:
            await sleep(wait)
        if event.object.get("kind") in OBJECT_KINDS:
            server.apply_object(event.type, event.object)
            continue
        pod = decode_pod(event, i, source, node_name)
        server.apply(event.type, pod, with_status="status" in event.object)


def start_scripted_cluster(events: list[WatchEvent], source: str, node_name: str) -> FakeAPIServer:
    """A fake API server whose other clients follow the script; call inside a run."""
    server = FakeAPIServer()
    go(replay_script, server, events, source, node_name, name="scripted cluster")
    return server
