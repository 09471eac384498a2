"""A manifest's plain data ⇄ the API's dataclasses, by the rules of kubelet's JSON decoder.

Go: staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go

kubelet's serializer reads a manifest's ``apiVersion`` and ``kind``, then unmarshals the JSON
into the Go struct of that kind, field by field, by the names in the struct's ``json:"..."``
tags, ignoring fields it does not know (it is not strict). [`unmarshal`][] does that unmarshal
step into the dataclasses of [`minikubelet.k8s_io.api.core.v1`][minikubelet.k8s_io.api.core.v1], and [`marshal`][] the
reverse; checking ``apiVersion`` and ``kind`` is left to the caller, which knows what it
accepts. Nothing here is written per type: everything is read off the dataclasses once, as
Go's decoder reads the struct tags:

* **name**: the field's name in camelCase with Go's initialisms (``host_ip`` → ``hostIP``,
  ``container_id`` → ``containerID``, ``pod_ips`` → ``podIPs``), or the name given as
  ``field(metadata={"json": "name"})``;
* **type**: the field's annotation: ``str``, ``bool``, ``int32``/``int64``
  ([`minikubelet.go.ints`][minikubelet.go.ints], range-checked), ``float``, an enum, ``X | None``,
  ``list[X]``, ``dict[str, X]``, another dataclass, ``int | str`` (Go's ``IntOrString``),
  ``Any`` (kept as written), or a type with ``unmarshal_json``/``marshal_json``, directly
  ([`Quantity`][minikubelet.k8s_io.apimachinery.pkg.api.resource.Quantity]) or as ``Annotated``
  metadata ([`Time`][minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1.time.Time]), as Go's
  decoder calls a type's ``UnmarshalJSON``;
* **missing or null**: the field's default, as Go leaves a field alone when the JSON has no
  value for it; a field without a default gets its type's zero value (``""``, ``0``, ``[]`` …),
  and an empty string in an enum field counts as not set;
* **an embedded struct** (Go's ``json:",inline"``) is a ``dict`` field with
  ``metadata={"json": ",inline", "keys": (...)}``: those keys of the object go into it.

Unmarshalling never raises: each problem goes to ``problems.add(path, message)`` with the path
of the field (``spec.containers[1].image``, map keys in brackets:
``metadata.annotations[example.com/x]``) and the field keeps its default, so one pass reports
every problem. Marshalling leaves out what Go's ``omitempty`` leaves out: ``None`` and empty
values, unless the field's default is something else (then the value is needed to load back).

**Adding a field** to the API subset is one line in its dataclass, with Go's type and the
default the API server gives it; unmarshalling and marshalling follow from it. What is left by
hand is Kubernetes' semantics: the field's checks in
[`minikubelet.k8s_io.kubernetes.pkg.apis.core.validation.validation`][minikubelet.k8s_io.kubernetes.pkg.apis.core.validation.validation] and, if the API server
defaults it from other fields, [`minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.defaults`][minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.defaults].
"""

from __future__ import annotations

import dataclasses
import json
import re
import reprlib
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from functools import cache
from typing import Any, Protocol, TypeVar

from minikubelet.base.i18n import Bilingual, both
from minikubelet.go.ints import Bits

__all__ = [
    "Problems",
    "cut",
    "describe",
    "field_path",
    "index_path",
    "json_name",
    "key_path",
    "marshal",
    "quoted",
    "shown",
    "unmarshal",
]

_T = TypeVar("_T")


class Problems(Protocol):
    """Where unmarshalling reports what is wrong: a field path (or None) and a message."""

    def add(self, path: str | None, message: str) -> None: ...


def field_path(path: str, key: str) -> str:
    """``path.key`` (just ``key`` at the top)."""
    return f"{path}.{key}" if path else key


def index_path(path: str, i: int) -> str:
    """``path[i]``: an item of a list."""
    return f"{path}[{i}]"


