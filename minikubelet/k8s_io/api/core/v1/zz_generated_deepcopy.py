"""Deep copies of API objects: a pod, its spec, its status, and everything inside them.

Go: staging/src/k8s.io/api/core/v1/zz_generated.deepcopy.go

Go generates one ``DeepCopy``/``DeepCopyInto`` pair per type from the struct fields. So does
the port, on first use of a class rather than at build time: [`deep_copy`][] writes the source of
one copy function for the class (one statement per field, in field order), compiles it and keeps
it. Each does what Go's does: a new struct, new slices and maps, and the scalars copied; a field
whose annotation says it holds only immutable values (``str``, ``int``, ``bool``, ``float``, an
enum, or ``X | None`` of those) is assigned without a look at its value. It is several times
faster than ``copy.deepcopy``, which kubelet's hot paths (every status update, every pod handed
out by the config, every admission) would otherwise spend most of their time in, because it
pickles each object to rebuild it and keeps a memo of everything it has seen.

[`reflective_copy`][] (ours) is the same copy made by walking the fields at run time, with no
generated code: ``tests/api/test_deepcopy.py`` holds every generated function to it over
hypothesis-generated pods and nodes.

Like Go's generated copies (and unlike ``copy.deepcopy``), a copy does not preserve sharing: two
fields pointing at one object get two copies. API objects are trees, so nothing changes.
"""

from __future__ import annotations

import copy
import dataclasses
import types
import typing
from collections.abc import Callable
from enum import Enum
from fractions import Fraction
from typing import Any, TypeVar

T = TypeVar("T")

_Copier = Callable[[Any], Any]


def deep_copy(obj: T) -> T:
    """A copy of ``obj`` that shares nothing mutable with it.

    Go: staging/src/k8s.io/api/core/v1/zz_generated.deepcopy.go (*Pod).DeepCopy

    Works for every API dataclass (a ``Pod``, a ``PodStatus``, a ``Container`` …), and for
    the lists and maps of them.
    """
    cls = type(obj)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _new_copier(cls)
    result: T = copier(obj)
    return result


def _same(value: Any) -> Any:
    """Immutable values (strings, numbers, enums) are shared: nobody can change them."""
    return value


def _copy_list(value: list[Any]) -> list[Any]:
    return [item if type(item) in _SHARED else deep_copy(item) for item in value]


def _copy_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    return {key: item if type(item) in _SHARED else deep_copy(item) for key, item in value.items()}


def _new_copier(cls: type) -> _Copier:
    """The copier for one class: decided once, from what the class is."""
    if issubclass(cls, (str, int, float, Fraction, Enum, type(None))):
        _SHARED.add(cls)
        return _same
    if cls is list:
        return _copy_list
    if cls is dict:
        return _copy_dict
    if dataclasses.is_dataclass(cls):
        return _dataclass_copier(cls, [f.name for f in dataclasses.fields(cls)])
    # A manifest's free-form values (an env var's valueFrom, a volume's settings) are what the
    # YAML loader made: lists, maps and scalars, handled above. Anything else is copied the slow way.
    return copy.deepcopy


def _dataclass_copier(cls: type, names: list[str]) -> _Copier:
    """The generated copy function of a dataclass: straight-line code, one line per field."""
    hints = _field_types(cls)
    frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    lines = [
        f"def copy_{cls.__name__}(value, new=new, cls=cls, shared=shared, deep_copy=deep_copy):"
    ]
    lines.append("    result = new(cls)")
    for name in names:
        if _immutable(hints.get(name)):
            expr = f"value.{name}"
        else:
            lines.append(f"    field = value.{name}")
            expr = "field if type(field) in shared else deep_copy(field)"
        # A frozen dataclass refuses assignment; its __init__ goes through object.__setattr__ too.
        lines.append(
            f"    set_field(result, {name!r}, {expr})" if frozen else f"    result.{name} = {expr}"
        )
    lines.append("    return result")
    scope: dict[str, Any] = {
        "new": object.__new__,
        "cls": cls,
        "shared": _SHARED,
        "deep_copy": deep_copy,
        "set_field": object.__setattr__,
    }
    exec(compile("\n".join(lines), f"<deep copy of {cls.__qualname__}>", "exec"), scope)
    copier: _Copier = scope[f"copy_{cls.__name__}"]
    return copier


def _field_types(cls: type) -> dict[str, Any]:
    """The class's resolved field annotations; none if one cannot be resolved (each field is
    then looked at when copied)."""
    try:
        return typing.get_type_hints(cls)
    except Exception:
        return {}


_IMMUTABLE = (str, int, float, bool, Fraction, Enum, type(None))


def _immutable(tp: Any) -> bool:
    """Whether an annotation admits only immutable values."""
    if isinstance(tp, type):
        return issubclass(tp, _IMMUTABLE)
    if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union:
        return all(_immutable(arg) for arg in typing.get_args(tp))
    return False


def reflective_copy(obj: T) -> T:
    """Ours: the same copy as [`deep_copy`][], made by walking each dataclass's fields at run time
    (no generated code); the reference the generated functions are tested against."""
    value: Any = obj
    if type(value) in _SHARED or isinstance(value, _IMMUTABLE):
        result = value
    elif type(value) is list:
        result = [reflective_copy(item) for item in value]
    elif type(value) is dict:
        result = {key: reflective_copy(item) for key, item in value.items()}
    elif dataclasses.is_dataclass(value):
        result = _reflective_dataclass_copy(value)
    else:
        result = copy.deepcopy(value)
    copied: T = result
    return copied


def _reflective_dataclass_copy(value: Any) -> Any:
    new = object.__new__
    set_field = object.__setattr__  # also sets the fields of a frozen dataclass, as __init__ does
    result: Any = new(type(value))
    for f in dataclasses.fields(value):
        set_field(result, f.name, reflective_copy(getattr(value, f.name)))
    return result


_COPIERS: dict[type, _Copier] = {}
# The classes _same copies, tested inline before a call: most fields are strings and numbers.
_SHARED: set[type] = {str, int, float, bool, type(None)}
