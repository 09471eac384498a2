"""Pod manifests: from YAML (or JSON) text to [`Pod`][minikubelet.k8s_io.api.core.v1.types.Pod] objects.

Every document goes through the three steps a manifest goes through in kubelet (see
``tryDecodeSinglePod`` in pkg/kubelet/config/common.go):

1. **decode**: YAML → plain data → dataclasses, with a type check on every field the port
   knows. Fields it does not know are ignored, as kubelet's (non-strict) decoder ignores them;
2. **default**: fill in what the API server would ([`set_object_defaults_pod`][]):
   ``restartPolicy: Always``, ``terminationGracePeriodSeconds: 30``, ``dnsPolicy: ClusterFirst``,
   image pull policy from the tag, probe timings, requests copied from limits …;
3. **validate**: the checks of the API's pod validation that matter here: names, unique
   container names, images, ports, probes, resources (a subset of ``ValidatePodCreate`` in
   pkg/apis/core/validation/validation.go, with messages of our own).

A problem becomes a [`ManifestError`][] that names the file, the document and the field::

    manifests/web.yaml: document 2: spec.containers[1].name: duplicate name "app"

**Nothing is half-applied.** A document with any error yields no pod at all. Two ways to read a
text, because kubelet's own rule is stricter than what is handy for learning:

* [`load_pods`][] reads **every** document of a multi-document YAML text; each document is a
  ``Pod`` or a ``PodList``. A bad document is reported and skipped; the others still load.
* [`load_pods_like_kubelet`][] does what kubelet v1.21 does: it reads the **first** YAML
  document only (later ones are silently ignored, because the YAML→JSON step kubelet uses
  decodes one document), and one error rejects the whole text. A file holds one ``Pod``; a
  ``PodList`` is accepted only where kubelet's HTTP source accepts it (``allow_pod_list=True``).
  [`load_pod_file`][] with ``like_kubelet=True`` uses it.

Not done here: defaulting the namespace to ``"default"``, generating a UID and adding the node
name to the pod's name. kubelet does those for static pods after decoding (``applyDefaults`` in
pkg/kubelet/config/common.go), and so does the port's config layer.

Fields the port does not know are ignored rather than rejected, as kubelet's decoder is not
strict; a misspelt field (``imagePullPolicy`` as ``imagePulPolicy``) is therefore silently
ignored, exactly as kubelet ignores it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

import yaml

from minikubelet.k8s_io.api.core.v1 import (
    ConditionStatus,
    Container,
    ContainerPort,
    ContainerState,
    ContainerStateRunning,
    ContainerStateTerminated,
    ContainerStateWaiting,
    ContainerStatus,
    DefaultTerminationGracePeriodSeconds,
    DNSPolicy,
    EnvVar,
    ExecAction,
    Handler,
    HTTPGetAction,
    HTTPHeader,
    Lifecycle,
    LocalObjectReference,
    Pod,
    PodCondition,
    PodIP,
    PodPhase,
    PodQOSClass,
    PodSpec,
    PodStatus,
    Probe,
    Protocol,
    PullPolicy,
    ResourceCPU,
    ResourceDefaultNamespacePrefix,
    ResourceEphemeralStorage,
    ResourceHugePagesPrefix,
    ResourceList,
    ResourceMemory,
    ResourceRequirements,
    RestartPolicy,
    TaintEffect,
    TCPSocketAction,
    TerminationMessagePathDefault,
    TerminationMessagePolicy,
    Toleration,
    TolerationOperator,
    URIScheme,
    Volume,
    VolumeMount,
)
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity, QuantityError, parse_quantity
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta

__all__ = [
    "MAX_CONFIG_LENGTH",
    "DefaultFunc",
    "ManifestError",
    "load_pod_file",
    "load_pods",
    "load_pods_like_kubelet",
    "pod_from_dict",
    "pod_to_dict",
    "set_defaults_container",
    "set_defaults_http_get_action",
    "set_defaults_pod",
    "set_defaults_pod_spec",
    "set_defaults_probe",
    "set_defaults_resource_list",
    "set_defaults_volume",
    "set_object_defaults_pod",
]

#: The largest manifest kubelet reads: 10 MiB. Go: pkg/kubelet/config/common.go maxConfigLength
MAX_CONFIG_LENGTH = 10 * 1 << 20

_INT32 = (-(2**31), 2**31 - 1)
_INT64 = (-(2**63), 2**63 - 1)


# --- Errors --------------------------------------------------------------------------------


class ManifestError(Exception):
    """One problem in a manifest, with where it is.

    ``source`` is the file path or URL; ``document`` the 1-based number of the YAML document in
    the text (``None`` when the problem is with the whole text, e.g. it is not YAML at all);
    ``field`` a path to the field such as ``spec.containers[1].name`` (map keys in brackets:
    ``metadata.annotations[minikubelet.dev/scenario]``), or ``None`` for the whole document.

    ``str(error)`` reads ``manifests/web.yaml: document 2: spec.containers[1].name: duplicate
    name "app"``.
    """

    def __init__(self, source: str, document: int | None, field: str | None, message: str):
        self.source = source
        self.document = document
        self.field = field
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [self.source]
        if self.document is not None:
            parts.append(f"document {self.document}")
        if self.field:
            parts.append(self.field)
        parts.append(self.message)
        return ": ".join(parts)

    def __repr__(self) -> str:
        return (
            f"ManifestError(source={self.source!r}, document={self.document!r}, "
            f"field={self.field!r}, message={self.message!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ManifestError):
            return NotImplemented
        return (self.source, self.document, self.field, self.message) == (
            other.source,
            other.document,
            other.field,
            other.message,
        )

    def __hash__(self) -> int:
        return hash((self.source, self.document, self.field, self.message))


@dataclass(slots=True)
class _Problem:
    """A problem found while reading one document, before it is tied to a file."""

    field: str | None
    message: str


class _Problems(list[_Problem]):
    """The problems of one document, in the order they were found."""

    def add(self, path: str | None, message: str) -> None:
        self.append(_Problem(path or None, message))


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _index(path: str, i: int) -> str:
    return f"{path}[{i}]"


def _key(path: str, key: str) -> str:
    return f"{path}[{key}]"


# --- Reading YAML --------------------------------------------------------------------------

# The scalars PyYAML turns into ints and floats, minus YAML 1.1's base-60 numbers (``1:30`` is
# 90 to PyYAML): the YAML library kubelet uses keeps those as strings, and so do we.
_INT_RE = re.compile(
    r"""^(?:[-+]?0b[0-1_]+
    |[-+]?0[0-7_]+
    |[-+]?(?:0|[1-9][0-9_]*)
    |[-+]?0x[0-9a-fA-F_]+)$""",
    re.X,
)
_FLOAT_RE = re.compile(
    r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
    |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN))$""",
    re.X,
)


class _ManifestLoader(yaml.SafeLoader):
    """PyYAML's safe loader, tuned to read scalars as kubelet's YAML library does.

    Dates and times stay strings (``value: 2021-07-15`` is the string ``"2021-07-15"``, not a
    date), and so do base-60 numbers.
    """