def key_path(path: str, key: str) -> str:
    """``path[key]``: a value of a map."""
    return f"{path}[{key}]"


def describe(value: Any) -> Bilingual:
    """How a wrong value is shown in an error: its kind and, if short, itself."""
    if value is None:
        return both("null", "null")
    if isinstance(value, bool):
        word = "true" if value else "false"
        return both(f"a boolean ({word})", f"布尔值（{word}）")
    if isinstance(value, int):
        if value.bit_length() > 128:  # printing a huge integer costs more than it tells
            sign = "-" if value < 0 else ""
            return both(
                f"an integer ({sign}{value.bit_length()} bits long)",
                f"整数（{sign}{value.bit_length()} 位二进制长）",
            )
        return both(f"an integer ({value})", f"整数（{value}）")
    if isinstance(value, float):
        return both(f"a number ({value!r})", f"数（{value!r}）")
    if isinstance(value, str):
        shown = json.dumps(value if len(value) <= 40 else value[:37] + "...")
        return both(f"a string ({shown})", f"字符串（{shown}）")
    if isinstance(value, list):
        return both("a list", "列表")
    if isinstance(value, Mapping):
        return both("a mapping", "映射")
    return both(f"a {type(value).__name__}", f"{type(value).__name__} 值")


# What an error may show of a value: a few items and levels of it, a few dozen characters.
_REPR = reprlib.Repr()
for _limit, _value in {"maxlevel": 3, "maxdict": 4, "maxlist": 4, "maxstring": 60,
                       "maxlong": 40, "maxother": 60}.items():  # fmt: skip
    setattr(_REPR, _limit, _value)  # (Python 3.11's Repr takes no arguments)
SHOWN = 80


def shown(value: Any) -> str:
    """A value as an error quotes it (Python's ``repr``), cut to `SHOWN` characters with an
    ellipsis: a file may hold a value of megabytes, nested as deep as the parser allows."""
    return cut(_REPR.repr(value))


def quoted(text: str) -> str:
    """A string as an error quotes it: in JSON's quotes, cut to 60 characters with an ellipsis."""
    return json.dumps(cut(text, 60))


def cut(text: str, limit: int = SHOWN) -> str:
    """``text``, or its first ``limit - 1`` characters and an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: What a field expects, as the messages say it in each language.
_EXPECTED_ZH = {
    "a string": "字符串",
    "a boolean (true or false)": "布尔值（true 或 false）",
    "a number": "数",
    "an integer": "整数",
    "a mapping": "映射",
    "a list": "列表",
    "string keys": "字符串键",
    "a number or a name": "数字或名称",
}


def _wrong(problems: Problems, path: str, expected: str, value: Any) -> None:
    hint = hint_zh = ""
    if expected == "a string" and isinstance(value, bool):
        hint = " (YAML reads yes/no/true/false/on/off unquoted as booleans: quote it)"
        hint_zh = "（YAML 会把不带引号的 yes/no/true/false/on/off 读成布尔值：请加上引号）"
    elif expected == "a string" and isinstance(value, int | float):
        hint = " (put it in quotes)"
        hint_zh = "（请加上引号）"
    got = describe(value)
    problems.add(
        path,
        both(
            f"expected {expected}, got {got}{hint}",
            f"应为{_EXPECTED_ZH[expected]}，实际为{got.zh}{hint_zh}",
        ),
    )


# --- Names ---------------------------------------------------------------------------------

# Go spells these initialisms in capitals inside a JSON name: hostIP, podIPs, containerID.
_INITIALISM = re.compile(r"(Ip|Id|Pid|Ipc)(s?)(?=[A-Z]|$)")


def json_name(name: str) -> str:
    """The manifest's name of a field: camelCase with Go's initialisms."""
    head, *rest = name.rstrip("_").split("_")
    camel = head + "".join(part[:1].upper() + part[1:] for part in rest)
    return _INITIALISM.sub(lambda m: m.group(1).upper() + m.group(2), camel)


# --- Unmarshalling -------------------------------------------------------------------------

# A decoder takes a value, the path it is at, and where to report problems; it returns the
# Python value, or _INVALID after reporting why there is none. A field whose value is missing
# or null is not decoded at all (it keeps its default); a null inside a list or a map is, and
# is wrong for every type but Go's own null-aware ones (a quantity).
_INVALID: Any = object()
_UNSET: Any = object()  # an empty string in an enum field: not set
_Decoder = Callable[[Any, str, Problems], Any]


@dataclasses.dataclass(slots=True)
class _Field:
    name: str  # the dataclass field
    key: str  # the manifest's name; "" for an inline field
    inline_keys: tuple[str, ...]
    decode: _Decoder
    encode: Callable[[Any], Any]
    default: Callable[[], Any]
    optional: bool  # X | None: written whenever it is set (Go: a pointer)
    default_value: Any  # for marshal: a value equal to the default is left out if empty


def unmarshal(data: Any, into: type[_T], problems: Problems, path: str = "") -> _T | None:
    """``data`` (plain data from YAML or JSON) as an ``into``; None if it is not a mapping.

    Every problem is reported to ``problems``; see the module docstring.
    """
    value = _decoder(typing.cast(Any, into))(data, path, problems)
    return None if value is _INVALID else value


def marshal(obj: Any) -> Any:
    """``obj`` (a dataclass of the API) as plain data with the manifest's names."""
    return _encoder(typing.cast(Any, type(obj)))(obj)


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return typing.get_type_hints(cls, include_extras=True)


