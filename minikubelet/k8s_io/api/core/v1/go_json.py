"""Go's ``encoding/json`` output for the core/v1 structs kubelet marshals on the pod path.

Go: staging/src/k8s.io/api/core/v1/types.go

kubelet hashes a container as the bytes of ``json.Marshal(container)`` and writes
``json.Marshal(container.Ports)`` and ``json.Marshal(container.Lifecycle.PreStop)`` into the
container's annotations. The bytes must be Go's: its fields in struct order, by their tag names,
``omitempty`` as Go applies it (a struct is never empty, so ``resources`` is always written),
map keys sorted, strings escaped as Go 1.19 escapes them. The general marshaller
([`minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json`][minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json])
writes manifests, in the dataclasses' order; this module writes Go's bytes, from a table of the
tags of each struct, where Go reads the tags by reflection.

Fields the port's dataclasses do not have (``envFrom``, ``volumeDevices``, ``securityContext``,
a probe's ``terminationGracePeriodSeconds``, a mount's ``mountPropagation``/``subPathExpr``) are
always empty here, and Go leaves empty ones out, so the bytes are the same. ``valueFrom`` of an
env var is kept by the port as the manifest wrote it; it is written by Go's tags for
EnvVarSource, without the defaulting of ``fieldRef.apiVersion`` the API server adds ([`set_defaults_object_field_selector`][minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.defaults.set_defaults_object_field_selector]).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum
from typing import Any

from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity

# One field: (Go's JSON name, the Python attribute or dict key, omitempty, the encoder of its
# value or None for a plain value). An empty name is an embedded struct (json:",inline"): its
# fields are written in place, by the table given as the encoder.
_Field = tuple[str, str, bool, Any]


#: A character Go's encoder writes escaped: the ones ``_escape`` changes.
_NEEDS_ESCAPE = re.compile('[\x00-\x1f"\\\\<>&\u2028\u2029]')


def _escape(s: str) -> str:
    # Most strings (names, images, paths) have nothing to escape: one regex search says so.
    if _NEEDS_ESCAPE.search(s) is None:
        return f'"{s}"'
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or ch in "<>&\u2028\u2029":
            out.append(f"\\u{o:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _plain(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Enum):
        return _escape(str(v.value))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _escape(v)
    if isinstance(v, Quantity):
        # Go's ParseQuantity keeps the spelling only when it is already canonical ("0.25" and
        # "1024Mi" are not: Go writes "250m" and "1Gi"), so Go writes the canonical spelling.
        return _escape(v.canonical())
    if v is None:
        return "null"
    raise TypeError(f"go_json: no Go encoding for {type(v).__name__}")


def _empty(v: Any) -> bool:
    # Go's isEmptyValue: false, 0, "", a nil pointer, an empty slice or map. Never a struct.
    if v is None or v is False:
        return True
    if isinstance(v, Enum):
        return v.value == ""
    if isinstance(v, int | str | list | tuple | dict):
        return not v and not isinstance(v, Quantity)
    return False


def _get(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, dict) else getattr(obj, key)


def _fields(table: tuple[_Field, ...], obj: Any) -> list[str]:
    out: list[str] = []
    for name, attr, omitempty, enc in table:
        if not name:  # embedded: enc is its table
            out.extend(_fields(enc, obj))
            continue
        v = _get(obj, attr)
        if omitempty and _empty(v):
            continue
        out.append(
            _escape(name) + ":" + (enc(v) if enc is not None and v is not None else _plain(v))
        )
    return out


def _struct(table: tuple[_Field, ...]) -> Callable[[Any], str]:
    return lambda obj: "{" + ",".join(_fields(table, obj)) + "}"


def _slice(enc: Callable[[Any], str] | None) -> Callable[[Any], str]:
    return lambda v: "[" + ",".join(enc(x) if enc else _plain(x) for x in v) + "]"


def _map(v: dict[str, Any]) -> str:
    return "{" + ",".join(_escape(k) + ":" + _plain(v[k]) for k in sorted(v)) + "}"


def _quantity(v: Any) -> str:
    return _plain(v if isinstance(v, Quantity) else Quantity.parse(str(v)))


# --- The tables, in Go's field order (types.go) ----------------------------------------------

_exec = _struct((("command", "command", True, _slice(None)),))
_header = _struct((("name", "name", False, None), ("value", "value", False, None)))
_http_get = _struct(
    (
        ("path", "path", True, None),
        ("port", "port", False, None),
        ("host", "host", True, None),
        ("scheme", "scheme", True, None),
        ("httpHeaders", "http_headers", True, _slice(_header)),
    )
)
_tcp_socket = _struct((("port", "port", False, None), ("host", "host", True, None)))
_HANDLER_FIELDS: tuple[_Field, ...] = (
    ("exec", "exec", True, _exec),
    ("httpGet", "http_get", True, _http_get),
    ("tcpSocket", "tcp_socket", True, _tcp_socket),
)
handler_json = _struct(_HANDLER_FIELDS)
_probe = _struct(
    (
        ("", "", False, _HANDLER_FIELDS),
        ("initialDelaySeconds", "initial_delay_seconds", True, None),
        ("timeoutSeconds", "timeout_seconds", True, None),
        ("periodSeconds", "period_seconds", True, None),
        ("successThreshold", "success_threshold", True, None),
        ("failureThreshold", "failure_threshold", True, None),
    )
)
_lifecycle = _struct(
    (("postStart", "post_start", True, handler_json), ("preStop", "pre_stop", True, handler_json))
)
_port = _struct(
    (
        ("name", "name", True, None),
        ("hostPort", "host_port", True, None),
        ("containerPort", "container_port", False, None),
        ("protocol", "protocol", True, None),
        ("hostIP", "host_ip", True, None),
    )
)
ports_json = _slice(_port)
_LOCAL_REF: tuple[_Field, ...] = (("name", "name", True, None),)
_key_ref = _struct(
    (("", "", False, _LOCAL_REF), ("key", "key", False, None), ("optional", "optional", True, None))
)
_env_source = _struct(
    (
        (
            "fieldRef",
            "fieldRef",
            True,
            _struct(
                (("apiVersion", "apiVersion", True, None), ("fieldPath", "fieldPath", False, None))
            ),
        ),
        (
            "resourceFieldRef",
            "resourceFieldRef",
            True,
            _struct(
                (
                    ("containerName", "containerName", True, None),
                    ("resource", "resource", False, None),
                    ("divisor", "divisor", False, _quantity),
                )
            ),
        ),
        ("configMapKeyRef", "configMapKeyRef", True, _key_ref),
        ("secretKeyRef", "secretKeyRef", True, _key_ref),
    )
)


class _Source(dict):  # a valueFrom as written: missing keys read as Go's zero values
    def get(self, key: str, default: Any = None) -> Any:
        v = super().get(key, default)
        if v is None and key in ("fieldPath", "resource", "key"):
            return ""
        if v is None and key == "divisor":
            return Quantity.from_int(0)
        return _Source(v) if isinstance(v, dict) else v


_env = _struct(
    (
        ("name", "name", False, None),
        ("value", "value", True, None),
        ("valueFrom", "value_from", True, lambda v: _env_source(_Source(v))),
    )
)
_resources = _struct((("limits", "limits", True, _map), ("requests", "requests", True, _map)))
_mount = _struct(
    (
        ("name", "name", False, None),
        ("readOnly", "read_only", True, None),
        ("mountPath", "mount_path", False, None),
        ("subPath", "sub_path", True, None),
    )
)
_container = _struct(
    (
        ("name", "name", False, None),
        ("image", "image", True, None),
        ("command", "command", True, _slice(None)),
        ("args", "args", True, _slice(None)),
        ("workingDir", "working_dir", True, None),
        ("ports", "ports", True, ports_json),
        ("env", "env", True, _slice(_env)),
        ("resources", "resources", False, _resources),
        ("volumeMounts", "volume_mounts", True, _slice(_mount)),
        ("livenessProbe", "liveness_probe", True, _probe),
        ("readinessProbe", "readiness_probe", True, _probe),
        ("startupProbe", "startup_probe", True, _probe),
        ("lifecycle", "lifecycle", True, _lifecycle),
        ("terminationMessagePath", "termination_message_path", True, None),
        ("terminationMessagePolicy", "termination_message_policy", True, None),
        ("imagePullPolicy", "image_pull_policy", True, None),
        ("stdin", "stdin", True, None),
        ("stdinOnce", "stdin_once", True, None),
        ("tty", "tty", True, None),
    )
)


def container_json(container: Any) -> bytes:
    """``json.Marshal(container)`` for a [`Container`][minikubelet.k8s_io.api.core.v1.Container], as Go writes it."""
    return _container(container).encode()
