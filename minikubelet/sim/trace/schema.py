"""Checking a trace against ``schema.json``, the format's JSON Schema. Ours, not kubelet's.

The port has no JSON Schema library at run time (the tests use ``jsonschema``), so this module
reads ``schema.json`` itself and checks the part of JSON Schema the file uses: ``type``,
``const``, ``enum``, ``required``, ``properties``, ``additionalProperties`` (``false`` or a
schema), ``items``,
``prefixItems``, ``minItems``, ``maxItems``, ``minimum``, ``pattern``, ``$ref``, ``oneOf``,
``allOf`` and ``if``/``then``. A keyword the file starts using that is not among these makes
[`problem`][] fail loudly (``KeyError``), so the two cannot drift apart unseen.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from minikubelet.base.i18n import Bilingual, both

SCHEMA_FILE = Path(__file__).with_name("schema.json")
#: Keywords that describe a schema without constraining the value.
ANNOTATIONS = {"$schema", "$id", "title", "$defs"}

_TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


@cache
def schema() -> dict[str, Any]:
    """The trace format's JSON Schema (``schema.json``)."""
    loaded: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return loaded


def _is(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, _TYPES[name])


def _where(path: tuple[Any, ...]) -> str:
    """``steps[12].cases[0]`` for the path of keys and indexes down to a value."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the top level"


def _count(path: tuple[Any, ...], how: str, n: int) -> Bilingual:
    if how == "more":
        return both(f"{_where(path)} has more than {n} items", f"{_where(path)} 的元素多于 {n} 个")
    return both(f"{_where(path)} has fewer than {n} items", f"{_where(path)} 的元素少于 {n} 个")


def _check(value: Any, node: dict[str, Any], path: tuple[Any, ...]) -> Bilingual | None:
    for key, want in node.items():
        problem = _KEYWORDS[key](value, want, node, path)
        if problem:
            return problem
    return None


def _ref(value: Any, want: str, node: dict[str, Any], path: tuple[Any, ...]) -> Bilingual | None:
    target: Any = schema()
    for part in want.removeprefix("#/").split("/"):
        target = target[part]
    return _check(value, target, path)


def _type(value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]) -> Bilingual | None:
    names = [want] if isinstance(want, str) else want
    if any(_is(value, n) for n in names):
        return None
    shown = json.dumps(value)[:40]
    return both(
        f"{_where(path)} should be {' or '.join(names)}, not {shown}",
        f"{_where(path)} 应为 {' 或 '.join(names)}，而不是 {shown}",
    )


def _const(value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]) -> Bilingual | None:
    if value == want:
        return None
    return both(
        f"{_where(path)} should be {json.dumps(want)}", f"{_where(path)} 应为 {json.dumps(want)}"
    )


def _enum(value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]) -> Bilingual | None:
    if value in want:
        return None
    shown, choices = json.dumps(value)[:40], ", ".join(map(str, want))
    return both(
        f"{_where(path)} is {shown}, not one of {choices}",
        f"{_where(path)} 是 {shown}，不在 {choices} 之中",
    )


def _required(
    value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]
) -> Bilingual | None:
    if not isinstance(value, dict):
        return None
    missing = [k for k in want if k not in value]
    if not missing:
        return None
    return both(
        f"{_where(path)} has no {', '.join(missing)}", f"{_where(path)} 缺少 {', '.join(missing)}"
    )


def _properties(
    value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]
) -> Bilingual | None:
    if not isinstance(value, dict):
        return None
    for key, sub in want.items():
        if key in value and (problem := _check(value[key], sub, (*path, key))):
            return problem
    return None


def _additional(
    value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]
) -> Bilingual | None:
    if isinstance(want, dict) and isinstance(value, dict):
        known = node.get("properties", {})
        for key in sorted(k for k in value if k not in known):
            if problem := _check(value[key], want, (*path, key)):
                return problem
        return None
    if want is not False or not isinstance(value, dict):
        return None
    extra = sorted(k for k in value if k not in node.get("properties", {}))
    if not extra:
        return None
    return both(
        f"{_where(path)} has unknown fields: {', '.join(extra)}",
        f"{_where(path)} 有未知字段：{', '.join(extra)}",
    )


def _items(value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]) -> Bilingual | None:
    if not isinstance(value, list):
        return None
    first = len(node.get("prefixItems", ()))
    if want is False:
        return _count(path, "more", first) if len(value) > first else None
    for i in range(first, len(value)):
        if problem := _check(value[i], want, (*path, i)):
            return problem
    return None


def _prefix(value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]) -> Bilingual | None:
    if not isinstance(value, list):
        return None
    for i, sub in enumerate(want[: len(value)]):
        if problem := _check(value[i], sub, (*path, i)):
            return problem
    return None


def _min_items(
    value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]
) -> Bilingual | None:
    if isinstance(value, list) and len(value) < want:
        return _count(path, "fewer", want)
    return None


def _max_items(
    value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]
) -> Bilingual | None:
    if isinstance(value, list) and len(value) > want:
        return _count(path, "more", want)
    return None


def _minimum(
    value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]
) -> Bilingual | None:
    if _is(value, "number") and value < want:
        return both(
            f"{_where(path)} is {value}, below {want}", f"{_where(path)} 是 {value}，小于 {want}"
        )
    return None


def _pattern(
    value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]
) -> Bilingual | None:
    if isinstance(value, str) and not re.search(want, value):
        shown = json.dumps(value)[:60]
        return both(
            f"{_where(path)} is {shown}, which does not match {want}",
            f"{_where(path)} 是 {shown}，不符合 {want}",
        )
    return None


def _one_of(value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]) -> Bilingual | None:
    problems = [_check(value, sub, path) for sub in want]
    fits = sum(p is None for p in problems)
    if fits == 1:
        return None
    first = next((p for p in problems if p), None)
    if first is not None:
        return first
    return both(
        f"{_where(path)} fits more than one of its forms", f"{_where(path)} 同时符合多种形式"
    )


def _all_of(value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]) -> Bilingual | None:
    for sub in want:
        if problem := _check(value, sub, path):
            return problem
    return None


def _if(value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]) -> Bilingual | None:
    if _check(value, want, path) is None and "then" in node:
        return _check(value, node["then"], path)
    return None


def _none(value: Any, want: Any, node: dict[str, Any], path: tuple[Any, ...]) -> Bilingual | None:
    return None


_KEYWORDS = {
    "$ref": _ref,
    "type": _type,
    "const": _const,
    "enum": _enum,
    "required": _required,
    "properties": _properties,
    "additionalProperties": _additional,
    "items": _items,
    "prefixItems": _prefix,
    "minItems": _min_items,
    "maxItems": _max_items,
    "minimum": _minimum,
    "pattern": _pattern,
    "oneOf": _one_of,
    "allOf": _all_of,
    "if": _if,
    "then": _none,  # checked by "if"
    **dict.fromkeys(ANNOTATIONS, _none),
}


def problem(trace: Any) -> Bilingual | None:
    """The first way ``trace`` breaks ``schema.json`` (``steps[3].t is -1, below 0``), in both
    languages, or None."""
    return _check(trace, schema(), ())