@cache
def _fields(cls: Any) -> tuple[_Field, ...]:
    hints = _hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        tag = f.metadata.get("json")
        inline = tag == ",inline"
        if f.default is not dataclasses.MISSING:
            default_value = f.default
            default = _constant(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default_value = f.default_factory()
            default = f.default_factory
        else:
            default_value = _zero(tp)
            default = _zero_factory(tp)
        out.append(
            _Field(
                name=f.name,
                key="" if inline else (tag or json_name(f.name)),
                inline_keys=tuple(f.metadata.get("keys", ())) if inline else (),
                decode=_decoder(_value_type(tp)) if inline else _decoder(tp),
                encode=_encoder(tp),
                default=default,
                optional=_is_optional(tp),
                default_value=default_value,
            )
        )
    return tuple(out)


def _constant(value: Any) -> Callable[[], Any]:
    return lambda: value


def _strip_annotated(tp: Any) -> tuple[Any, tuple[Any, ...]]:
    if typing.get_origin(tp) is typing.Annotated:
        return tp.__origin__, tp.__metadata__
    return tp, ()


def _is_optional(tp: Any) -> bool:
    tp, _ = _strip_annotated(tp)
    return _is_union(tp) and type(None) in typing.get_args(tp)


def _is_union(tp: Any) -> bool:
    return typing.get_origin(tp) in (typing.Union, types.UnionType)


def _value_type(tp: Any) -> Any:
    """The value type of ``dict[str, V]``."""
    return typing.get_args(_strip_annotated(tp)[0])[1]


def _zero(tp: Any) -> Any:
    return _zero_factory(tp)()


def _zero_factory(tp: Any) -> Callable[[], Any]:
    """Go's zero value of a type, as a factory (a fresh list or dict each time)."""
    base, _ = _strip_annotated(tp)
    origin = typing.get_origin(base)
    if _is_optional(base):
        return _constant(None)
    if origin is list:
        return list
    if origin is dict:
        return dict
    if isinstance(base, type) and dataclasses.is_dataclass(base):
        return lambda: base(
            **{f.name: f.default() for f in _fields(base) if not _has_default(base, f.name)}
        )
    if base in (str, int, float, bool):
        return base
    return _constant(None)  # an enum or a type of its own: unset


def _has_default(cls: Any, name: str) -> bool:
    f = cls.__dataclass_fields__[name]
    return f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING


@cache
def _decoder(tp: Any) -> _Decoder:
    base, metadata = _strip_annotated(tp)
    for meta in metadata:
        if hasattr(meta, "unmarshal_json"):
            return _hook_decoder(meta.unmarshal_json)
        if isinstance(meta, Bits):
            return _int_decoder(meta)
    origin = typing.get_origin(base)
    if _is_union(base):
        args = tuple(a for a in typing.get_args(base) if a is not type(None))
        if len(args) == 1:
            return _decoder(args[0])
        if set(args) == {int, str}:
            return _int_or_string
        raise TypeError(f"unsupported union {base!r}")
    if origin is list:
        return _list_decoder(_decoder(typing.get_args(base)[0]))
    if origin is dict:
        value_type = typing.get_args(base)[1]
        if value_type is Any:
            return _opaque
        return _dict_decoder(_decoder(value_type))
    if base is Any:
        return lambda value, path, problems: _plain(value)
    if hasattr(base, "unmarshal_json"):
        return _hook_decoder(base.unmarshal_json)
    if dataclasses.is_dataclass(base):
        return _struct_decoder(base)
    if isinstance(base, type) and issubclass(base, Enum):
        return _enum_decoder(base)
    if base is str:
        return _string
    if base is bool:
        return _boolean
    if base is int:
        return _int_decoder(Bits(64))
    if base is float:
        return _number
    raise TypeError(f"no decoder for {tp!r}")


def _struct_decoder(cls: Any) -> _Decoder:
    def decode(value: Any, path: str, problems: Problems) -> Any:
        if not isinstance(value, Mapping):
            _wrong(problems, path, "a mapping", value)
            return _INVALID
        kwargs = {}
        for f in _fields(cls):
            if f.inline_keys:
                inline = {}
                for key in f.inline_keys:
                    raw = value.get(key)
                    if raw is not None:
                        decoded = f.decode(raw, field_path(path, key), problems)
                        if decoded is not _INVALID:
                            inline[key] = decoded
                kwargs[f.name] = inline
                continue
            raw = value.get(f.key)
            decoded = _INVALID if raw is None else f.decode(raw, field_path(path, f.key), problems)
            kwargs[f.name] = f.default() if decoded is _INVALID or decoded is _UNSET else decoded
        return cls(**kwargs)

    return decode


def _list_decoder(item: _Decoder) -> _Decoder:
    def decode(value: Any, path: str, problems: Problems) -> Any:
        if not isinstance(value, list):
            _wrong(problems, path, "a list", value)
            return _INVALID
        out = []
        for i, raw in enumerate(value):
            decoded = item(raw, index_path(path, i), problems)
            if decoded is not _INVALID and decoded is not _UNSET:
                out.append(decoded)
        return out

    return decode


def _dict_decoder(item: _Decoder) -> _Decoder:
    def decode(value: Any, path: str, problems: Problems) -> Any:
        if not isinstance(value, Mapping):
            _wrong(problems, path, "a mapping", value)
            return _INVALID
        out = {}
        for key, raw in value.items():
            if not isinstance(key, str):
                _wrong(problems, path, "string keys", key)
                continue
            decoded = item(raw, key_path(path, key), problems)
            if decoded is not _INVALID and decoded is not _UNSET:
                out[key] = decoded
        return out

    return decode


def _opaque(value: Any, path: str, problems: Problems) -> Any:
    """A mapping kept as written (Go: a struct the port does not model)."""
    if not isinstance(value, Mapping):
        _wrong(problems, path, "a mapping", value)
        return _INVALID
    return _plain(value)


def _plain(value: Any) -> Any:
    """A deep copy of plain data (mappings become dicts with string keys)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _hook_decoder(unmarshal_json: Callable[[Any], Any]) -> _Decoder:
    def decode(value: Any, path: str, problems: Problems) -> Any:
        try:
            return unmarshal_json(value)
        except ValueError as err:
            problems.add(path, err.args[0] if err.args else str(err))
            return _INVALID

    return decode


def _enum_decoder(kind: type[Enum]) -> _Decoder:
    allowed = ", ".join(json.dumps(m.value) for m in kind)

    def decode(value: Any, path: str, problems: Problems) -> Any:
        if not isinstance(value, str):
            _wrong(problems, path, "a string", value)
            return _INVALID
        if value == "":
            return _UNSET  # the API server's defaulting treats "" as not set
        try:
            return kind(value)
        except ValueError:
            problems.add(
                path,
                both(
                    f"unsupported value {quoted(value)}: must be one of {allowed}",
                    f"不支持的取值 {quoted(value)}：必须是 {allowed} 之一",
                ),
            )
            return _INVALID

    return decode


def _string(value: Any, path: str, problems: Problems) -> Any:
    if not isinstance(value, str):
        _wrong(problems, path, "a string", value)
        return _INVALID
    return value


def _boolean(value: Any, path: str, problems: Problems) -> Any:
    if not isinstance(value, bool):
        _wrong(problems, path, "a boolean (true or false)", value)
        return _INVALID
    return value


def _number(value: Any, path: str, problems: Problems) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float):
        _wrong(problems, path, "a number", value)
        return _INVALID
    return float(value)


def _int_decoder(bits: Bits) -> _Decoder:
    def decode(value: Any, path: str, problems: Problems) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            _wrong(problems, path, "an integer", value)
            return _INVALID
        if not bits.min <= value <= bits.max:
            shown = describe(value).removeprefix("an integer (").removesuffix(")")
            problems.add(
                path,
                both(
                    f"{shown} is out of range (a {bits.bits}-bit integer)",
                    f"{shown} 超出范围（{bits.bits} 位整数）",
                ),
            )
            return _INVALID
        return value

    return decode


def _int_or_string(value: Any, path: str, problems: Problems) -> Any:
    """Go's ``intstr.IntOrString``: a number or a name (of a port, say)."""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    _wrong(problems, path, "a number or a name", value)
    return _INVALID


# --- Marshalling ---------------------------------------------------------------------------


def _identity(value: Any) -> Any:
    return value


def _empty(encoded: Any) -> bool:
    """Go's ``omitempty``: "", 0, false, an empty list or map."""
    return encoded is False or encoded == "" or encoded == 0 or encoded == [] or encoded == {}


@cache
def _encoder(tp: Any) -> Callable[[Any], Any]:
    base, metadata = _strip_annotated(tp)
    for meta in metadata:
        if hasattr(meta, "marshal_json"):
            return meta.marshal_json
    origin = typing.get_origin(base)
    if _is_union(base):
        args = tuple(a for a in typing.get_args(base) if a is not type(None))
        return _encoder(args[0]) if len(args) == 1 else _identity
    if origin is list:
        item = _encoder(typing.get_args(base)[0])
        return lambda value: [item(v) for v in value]
    if origin is dict:
        item = _encoder(typing.get_args(base)[1])
        return lambda value: {k: item(v) for k, v in value.items()}
    if base is Any:
        return _plain
    if hasattr(base, "marshal_json"):
        return lambda value: value.marshal_json()
    if dataclasses.is_dataclass(base):
        return _struct_encoder(base)
    if isinstance(base, type) and issubclass(base, Enum):
        return lambda value: value.value
    return _identity


def _struct_encoder(cls: Any) -> Callable[[Any], Any]:
    def encode(obj: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in _fields(cls):
            value = getattr(obj, f.name)
            if value is None:
                continue
            encoded = f.encode(value)
            if f.inline_keys:
                out.update(encoded)
            elif f.optional or not _empty(encoded) or value != f.default_value:
                out[f.key] = encoded
        return out

    return encode