_ManifestLoader.yaml_implicit_resolvers = {
    first: [
        (tag, _INT_RE if tag.endswith(":int") else _FLOAT_RE if tag.endswith(":float") else rx)
        for tag, rx in resolvers
        if not tag.endswith(":timestamp")
    ]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class _TextError(Exception):
    """The text as a whole could not be read (not YAML, not JSON)."""


def _is_json(text: str) -> bool:
    """Does the text start (after blanks) with ``{``? Then kubelet reads it as JSON, not YAML.

    Go: staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go hasJSONPrefix
    """
    return text.lstrip(" \t\r\n").startswith("{")


def _json_error(err: json.JSONDecodeError) -> str:
    return (
        f"not valid JSON (the text starts with '{{', so it is read as JSON, as kubelet "
        f"does): {err.msg} (line {err.lineno}, column {err.colno})"
    )


def _yaml_error(err: yaml.YAMLError) -> str:
    mark = getattr(err, "problem_mark", None)
    problem = getattr(err, "problem", None) or str(err)
    where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
    return f"not valid YAML: {problem}{where}"


def _documents(text: str) -> list[Any]:
    """Every document of ``text`` (``None`` for an empty one); raises ``_TextError``."""
    if _is_json(text):
        try:
            return [json.loads(text)]
        except json.JSONDecodeError as err:
            raise _TextError(_json_error(err)) from None
    try:
        return list(yaml.load_all(text, Loader=_ManifestLoader))
    except yaml.YAMLError as err:
        raise _TextError(_yaml_error(err)) from None


def _first_document(text: str) -> Any:
    """The first document only, as kubelet reads it; raises ``_TextError``.

    kubelet turns YAML into JSON with a YAML library call that decodes one document, so
    whatever follows the first ``---`` is never even parsed (see ``ToJSON`` in
    staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go).
    """
    if _is_json(text):
        try:
            return json.loads(text)
        except json.JSONDecodeError as err:
            raise _TextError(_json_error(err)) from None
    try:
        # The generator parses lazily: what follows the first document is never read.
        return next(iter(yaml.load_all(text, Loader=_ManifestLoader)), None)
    except yaml.YAMLError as err:
        raise _TextError(_yaml_error(err)) from None


# --- Decoding: plain data → dataclasses, with type checks -----------------------------------


def _describe(value: Any) -> str:
    """How a wrong value is shown in an error: its kind and, if short, itself."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({'true' if value else 'false'})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({value!r})"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"a string ({json.dumps(shown)})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return f"a {type(value).__name__}"


_E = TypeVar("_E", bound=StrEnum)
_T = TypeVar("_T")


class _Decoder:
    """Reads plain data into the API dataclasses, recording problems instead of raising.

    Each reading method takes ``data[key]`` at ``path``; a missing key or a ``null`` value
    gives the default (Go leaves the zero value); a value of the wrong type is recorded as a
    problem and the default is returned, so decoding goes on and reports every problem.
    """

    def __init__(self, problems: _Problems):
        self.problems = problems

    # -- scalars --

    def _wrong(self, path: str, expected: str, value: Any) -> None:
        hint = ""
        if expected == "a string" and isinstance(value, bool):
            hint = " (YAML reads yes/no/true/false/on/off unquoted as booleans: quote it)"
        elif expected == "a string" and isinstance(value, int | float):
            hint = " (put it in quotes)"
        self.problems.add(path, f"expected {expected}, got {_describe(value)}{hint}")

    def string(self, data: Mapping[str, Any], key: str, path: str, default: str = "") -> str:
        value = data.get(key)
        if value is None:
            return default
        if not isinstance(value, str):
            self._wrong(_join(path, key), "a string", value)
            return default
        return value

    def boolean(self, data: Mapping[str, Any], key: str, path: str) -> bool:
        value = data.get(key)
        if value is None:
            return False
        if not isinstance(value, bool):
            self._wrong(_join(path, key), "a boolean (true or false)", value)
            return False
        return value

    def integer(
        self, data: Mapping[str, Any], key: str, path: str, bits: tuple[int, int] = _INT32
    ) -> int | None:
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self._wrong(_join(path, key), "an integer", value)
            return None
        if not bits[0] <= value <= bits[1]:
            size = 32 if bits == _INT32 else 64
            self.problems.add(_join(path, key), f"{value} is out of range (a {size}-bit integer)")
            return None
        return value

    def enum(
        self, data: Mapping[str, Any], key: str, path: str, kind: type[_E], default: _E | None
    ) -> _E | None:
        # "" counts as not set: the API server's defaulting treats it so.
        value = data.get(key)
        if value is None or value == "":
            return default
        if not isinstance(value, str):
            self._wrong(_join(path, key), "a string", value)
            return default
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(json.dumps(m.value) for m in kind)
            self.problems.add(
                _join(path, key), f"unsupported value {json.dumps(value)}: must be one of {allowed}"
            )
            return default

    def time(self, data: Mapping[str, Any], key: str, path: str) -> float | None:
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, datetime):  # an explicit !!timestamp
            moment = value if value.tzinfo else value.replace(tzinfo=UTC)
            return moment.timestamp()
        if isinstance(value, str):
            try:
                moment = datetime.fromisoformat(value)
            except ValueError:
                pass
            else:
                if moment.tzinfo is not None:
                    return moment.timestamp()
        self.problems.add(
            _join(path, key),
            f'expected an RFC 3339 time such as "2021-07-15T00:00:00Z", got {_describe(value)}',
        )
        return None

    def int_or_string(self, data: Mapping[str, Any], key: str, path: str) -> int | str:
        value = data.get(key)
        if value is None:
            return 0
        if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
            return value
        self._wrong(_join(path, key), "a port number or name", value)
        return 0

    # -- collections --

    def mapping(self, data: Mapping[str, Any], key: str, path: str) -> Mapping[str, Any] | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, Mapping):
            self._wrong(_join(path, key), "a mapping", value)
            return None
        return value

    def items(self, data: Mapping[str, Any], key: str, path: str) -> list[Any]:
        value = data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self._wrong(_join(path, key), "a list", value)
            return []
        return value

    def objects(
        self,
        data: Mapping[str, Any],
        key: str,
        path: str,
        read: Callable[[Mapping[str, Any], str], _T],
    ) -> list[_T]:
        """A list of objects, each read by ``read(item, item_path)``."""
        out: list[_T] = []
        for i, item in enumerate(self.items(data, key, path)):
            item_path = _index(_join(path, key), i)
            if not isinstance(item, Mapping):
                self._wrong(item_path, "a mapping", item)
                continue
            out.append(read(item, item_path))
        return out

    def strings(self, data: Mapping[str, Any], key: str, path: str) -> list[str]:
        out: list[str] = []
        for i, item in enumerate(self.items(data, key, path)):
            if not isinstance(item, str):
                self._wrong(_index(_join(path, key), i), "a string", item)
                continue
            out.append(item)
        return out

    def string_map(self, data: Mapping[str, Any], key: str, path: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for k, v in (self.mapping(data, key, path) or {}).items():
            if not isinstance(k, str):
                self._wrong(_join(path, key), "string keys", k)
                continue
            if not isinstance(v, str):
                self._wrong(_key(_join(path, key), k), "a string", v)
                continue
            out[k] = v
        return out

    def opaque(self, data: Mapping[str, Any], key: str, path: str) -> dict[str, Any] | None:
        value = self.mapping(data, key, path)
        return None if value is None else _plain(value)

    def quantities(self, data: Mapping[str, Any], key: str, path: str) -> ResourceList:
        out: ResourceList = {}
        for name, raw in (self.mapping(data, key, path) or {}).items():
            where = _key(_join(path, key), str(name))
            if not isinstance(name, str):
                self._wrong(_join(path, key), "string keys", name)
                continue
            if isinstance(raw, bool) or not isinstance(raw, str | int | float):
                self._wrong(where, 'a quantity such as "500m" or "128Mi"', raw)
                continue
            text = raw.strip() if isinstance(raw, str) else repr(raw)
            try:
                out[name] = parse_quantity(text)
            except QuantityError as err:
                self.problems.add(where, str(err))
        return out

    # -- objects --

    def object_meta(self, data: Mapping[str, Any], path: str) -> ObjectMeta:
        """Go: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go type ObjectMeta"""
        return ObjectMeta(
            name=self.string(data, "name", path),
            namespace=self.string(data, "namespace", path),
            self_link=self.string(data, "selfLink", path),
            uid=self.string(data, "uid", path),
            resource_version=self.string(data, "resourceVersion", path),
            generation=self.integer(data, "generation", path, _INT64) or 0,
            creation_timestamp=self.time(data, "creationTimestamp", path),
            deletion_timestamp=self.time(data, "deletionTimestamp", path),
            deletion_grace_period_seconds=self.integer(
                data, "deletionGracePeriodSeconds", path, _INT64
            ),
            labels=self.string_map(data, "labels", path),
            annotations=self.string_map(data, "annotations", path),
        )

    def exec_action(self, data: Mapping[str, Any], path: str) -> ExecAction:
        return ExecAction(command=self.strings(data, "command", path))

    def http_get_action(self, data: Mapping[str, Any], path: str) -> HTTPGetAction:
        return HTTPGetAction(
            path=self.string(data, "path", path),
            port=self.int_or_string(data, "port", path),
            host=self.string(data, "host", path),
            scheme=self.enum(data, "scheme", path, URIScheme, URIScheme.HTTP),
            http_headers=self.objects(
                data,
                "httpHeaders",
                path,
                lambda d, p: HTTPHeader(
                    name=self.string(d, "name", p), value=self.string(d, "value", p)
                ),
            ),
        )

    def tcp_socket_action(self, data: Mapping[str, Any], path: str) -> TCPSocketAction:
        return TCPSocketAction(
            port=self.int_or_string(data, "port", path), host=self.string(data, "host", path)
        )

    def _handler_parts(
        self, data: Mapping[str, Any], path: str
    ) -> tuple[ExecAction | None, HTTPGetAction | None, TCPSocketAction | None]:
        exec_ = self.mapping(data, "exec", path)
        http = self.mapping(data, "httpGet", path)
        tcp = self.mapping(data, "tcpSocket", path)
        return (
            None if exec_ is None else self.exec_action(exec_, _join(path, "exec")),
            None if http is None else self.http_get_action(http, _join(path, "httpGet")),
            None if tcp is None else self.tcp_socket_action(tcp, _join(path, "tcpSocket")),
        )

    def handler(self, data: Mapping[str, Any], path: str) -> Handler:
        exec_, http, tcp = self._handler_parts(data, path)
        return Handler(exec=exec_, http_get=http, tcp_socket=tcp)

    def probe(self, data: Mapping[str, Any], key: str, path: str) -> Probe | None:
        raw = self.mapping(data, key, path)
        if raw is None:
            return None
        path = _join(path, key)
        exec_, http, tcp = self._handler_parts(raw, path)
        # Zero means "not set" to the API server; defaulting fills those in.
        return Probe(
            exec=exec_,
            http_get=http,
            tcp_socket=tcp,
            initial_delay_seconds=self.integer(raw, "initialDelaySeconds", path) or 0,
            timeout_seconds=self.integer(raw, "timeoutSeconds", path) or 0,
            period_seconds=self.integer(raw, "periodSeconds", path) or 0,
            success_threshold=self.integer(raw, "successThreshold", path) or 0,
            failure_threshold=self.integer(raw, "failureThreshold", path) or 0,
        )

    def lifecycle(self, data: Mapping[str, Any], path: str) -> Lifecycle | None:
        raw = self.mapping(data, "lifecycle", path)
        if raw is None:
            return None
        path = _join(path, "lifecycle")
        post_start = self.mapping(raw, "postStart", path)
        pre_stop = self.mapping(raw, "preStop", path)
        return Lifecycle(
            post_start=None
            if post_start is None
            else self.handler(post_start, _join(path, "postStart")),
            pre_stop=None if pre_stop is None else self.handler(pre_stop, _join(path, "preStop")),
        )

    def container_port(self, data: Mapping[str, Any], path: str) -> ContainerPort:
        return ContainerPort(
            container_port=self.integer(data, "containerPort", path) or 0,
            name=self.string(data, "name", path),
            host_port=self.integer(data, "hostPort", path) or 0,
            protocol=self.enum(data, "protocol", path, Protocol, Protocol.TCP),
            host_ip=self.string(data, "hostIP", path),
        )

    def env_var(self, data: Mapping[str, Any], path: str) -> EnvVar:
        return EnvVar(
            name=self.string(data, "name", path),
            value=self.string(data, "value", path),
            value_from=self.opaque(data, "valueFrom", path),
        )

    def volume_mount(self, data: Mapping[str, Any], path: str) -> VolumeMount:
        return VolumeMount(
            name=self.string(data, "name", path),
            mount_path=self.string(data, "mountPath", path),
            read_only=self.boolean(data, "readOnly", path),
            sub_path=self.string(data, "subPath", path),
        )

    def resources(self, data: Mapping[str, Any], path: str) -> ResourceRequirements:
        raw = self.mapping(data, "resources", path) or {}
        path = _join(path, "resources")
        return ResourceRequirements(
            limits=self.quantities(raw, "limits", path),
            requests=self.quantities(raw, "requests", path),
        )

    def container(self, data: Mapping[str, Any], path: str) -> Container:
        """Go: staging/src/k8s.io/api/core/v1/types.go type Container"""
        return Container(
            name=self.string(data, "name", path),
            image=self.string(data, "image", path),
            command=self.strings(data, "command", path),
            args=self.strings(data, "args", path),
            working_dir=self.string(data, "workingDir", path),
            ports=self.objects(data, "ports", path, self.container_port),
            env=self.objects(data, "env", path, self.env_var),
            resources=self.resources(data, path),
            volume_mounts=self.objects(data, "volumeMounts", path, self.volume_mount),
            liveness_probe=self.probe(data, "livenessProbe", path),
            readiness_probe=self.probe(data, "readinessProbe", path),
            startup_probe=self.probe(data, "startupProbe", path),
            lifecycle=self.lifecycle(data, path),
            termination_message_path=self.string(data, "terminationMessagePath", path),
            termination_message_policy=self.enum(
                data,
                "terminationMessagePolicy",
                path,
                TerminationMessagePolicy,
                TerminationMessagePolicy.READ_FILE,
            ),
            image_pull_policy=self.enum(data, "imagePullPolicy", path, PullPolicy, None),
            stdin=self.boolean(data, "stdin", path),
            stdin_once=self.boolean(data, "stdinOnce", path),
            tty=self.boolean(data, "tty", path),
        )

    def volume(self, data: Mapping[str, Any], path: str) -> Volume:
        source: dict[str, dict[str, Any]] = {}
        for kind in _VOLUME_SOURCES:
            settings = self.opaque(data, kind, path)
            if settings is not None:
                source[kind] = settings
        return Volume(name=self.string(data, "name", path), volume_source=source)

    def toleration(self, data: Mapping[str, Any], path: str) -> Toleration:
        return Toleration(
            key=self.string(data, "key", path),
            operator=self.enum(data, "operator", path, TolerationOperator, None),
            value=self.string(data, "value", path),
            effect=self.enum(data, "effect", path, TaintEffect, None),
            toleration_seconds=self.integer(data, "tolerationSeconds", path, _INT64),
        )

    def pod_spec(self, data: Mapping[str, Any], path: str) -> PodSpec:
        """Go: staging/src/k8s.io/api/core/v1/types.go type PodSpec"""
        return PodSpec(
            volumes=self.objects(data, "volumes", path, self.volume),
            init_containers=self.objects(data, "initContainers", path, self.container),
            containers=self.objects(data, "containers", path, self.container),
            restart_policy=self.enum(
                data, "restartPolicy", path, RestartPolicy, RestartPolicy.ALWAYS
            ),
            termination_grace_period_seconds=self.integer(
                data, "terminationGracePeriodSeconds", path, _INT64
            ),
            active_deadline_seconds=self.integer(data, "activeDeadlineSeconds", path, _INT64),
            dns_policy=self.enum(data, "dnsPolicy", path, DNSPolicy, DNSPolicy.CLUSTER_FIRST),
            service_account_name=self.string(data, "serviceAccountName", path),
            node_name=self.string(data, "nodeName", path),
            host_network=self.boolean(data, "hostNetwork", path),
            host_pid=self.boolean(data, "hostPID", path),
            host_ipc=self.boolean(data, "hostIPC", path),
            image_pull_secrets=self.objects(
                data,
                "imagePullSecrets",
                path,
                lambda d, p: LocalObjectReference(name=self.string(d, "name", p)),
            ),
            hostname=self.string(data, "hostname", path),
            subdomain=self.string(data, "subdomain", path),
            tolerations=self.objects(data, "tolerations", path, self.toleration),
            priority_class_name=self.string(data, "priorityClassName", path),
            priority=self.integer(data, "priority", path),
        )

    def container_state(self, data: Mapping[str, Any], key: str, path: str) -> ContainerState:
        raw = self.mapping(data, key, path) or {}
        path = _join(path, key)
        waiting = self.mapping(raw, "waiting", path)
        running = self.mapping(raw, "running", path)
        terminated = self.mapping(raw, "terminated", path)
        wpath, rpath, tpath = (_join(path, k) for k in ("waiting", "running", "terminated"))
        return ContainerState(
            waiting=None
            if waiting is None
            else ContainerStateWaiting(
                reason=self.string(waiting, "reason", wpath),
                message=self.string(waiting, "message", wpath),
            ),
            running=None
            if running is None
            else ContainerStateRunning(started_at=self.time(running, "startedAt", rpath)),
            terminated=None
            if terminated is None
            else ContainerStateTerminated(
                exit_code=self.integer(terminated, "exitCode", tpath) or 0,
                signal=self.integer(terminated, "signal", tpath) or 0,
                reason=self.string(terminated, "reason", tpath),
                message=self.string(terminated, "message", tpath),
                started_at=self.time(terminated, "startedAt", tpath),
                finished_at=self.time(terminated, "finishedAt", tpath),
                container_id=self.string(terminated, "containerID", tpath),
            ),
        )

    def container_status(self, data: Mapping[str, Any], path: str) -> ContainerStatus:
        started = data.get("started")
        if started is not None and not isinstance(started, bool):
            self._wrong(_join(path, "started"), "a boolean (true or false)", started)
            started = None
        if data.get("name") in (None, ""):
            self.problems.add(_join(path, "name"), "required")
        return ContainerStatus(
            name=self.string(data, "name", path),
            state=self.container_state(data, "state", path),
            last_state=self.container_state(data, "lastState", path),
            ready=self.boolean(data, "ready", path),
            restart_count=self.integer(data, "restartCount", path) or 0,
            image=self.string(data, "image", path),
            image_id=self.string(data, "imageID", path),
            container_id=self.string(data, "containerID", path),
            started=started,
        )

    def pod_condition(self, data: Mapping[str, Any], path: str) -> PodCondition:
        ctype = self.string(data, "type", path)
        status = self.enum(data, "status", path, ConditionStatus, None)
        if data.get("type") in (None, ""):
            self.problems.add(_join(path, "type"), "required")
        if data.get("status") in (None, ""):
            self.problems.add(_join(path, "status"), "required")
        return PodCondition(
            type=ctype,
            status=status or ConditionStatus.UNKNOWN,
            last_probe_time=self.time(data, "lastProbeTime", path),
            last_transition_time=self.time(data, "lastTransitionTime", path),
            reason=self.string(data, "reason", path),
            message=self.string(data, "message", path),
        )

    def pod_status(self, data: Mapping[str, Any], path: str) -> PodStatus:
        """Go: staging/src/k8s.io/api/core/v1/types.go type PodStatus"""
        return PodStatus(
            phase=self.enum(data, "phase", path, PodPhase, None),
            conditions=self.objects(data, "conditions", path, self.pod_condition),
            message=self.string(data, "message", path),
            reason=self.string(data, "reason", path),
            host_ip=self.string(data, "hostIP", path),
            pod_ip=self.string(data, "podIP", path),
            pod_ips=self.objects(
                data, "podIPs", path, lambda d, p: PodIP(ip=self.string(d, "ip", p))
            ),
            start_time=self.time(data, "startTime", path),
            init_container_statuses=self.objects(
                data, "initContainerStatuses", path, self.container_status
            ),
            container_statuses=self.objects(data, "containerStatuses", path, self.container_status),
            qos_class=self.enum(data, "qosClass", path, PodQOSClass, None),
        )

    def pod(self, data: Mapping[str, Any], path: str) -> Pod:
        """Go: staging/src/k8s.io/api/core/v1/types.go type Pod"""
        metadata = self.mapping(data, "metadata", path)
        spec = self.mapping(data, "spec", path)
        status = self.mapping(data, "status", path)
        if data.get("metadata") is None:
            self.problems.add(_join(path, "metadata"), "required: a pod needs a name")
        if data.get("spec") is None:
            self.problems.add(_join(path, "spec"), "required: a pod needs a spec with containers")
        return Pod(
            api_version="v1",
            kind="Pod",
            metadata=self.object_meta(metadata or {}, _join(path, "metadata")),
            spec=self.pod_spec(spec or {}, _join(path, "spec")),
            status=self.pod_status(status or {}, _join(path, "status")),
        )


#: The kinds of volume a Volume may have, spelled as in YAML (the fields of Go's VolumeSource).
_VOLUME_SOURCES = (
    "hostPath",
    "emptyDir",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "gitRepo",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "persistentVolumeClaim",
    "rbd",
    "flexVolume",
    "cinder",
    "cephfs",
    "flocker",
    "downwardAPI",
    "fc",
    "azureFile",
    "configMap",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "projected",
    "portworxVolume",
    "scaleIO",
    "storageos",
    "csi",
    "ephemeral",
)


def _plain(value: Any) -> Any:
    """A deep copy of plain data (mappings become dicts), for fields kept as written."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


# --- Defaulting ----------------------------------------------------------------------------


def set_object_defaults_pod(pod: Pod) -> None:
    """Fill in every field the API server defaults, in place (what decoding a pod does in Go).

    Go: pkg/apis/core/v1/zz_generated.defaults.go SetObjectDefaults_Pod
    """
    set_defaults_pod(pod)
    set_defaults_pod_spec(pod.spec)
    for volume in pod.spec.volumes:
        set_defaults_volume(volume)
    for container in [*pod.spec.init_containers, *pod.spec.containers]:
        set_defaults_container(container)
        for port in container.ports:
            if not port.protocol:
                port.protocol = Protocol.TCP
        container.resources.limits = set_defaults_resource_list(container.resources.limits)
        container.resources.requests = set_defaults_resource_list(container.resources.requests)
        for probe in (container.liveness_probe, container.readiness_probe, container.startup_probe):
            if probe is not None:
                set_defaults_probe(probe)
                if probe.http_get is not None:
                    set_defaults_http_get_action(probe.http_get)
        if container.lifecycle is not None:
            for hook in (container.lifecycle.post_start, container.lifecycle.pre_stop):
                if hook is not None and hook.http_get is not None:
                    set_defaults_http_get_action(hook.http_get)


def set_defaults_pod(pod: Pod) -> None:
    """A container with limits but no request for a resource requests its limit.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_Pod
    """
    for container in [*pod.spec.containers, *pod.spec.init_containers]:
        resources = container.resources
        for name, limit in resources.limits.items():
            resources.requests.setdefault(name, limit)


def set_defaults_pod_spec(spec: PodSpec) -> None:
    """DNS and restart policy, host ports on the host network, the termination grace period.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_PodSpec
    """
    if not spec.dns_policy:
        spec.dns_policy = DNSPolicy.CLUSTER_FIRST
    if not spec.restart_policy:
        spec.restart_policy = RestartPolicy.ALWAYS
    if spec.host_network:
        # On the host's network a container port *is* a host port.
        for container in [*spec.containers, *spec.init_containers]:
            for port in container.ports:
                if port.host_port == 0:
                    port.host_port = port.container_port
    if spec.termination_grace_period_seconds is None:
        spec.termination_grace_period_seconds = DefaultTerminationGracePeriodSeconds


def set_defaults_container(container: Container) -> None:
    """Image pull policy from the image's tag; where the termination message is read from.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_Container

    No tag (or ``:latest``) means the image may change under the same name, so kubelet pulls it
    every time (``Always``); any other tag, or a digest, is pulled only if missing.
    """
    if not container.image_pull_policy:
        if _image_tag(container.image) == "latest":
            container.image_pull_policy = PullPolicy.ALWAYS
        else:
            container.image_pull_policy = PullPolicy.IF_NOT_PRESENT
    if not container.termination_message_path:
        container.termination_message_path = TerminationMessagePathDefault
    if not container.termination_message_policy:
        container.termination_message_policy = TerminationMessagePolicy.READ_FILE


def set_defaults_probe(probe: Probe) -> None:
    """A probe's timings: zero means "not set" and gets the API's default.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_Probe
    """
    if probe.timeout_seconds == 0:
        probe.timeout_seconds = 1
    if probe.period_seconds == 0:
        probe.period_seconds = 10
    if probe.success_threshold == 0:
        probe.success_threshold = 1
    if probe.failure_threshold == 0:
        probe.failure_threshold = 3


def set_defaults_http_get_action(action: HTTPGetAction) -> None:
    """An HTTP probe asks for ``/`` over plain HTTP unless told otherwise.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_HTTPGetAction
    """
    if action.path == "":
        action.path = "/"
    if not action.scheme:
        action.scheme = URIScheme.HTTP


def set_defaults_volume(volume: Volume) -> None:
    """A volume that names no source is an empty directory.

    Go: pkg/apis/core/v1/defaults.go SetDefaults_Volume
    """
    if not volume.volume_source:
        volume.volume_source = {"emptyDir": {}}


def set_defaults_resource_list(resources: ResourceList) -> ResourceList:
    """Every quantity rounded up to a thousandth (``"0.1m"`` of CPU becomes ``"1m"``).

    Go: pkg/apis/core/v1/defaults.go SetDefaults_ResourceList

    Returns the list (a new dict); Go rounds the quantities in place.
    """
    return {name: quantity.round_up(-3) for name, quantity in resources.items()}


# Image references, after the grammar of container image names ("registry/path:tag@digest").
_IMAGE_PATH_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
_IMAGE_DOMAIN = (
    r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
    r"(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?"
)
_IMAGE_REFERENCE = re.compile(
    rf"^(?:(?P<domain>{_IMAGE_DOMAIN})/)?"
    rf"(?P<path>{_IMAGE_PATH_COMPONENT}(?:/{_IMAGE_PATH_COMPONENT})*)"
    r"(?::(?P<tag>[\w][\w.-]{0,127}))?"
    r"(?:@(?P<digest>[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$"
)


def _image_tag(image: str) -> str:
    """The tag of an image reference; ``"latest"`` when it has neither tag nor digest, ``""``
    when it has only a digest or is not a valid reference.

    Go: pkg/util/parsers/parsers.go ParseImageName
    """
    # The first component is a registry when it looks like one (has '.' or ':', is
    # "localhost", or has capitals); otherwise the name is on the default registry.
    first, slash, _ = image.partition("/")
    looks_like_domain = bool(slash) and (
        any(c in first for c in ".:") or first == "localhost" or first.lower() != first
    )
    match = _IMAGE_REFERENCE.match(image if looks_like_domain else f"docker.io/{image}")
    if match is None or len(match.group("domain") or "") + len(match.group("path")) + 1 > 255:
        return ""
    if re.fullmatch(r"[a-f0-9]{64}", match.group("path")):
        return ""  # a bare 64-hex identifier is not a name
    tag, digest = match.group("tag"), match.group("digest")
    if not tag and not digest:
        return "latest"
    return tag or ""


# --- Validation ----------------------------------------------------------------------------

_DNS1123_LABEL = r"[a-z0-9](?:[-a-z0-9]*[a-z0-9])?"
_DNS1123_LABEL_RE = re.compile(_DNS1123_LABEL)
_DNS1123_SUBDOMAIN_RE = re.compile(rf"{_DNS1123_LABEL}(?:\.{_DNS1123_LABEL})*")
_QUALIFIED_NAME_RE = re.compile(r"(?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_LABEL_VALUE_RE = re.compile(r"(?:(?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?")
_ENV_VAR_NAME_RE = re.compile(r"[-._a-zA-Z][-._a-zA-Z0-9]*")
_PORT_NAME_RE = re.compile(r"[-a-z0-9]+")
_TOTAL_ANNOTATION_SIZE_LIMIT = 256 * (1 << 10)


def _dns1123_label_problem(value: str) -> str | None:
    if len(value) > 63 or not _DNS1123_LABEL_RE.fullmatch(value):
        return (
            f"invalid name {json.dumps(value)}: must be at most 63 characters of lowercase "
            "letters, digits and '-', starting and ending with a letter or digit "
            "(a DNS-1123 label)"
        )
    return None


def _dns1123_subdomain_problem(value: str) -> str | None:
    if len(value) > 253 or not _DNS1123_SUBDOMAIN_RE.fullmatch(value):
        return (
            f"invalid name {json.dumps(value)}: must be at most 253 characters of lowercase "
            "letters, digits, '-' and '.', starting and ending with a letter or digit "
            "(a DNS-1123 subdomain)"
        )
    return None


def _qualified_name_problem(value: str) -> str | None:
    prefix, slash, name = value.rpartition("/")
    if slash and (not prefix or _dns1123_subdomain_problem(prefix)):
        return f"invalid key {json.dumps(value)}: the prefix before '/' must be a DNS subdomain"
    if len(name) > 63 or not _QUALIFIED_NAME_RE.fullmatch(name):
        return (
            f"invalid key {json.dumps(value)}: the name must be at most 63 characters of "
            "letters, digits, '-', '_' and '.', starting and ending with a letter or digit, "
            "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/my-key')"
        )
    return None


def _port_name_problem(value: str) -> str | None:
    if (
        len(value) > 15
        or not _PORT_NAME_RE.fullmatch(value)
        or not any(c.isalpha() for c in value)
        or value.startswith("-")
        or value.endswith("-")
        or "--" in value
    ):
        return (
            f"invalid port name {json.dumps(value)}: must be at most 15 characters of lowercase "
            "letters, digits and '-', with at least one letter, not starting or ending with "
            "'-' and without '--' (an IANA service name)"
        )
    return None


def _port_number_problem(value: int) -> str | None:
    if not 1 <= value <= 65535:
        return f"invalid port {value}: must be between 1 and 65535"
    return None


class _Validator:
    """The checks of the API server's pod validation that apply to the fields kept here.

    They follow ``ValidatePodCreate`` in pkg/apis/core/validation/validation.go, checks and
    order; the messages are our own.
    """

    def __init__(self, problems: _Problems):
        self.problems = problems

    def add(self, path: str, message: str) -> None:
        self.problems.add(path, message)

    def pod(self, pod: Pod, path: str) -> None:
        self.object_meta(pod.metadata, _join(path, "metadata"))
        self.pod_spec(pod.spec, _join(path, "spec"))

    def object_meta(self, meta: ObjectMeta, path: str) -> None:
        if not meta.name:
            self.add(_join(path, "name"), "required")
        elif problem := _dns1123_subdomain_problem(meta.name):
            self.add(_join(path, "name"), problem)
        if meta.namespace and (problem := _dns1123_label_problem(meta.namespace)):
            self.add(_join(path, "namespace"), problem.replace("invalid name", "invalid namespace"))
        if meta.generation < 0:
            self.add(_join(path, "generation"), f"must not be negative, got {meta.generation}")
        for key, value in meta.labels.items():
            where = _key(_join(path, "labels"), key)
            if problem := _qualified_name_problem(key):
                self.add(where, problem)
            if len(value) > 63 or not _LABEL_VALUE_RE.fullmatch(value):
                self.add(
                    where,
                    f"invalid label value {json.dumps(value)}: must be empty or at most 63 "
                    "characters of letters, digits, '-', '_' and '.', starting and ending with "
                    "a letter or digit",
                )
        total = 0
        for key, value in meta.annotations.items():
            total += len(key) + len(value)
            if problem := _qualified_name_problem(key.lower()):
                self.add(_key(_join(path, "annotations"), key), problem)
        if total > _TOTAL_ANNOTATION_SIZE_LIMIT:
            self.add(
                _join(path, "annotations"),
                f"annotations are too long: {total} bytes, at most "
                f"{_TOTAL_ANNOTATION_SIZE_LIMIT} allowed",
            )

    def pod_spec(self, spec: PodSpec, path: str) -> None:
        volume_names = self.volumes(spec.volumes, _join(path, "volumes"))
        self.containers(spec.containers, volume_names, _join(path, "containers"), init=False)
        self.init_containers(spec, volume_names, _join(path, "initContainers"))
        for field_name, value in (
            ("serviceAccountName", spec.service_account_name),
            ("nodeName", spec.node_name),
        ):
            if value and (problem := _dns1123_subdomain_problem(value)):
                self.add(_join(path, field_name), problem)
        if spec.active_deadline_seconds is not None and not (
            1 <= spec.active_deadline_seconds <= _INT32[1]
        ):
            self.add(
                _join(path, "activeDeadlineSeconds"),
                f"must be between 1 and {_INT32[1]}, got {spec.active_deadline_seconds}",
            )
        for field_name, value in (("hostname", spec.hostname), ("subdomain", spec.subdomain)):
            if value and (problem := _dns1123_label_problem(value)):
                self.add(_join(path, field_name), problem)
        for i, toleration in enumerate(spec.tolerations):
            self.toleration(toleration, _index(_join(path, "tolerations"), i))
        if spec.priority_class_name and (
            problem := _dns1123_subdomain_problem(spec.priority_class_name)
        ):
            self.add(_join(path, "priorityClassName"), problem)

    def volumes(self, volumes: list[Volume], path: str) -> set[str]:
        names: set[str] = set()
        for i, volume in enumerate(volumes):
            where = _index(path, i)
            if not volume.name:
                self.add(_join(where, "name"), "required")
            elif problem := _dns1123_label_problem(volume.name):
                self.add(_join(where, "name"), problem)
            elif volume.name in names:
                self.add(_join(where, "name"), f"duplicate name {json.dumps(volume.name)}")
            names.add(volume.name)
            if len(volume.volume_source) > 1:
                kinds = ", ".join(volume.volume_source)
                self.add(where, f"may not specify more than 1 volume type (got {kinds})")
        return names

    def containers(
        self, containers: list[Container], volume_names: set[str], path: str, *, init: bool
    ) -> None:
        if not containers:
            if not init:
                self.add(path, "required: a pod needs at least one container")
            return
        names: set[str] = set()
        for i, container in enumerate(containers):
            where = _index(path, i)
            if not container.name:
                self.add(_join(where, "name"), "required")
            elif problem := _dns1123_label_problem(container.name):
                self.add(_join(where, "name"), problem)
            elif container.name in names:
                self.add(_join(where, "name"), f"duplicate name {json.dumps(container.name)}")
            names.add(container.name)
            if not container.image:
                self.add(_join(where, "image"), "required")
            if container.lifecycle is not None and not init:
                for hook_name, hook in (
                    ("postStart", container.lifecycle.post_start),
                    ("preStop", container.lifecycle.pre_stop),
                ):
                    if hook is not None:
                        self.handler(hook, _join(_join(where, "lifecycle"), hook_name))
            if not init:
                self.probe(container.liveness_probe, _join(where, "livenessProbe"), one=True)
                self.probe(container.startup_probe, _join(where, "startupProbe"), one=True)
                self.probe(container.readiness_probe, _join(where, "readinessProbe"))
            self.ports(container.ports, _join(where, "ports"))
            self.env(container.env, _join(where, "env"))
            self.volume_mounts(container.volume_mounts, volume_names, _join(where, "volumeMounts"))
            self.resources(container.resources, _join(where, "resources"))
        # Host ports may not collide: across all containers, or within one init container
        # (init containers run one at a time).
        groups = [[c] for c in containers] if init else [containers]
        offset = 0
        for group in groups:
            seen: set[str] = set()
            for j, container in enumerate(group):
                for k, port in enumerate(container.ports):
                    if port.host_port == 0:
                        continue
                    key = f"{port.protocol}/{port.host_ip}/{port.host_port}"
                    if key in seen:
                        where = _index(_join(_index(path, offset + j), "ports"), k)
                        self.add(_join(where, "hostPort"), f"duplicate host port {key}")
                    seen.add(key)
            offset += len(group)

    def init_containers(self, spec: PodSpec, volume_names: set[str], path: str) -> None:
        self.containers(spec.init_containers, volume_names, path, init=True)
        # Names are unique across both lists (duplicates among init containers were reported
        # just above, so only the app containers' names are checked here).
        names = {c.name for c in spec.containers if c.name}
        for i, container in enumerate(spec.init_containers):
            where = _index(path, i)
            if container.name in names:
                self.add(_join(where, "name"), f"duplicate name {json.dumps(container.name)}")
            for field_name, value in (
                ("lifecycle", container.lifecycle),
                ("livenessProbe", container.liveness_probe),
                ("readinessProbe", container.readiness_probe),
                ("startupProbe", container.startup_probe),
            ):
                if value is not None:
                    self.add(_join(where, field_name), "must not be set for init containers")

    def probe(self, probe: Probe | None, path: str, *, one: bool = False) -> None:
        if probe is None:
            return
        self.handler(probe.handler, path)
        for field_name, value in (
            ("initialDelaySeconds", probe.initial_delay_seconds),
            ("timeoutSeconds", probe.timeout_seconds),
            ("periodSeconds", probe.period_seconds),
            ("successThreshold", probe.success_threshold),
            ("failureThreshold", probe.failure_threshold),
        ):
            if value < 0:
                self.add(_join(path, field_name), f"must not be negative, got {value}")
        if one and probe.success_threshold != 1:
            self.add(
                _join(path, "successThreshold"),
                f"must be 1 for liveness and startup probes, got {probe.success_threshold}",
            )

    def handler(self, handler: Handler, path: str) -> None:
        count = 0
        for field_name, action in (
            ("exec", handler.exec),
            ("httpGet", handler.http_get),
            ("tcpSocket", handler.tcp_socket),
        ):
            if action is None:
                continue
            where = _join(path, field_name)
            if count:
                self.add(where, "may not specify more than 1 handler type")
                continue
            count += 1
            if isinstance(action, ExecAction):
                if not action.command:
                    self.add(_join(where, "command"), "required")
            elif isinstance(action, HTTPGetAction):
                if not action.path:
                    self.add(_join(where, "path"), "required")
                self.port_number_or_name(action.port, _join(where, "port"))
            else:
                self.port_number_or_name(action.port, _join(where, "port"))
        if count == 0:
            self.add(path, "must specify a handler type: exec, httpGet or tcpSocket")

    def port_number_or_name(self, port: int | str, path: str) -> None:
        number = isinstance(port, int)
        problem = _port_number_problem(port) if number else _port_name_problem(str(port))
        if problem:
            self.add(path, problem)

    def ports(self, ports: list[ContainerPort], path: str) -> None:
        names: set[str] = set()
        for i, port in enumerate(ports):
            where = _index(path, i)
            if port.name:
                if problem := _port_name_problem(port.name):
                    self.add(_join(where, "name"), problem)
                elif port.name in names:
                    self.add(_join(where, "name"), f"duplicate name {json.dumps(port.name)}")
                names.add(port.name)
            if port.container_port == 0:
                self.add(_join(where, "containerPort"), "required")
            elif problem := _port_number_problem(port.container_port):
                self.add(_join(where, "containerPort"), problem)
            if port.host_port != 0 and (problem := _port_number_problem(port.host_port)):
                self.add(_join(where, "hostPort"), problem)

    def env(self, env: list[EnvVar], path: str) -> None:
        for i, var in enumerate(env):
            where = _join(_index(path, i), "name")
            if not var.name:
                self.add(where, "required")
            elif (
                not _ENV_VAR_NAME_RE.fullmatch(var.name)
                or var.name in (".", "..")
                or var.name.startswith("..")
            ):
                self.add(
                    where,
                    f"invalid environment variable name {json.dumps(var.name)}: must consist "
                    "of letters, digits, '_', '-' and '.', and must not start with a digit",
                )

    def volume_mounts(self, mounts: list[VolumeMount], volume_names: set[str], path: str) -> None:
        mount_paths: set[str] = set()
        for i, mount in enumerate(mounts):
            where = _index(path, i)
            if not mount.name:
                self.add(_join(where, "name"), "required")
            elif mount.name not in volume_names:
                self.add(
                    _join(where, "name"),
                    f"not found: the pod has no volume named {json.dumps(mount.name)}",
                )
            if not mount.mount_path:
                self.add(_join(where, "mountPath"), "required")
            elif mount.mount_path in mount_paths:
                self.add(
                    _join(where, "mountPath"),
                    f"duplicate mount path {json.dumps(mount.mount_path)}",
                )
            mount_paths.add(mount.mount_path)

    def resource_name(self, name: str, path: str) -> bool:
        """Is ``name`` a resource a container may ask for? Records a problem if not."""
        if "/" not in name:
            if name in (ResourceCPU, ResourceMemory, ResourceEphemeralStorage) or name.startswith(
                ResourceHugePagesPrefix
            ):
                return True
            self.add(
                path,
                f"unsupported resource {json.dumps(name)}: a container may ask for cpu, memory, "
                "ephemeral-storage, hugepages-<size> or an extended resource such as "
                "example.com/gpu",
            )
            return False
        if problem := _qualified_name_problem(name):
            self.add(path, problem.replace("invalid key", "invalid resource name"))
            return False
        if not _is_native(name) and not _is_extended(name):
            self.add(
                path, f'invalid resource name {json.dumps(name)}: may not start with "requests."'
            )
            return False
        return True

    def resources(self, resources: ResourceRequirements, path: str) -> None:
        limits_path, requests_path = _join(path, "limits"), _join(path, "requests")
        has_cpu_or_memory = has_hugepages = False
        for kind, where_root, resource_list in (
            ("limits", limits_path, resources.limits),
            ("requests", requests_path, resources.requests),
        ):
            for name, quantity in resource_list.items():
                where = _key(where_root, name)
                if not self.resource_name(name, where):
                    continue
                if quantity.sign() < 0:
                    self.add(
                        where, f"must not be negative, got {json.dumps(_quantity_text(quantity))}"
                    )
                elif _is_extended(name) and quantity.amount.denominator != 1:
                    self.add(
                        where, f"must be a whole number, got {json.dumps(_quantity_text(quantity))}"
                    )
                has_cpu_or_memory |= name in (ResourceCPU, ResourceMemory)
                has_hugepages |= name.startswith(ResourceHugePagesPrefix)
                if kind == "limits":
                    continue
                limit = resources.limits.get(name)
                overcommit = _overcommit_allowed(name)
                if limit is None:
                    if not overcommit:
                        self.add(
                            _key(limits_path, name),
                            f"required: a request for {name} needs a limit (and they must match)",
                        )
                elif not overcommit and quantity.cmp(limit) != 0:
                    self.add(
                        where,
                        f"must be equal to the {name} limit (request "
                        f"{json.dumps(_quantity_text(quantity))}, limit "
                        f"{json.dumps(_quantity_text(limit))})",
                    )
                elif quantity.cmp(limit) > 0:
                    self.add(
                        where,
                        f"must be less than or equal to the {name} limit (request "
                        f"{json.dumps(_quantity_text(quantity))}, limit "
                        f"{json.dumps(_quantity_text(limit))})",
                    )
        if has_hugepages and not has_cpu_or_memory:
            self.add(path, "hugepages require a cpu or memory request or limit")

    def toleration(self, toleration: Toleration, path: str) -> None:
        if toleration.key and (problem := _qualified_name_problem(toleration.key)):
            self.add(_join(path, "key"), problem)
        if not toleration.key and toleration.operator is not TolerationOperator.EXISTS:
            self.add(
                _join(path, "operator"),
                'must be "Exists" when key is empty (an empty key with Exists matches every taint)',
            )
        if toleration.operator is TolerationOperator.EXISTS and toleration.value:
            self.add(_join(path, "value"), 'must be empty when operator is "Exists"')
        if toleration.toleration_seconds is not None and (
            toleration.effect is not TaintEffect.NO_EXECUTE
        ):
            self.add(_join(path, "effect"), 'must be "NoExecute" when tolerationSeconds is set')


def _is_native(name: str) -> bool:
    return "/" not in name or ResourceDefaultNamespacePrefix in name


def _is_extended(name: str) -> bool:
    return not _is_native(name) and not name.startswith("requests.")


def _overcommit_allowed(name: str) -> bool:
    """May a request be below its limit? Not for hugepages nor extended resources."""
    return _is_native(name) and not name.startswith(ResourceHugePagesPrefix)


def _quantity_text(quantity: Quantity) -> str:
    return quantity.text if quantity.text is not None else str(quantity)


# --- One document, many documents, files -----------------------------------------------------


def _check_type_meta(data: Any, kinds: tuple[str, ...], problems: _Problems) -> str | None:
    """The document's kind if it is a mapping with ``apiVersion: v1`` and an accepted kind."""
    if not isinstance(data, Mapping):
        problems.add(None, f"expected a mapping (a Pod object), got {_describe(data)}")
        return None
    accepted = " or ".join(json.dumps(k) for k in kinds)
    api_version, kind = data.get("apiVersion"), data.get("kind")
    if api_version in (None, ""):
        problems.add("apiVersion", 'required: must be "v1"')
    elif api_version != "v1":
        problems.add(
            "apiVersion",
            f'unsupported apiVersion {json.dumps(api_version)}: a Pod\'s apiVersion is "v1"',
        )
    if kind in (None, ""):
        problems.add("kind", f"required: must be {accepted}")
    elif kind not in kinds:
        if kind == "PodList":
            hint = " (kubelet reads one Pod per file; it accepts a PodList only from a URL)"
        else:
            hint = " (kubelet runs pods only)"
        problems.add("kind", f"unsupported kind {json.dumps(kind)}: must be {accepted}{hint}")
    return kind if not problems else None


#: A function that changes a decoded, defaulted pod before it is validated: kubelet's config
#: layer passes its own defaulting (UID, node-suffixed name, namespace …) this way.
DefaultFunc = Callable[[Pod], None]


def _decode_pod(
    data: Mapping[str, Any], path: str, problems: _Problems, default_fn: DefaultFunc | None
) -> Pod | None:
    """Decode, default and validate one pod; None if it has any problem."""
    before = len(problems)
    pod = _Decoder(problems).pod(data, path)
    if len(problems) > before:
        return None  # as in Go, a pod that does not decode is not validated
    set_object_defaults_pod(pod)
    if default_fn is not None:
        default_fn(pod)
    _Validator(problems).pod(pod, path)
    return pod if len(problems) == before else None


def _decode_document(
    data: Any, kinds: tuple[str, ...], default_fn: DefaultFunc | None
) -> tuple[list[Pod], _Problems]:
    """The pods of one document (a Pod, or a PodList if ``kinds`` allows), all or none."""
    problems = _Problems()
    kind = _check_type_meta(data, kinds, problems)
    if kind is None:
        return [], problems
    if kind == "Pod":
        pod = _decode_pod(data, "", problems, default_fn)
        return ([pod] if pod is not None else []), problems
    # A PodList: one bad pod rejects the whole list, as in kubelet's tryDecodePodList.
    pods: list[Pod] = []
    decoder = _Decoder(problems)
    for i, item in enumerate(decoder.items(data, "items", "")):
        path = _index("items", i)
        if not isinstance(item, Mapping):
            problems.add(path, f"expected a mapping (a Pod object), got {_describe(item)}")
            continue
        # Items of a PodList may leave out apiVersion and kind; if given, they must be a Pod's.
        if item.get("apiVersion") not in (None, "", "v1"):
            problems.add(_join(path, "apiVersion"), 'must be "v1" (or left out)')
        if item.get("kind") not in (None, "", "Pod"):
            problems.add(_join(path, "kind"), 'must be "Pod" (or left out)')
        pod = _decode_pod(item, path, problems, default_fn)
        if pod is not None:
            pods.append(pod)
    return (pods if not problems else []), problems


def _errors(source: str, document: int | None, problems: _Problems) -> list[ManifestError]:
    return [ManifestError(source, document, p.field, p.message) for p in problems]


def load_pods(
    text: str, source: str, *, default_fn: DefaultFunc | None = None
) -> tuple[list[Pod], list[ManifestError]]:
    """Every pod in ``text``: each YAML document is a ``Pod`` or a ``PodList``.

    Returns the pods of every good document, in order, and the errors of the others. Empty
    documents (a trailing ``---``, comments only) are skipped. Documents are numbered from 1 in
    the order they appear, empty ones included, so ``document 2`` is what follows the first
    ``---`` separator. If the text is not YAML at all (or starts with ``{`` and is not JSON), no
    document can be trusted: the result is one error with ``document=None`` and no pods.

    ``source`` is only used in errors (a file path or a URL). ``default_fn``, if given, is
    called on each pod after the API's defaulting and before validation, as kubelet calls its
    own defaulting (see [`load_pods_like_kubelet`][]).
    """
    try:
        documents = _documents(text)
    except _TextError as err:
        return [], [ManifestError(source, None, None, str(err))]
    pods: list[Pod] = []
    errors: list[ManifestError] = []
    for number, data in enumerate(documents, start=1):
        if data is None:
            continue
        found, problems = _decode_document(data, ("Pod", "PodList"), default_fn)
        pods.extend(found)
        errors.extend(_errors(source, number, problems))
    return pods, errors


def load_pods_like_kubelet(
    text: str,
    source: str,
    *,
    allow_pod_list: bool = False,
    default_fn: DefaultFunc | None = None,
) -> tuple[list[Pod], list[ManifestError]]:
    """The pods kubelet v1.21 would take from ``text``: all of them, or none.

    What ``tryDecodeSinglePod`` (and, for lists, ``tryDecodePodList``) in
    pkg/kubelet/config/common.go accept. Only the first YAML document is read; anything after
    the first ``---`` is ignored without a word, as kubelet ignores it. The document must be a
    ``Pod``; with ``allow_pod_list=True`` (kubelet's HTTP source tries a list when a single pod
    does not decode) it may also be a ``PodList``, which is rejected whole if one of its pods is
    bad. An empty text is an error, as it is to kubelet. Errors carry ``document=1``, or
    ``None`` for unreadable text.

    ``default_fn`` is kubelet's ``defaultFn`` argument: it is called on each decoded pod after
    the API's defaulting and *before* validation, so that what it sets is validated too (e.g. a
    static pod's name with the node name appended must still be at most 253 characters).
    """
    try:
        data = _first_document(text)
    except _TextError as err:
        return [], [ManifestError(source, None, None, str(err))]
    if data is None:
        return [], [ManifestError(source, 1, None, "no pod: the text is empty")]
    kinds = ("Pod", "PodList") if allow_pod_list else ("Pod",)
    pods, problems = _decode_document(data, kinds, default_fn)
    return pods, _errors(source, 1, problems)


def load_pod_file(
    path: str | os.PathLike[str], *, like_kubelet: bool = False
) -> tuple[list[Pod], list[ManifestError]]:
    """The pods of one manifest file; see [`load_pods`][] for what is read and reported.

    With ``like_kubelet=True`` the file is read as kubelet's file source reads it
    (``extractFromFile`` in pkg/kubelet/config/file.go), with [`load_pods_like_kubelet`][]:
    first document only, a single ``Pod``, all or nothing.
    Either way, as in kubelet, a file larger than ``MAX_CONFIG_LENGTH`` (10 MiB) is refused
    whole. Errors name the file as ``path`` was given.
    """
    source = os.fspath(path)
    try:
        with Path(path).open("rb") as stream:
            data = stream.read(MAX_CONFIG_LENGTH + 1)
    except OSError as err:
        return [], [ManifestError(source, None, None, f"cannot read: {err.strerror or err}")]
    if len(data) > MAX_CONFIG_LENGTH:
        return [], [
            ManifestError(
                source, None, None, f"too large: kubelet reads at most {MAX_CONFIG_LENGTH} bytes"
            )
        ]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        return [], [
            ManifestError(source, None, None, f"not UTF-8 text: {err.reason} at byte {err.start}")
        ]
    if like_kubelet:
        return load_pods_like_kubelet(text, source, allow_pod_list=False)
    return load_pods(text, source)


def pod_from_dict(data: Mapping[str, Any], *, source: str = "<dict>") -> Pod:
    """One pod from plain data (as ``yaml.safe_load`` or ``json.loads`` return it).

    Decoded, defaulted and validated like a document of [`load_pods`][]; raises the first
    [`ManifestError`][] (``document=None``) if there is any problem.
    """
    problems = _Problems()
    pod: Pod | None = None
    if _check_type_meta(data, ("Pod",), problems) is not None:
        pod = _decode_pod(data, "", problems, None)
    if pod is None or problems:
        first = problems[0]
        raise ManifestError(source, None, first.field, first.message)
    return pod


# --- Writing back ----------------------------------------------------------------------------


def _time_text(t: float) -> str:
    """RFC 3339 in UTC, as Go writes a ``metav1.Time`` (with microseconds if it has any)."""
    moment = datetime.fromtimestamp(t, UTC)
    if moment.microsecond:
        return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _compact(**fields: Any) -> dict[str, Any]:
    """The fields that carry something (Go's ``omitempty``): no None, "", [], {}, 0, False.

    Fields where 0 means something (Go's pointers, ``*int64``) are added by the callers.
    """
    return {k: v for k, v in fields.items() if v}


def _handler_dict(exec_: Any, http: Any, tcp: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if exec_ is not None:
        out["exec"] = {"command": list(exec_.command)}
    if http is not None:
        out["httpGet"] = _compact(
            path=http.path,
            port=http.port,
            host=http.host,
            scheme=str(http.scheme),
            httpHeaders=[{"name": h.name, "value": h.value} for h in http.http_headers],
        )
        out["httpGet"]["port"] = http.port
    if tcp is not None:
        out["tcpSocket"] = _compact(host=tcp.host)
        out["tcpSocket"]["port"] = tcp.port
    return out


def _probe_dict(probe: Probe | None) -> dict[str, Any] | None:
    if probe is None:
        return None
    return {
        **_handler_dict(probe.exec, probe.http_get, probe.tcp_socket),
        "initialDelaySeconds": probe.initial_delay_seconds,
        "timeoutSeconds": probe.timeout_seconds,
        "periodSeconds": probe.period_seconds,
        "successThreshold": probe.success_threshold,
        "failureThreshold": probe.failure_threshold,
    }


def _resources_dict(resources: ResourceList) -> dict[str, str]:
    return {name: _quantity_text(q) for name, q in resources.items()}


def _container_dict(c: Container) -> dict[str, Any]:
    lifecycle = None
    if c.lifecycle is not None:
        lifecycle = {}
        for key, hook in (("postStart", c.lifecycle.post_start), ("preStop", c.lifecycle.pre_stop)):
            if hook is not None:
                lifecycle[key] = _handler_dict(hook.exec, hook.http_get, hook.tcp_socket)
    out = _compact(
        name=c.name,
        image=c.image,
        command=list(c.command),
        args=list(c.args),
        workingDir=c.working_dir,
        ports=[
            _compact(
                name=p.name,
                hostPort=p.host_port,
                containerPort=p.container_port,
                protocol=str(p.protocol),
                hostIP=p.host_ip,
            )
            for p in c.ports
        ],
        env=[_compact(name=e.name, value=e.value, valueFrom=_plain(e.value_from)) for e in c.env],
        resources=_compact(
            limits=_resources_dict(c.resources.limits),
            requests=_resources_dict(c.resources.requests),
        ),
        volumeMounts=[
            _compact(name=m.name, readOnly=m.read_only, mountPath=m.mount_path, subPath=m.sub_path)
            for m in c.volume_mounts
        ],
        livenessProbe=_probe_dict(c.liveness_probe),
        readinessProbe=_probe_dict(c.readiness_probe),
        startupProbe=_probe_dict(c.startup_probe),
        terminationMessagePath=c.termination_message_path,
        terminationMessagePolicy=str(c.termination_message_policy),
        imagePullPolicy=str(c.image_pull_policy) if c.image_pull_policy else None,
        stdin=c.stdin,
        stdinOnce=c.stdin_once,
        tty=c.tty,
    )
    if lifecycle is not None:
        out["lifecycle"] = lifecycle  # even when empty: Go writes a set pointer as {}
    return out


def _state_dict(state: ContainerState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if state.waiting is not None:
        out["waiting"] = _compact(reason=state.waiting.reason, message=state.waiting.message)
    if state.running is not None:
        out["running"] = _compact(
            startedAt=None
            if state.running.started_at is None
            else _time_text(state.running.started_at)
        )
    if state.terminated is not None:
        t = state.terminated
        out["terminated"] = {
            "exitCode": t.exit_code,
            **_compact(
                signal=t.signal,
                reason=t.reason,
                message=t.message,
                startedAt=None if t.started_at is None else _time_text(t.started_at),
                finishedAt=None if t.finished_at is None else _time_text(t.finished_at),
                containerID=t.container_id,
            ),
        }
    return out


def _status_dict(s: ContainerStatus) -> dict[str, Any]:
    return {
        "name": s.name,
        "state": _state_dict(s.state),
        "lastState": _state_dict(s.last_state),
        "ready": s.ready,
        "restartCount": s.restart_count,
        **_compact(image=s.image, imageID=s.image_id, containerID=s.container_id),
        **({} if s.started is None else {"started": s.started}),
    }


def _toleration_dict(t: Toleration) -> dict[str, Any]:
    out = _compact(
        key=t.key,
        operator=None if t.operator is None else str(t.operator),
        value=t.value,
        effect=None if t.effect is None else str(t.effect),
    )
    if t.toleration_seconds is not None:
        out["tolerationSeconds"] = t.toleration_seconds
    return out


def _optional_time(t: float | None) -> str | None:
    return None if t is None else _time_text(t)


def pod_to_dict(pod: Pod) -> dict[str, Any]:
    """The pod as a manifest: plain data with the API's field names, ready for YAML or JSON.

    Loading it back ([`load_pods`][], [`pod_from_dict`][]) gives a pod equal to ``pod``
    (for a pod that was itself loaded or defaulted). Fields with nothing in them are left out,
    as Go's ``omitempty`` does; defaulted fields are written out. Quantities keep their original
    spelling; times are RFC 3339 in UTC.
    """
    meta, spec, status = pod.metadata, pod.spec, pod.status
    out: dict[str, Any] = {
        "apiVersion": pod.api_version or "v1",
        "kind": pod.kind or "Pod",
        "metadata": _compact(
            name=meta.name,
            namespace=meta.namespace,
            selfLink=meta.self_link,
            uid=meta.uid,
            resourceVersion=meta.resource_version,
            generation=meta.generation,
            creationTimestamp=_optional_time(meta.creation_timestamp),
            deletionTimestamp=_optional_time(meta.deletion_timestamp),
            labels=dict(meta.labels),
            annotations=dict(meta.annotations),
        ),
    }
    if meta.deletion_grace_period_seconds is not None:
        out["metadata"]["deletionGracePeriodSeconds"] = meta.deletion_grace_period_seconds
    out["spec"] = _compact(
        volumes=[{"name": v.name, **_plain(v.volume_source)} for v in spec.volumes],
        initContainers=[_container_dict(c) for c in spec.init_containers],
        containers=[_container_dict(c) for c in spec.containers],
        restartPolicy=str(spec.restart_policy),
        dnsPolicy=str(spec.dns_policy),
        serviceAccountName=spec.service_account_name,
        nodeName=spec.node_name,
        hostNetwork=spec.host_network,
        hostPID=spec.host_pid,
        hostIPC=spec.host_ipc,
        imagePullSecrets=[{"name": r.name} for r in spec.image_pull_secrets],
        hostname=spec.hostname,
        subdomain=spec.subdomain,
        tolerations=[_toleration_dict(t) for t in spec.tolerations],
        priorityClassName=spec.priority_class_name,
    )
    for key, value in (
        ("terminationGracePeriodSeconds", spec.termination_grace_period_seconds),
        ("activeDeadlineSeconds", spec.active_deadline_seconds),
        ("priority", spec.priority),
    ):
        if value is not None:
            out["spec"][key] = value
    status_dict = _compact(
        phase=None if status.phase is None else str(status.phase),
        conditions=[
            _compact(
                type=str(c.type),
                status=str(c.status),
                lastProbeTime=_optional_time(c.last_probe_time),
                lastTransitionTime=_optional_time(c.last_transition_time),
                reason=c.reason,
                message=c.message,
            )
            for c in status.conditions
        ],
        message=status.message,
        reason=status.reason,
        hostIP=status.host_ip,
        podIP=status.pod_ip,
        podIPs=[{"ip": ip.ip} for ip in status.pod_ips],
        startTime=_optional_time(status.start_time),
        initContainerStatuses=[_status_dict(s) for s in status.init_container_statuses],
        containerStatuses=[_status_dict(s) for s in status.container_statuses],
        qosClass=None if status.qos_class is None else str(status.qos_class),
    )
    if status_dict:
        out["status"] = status_dict
    return out
