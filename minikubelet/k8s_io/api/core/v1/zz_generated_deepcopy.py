"""Deep copies of API objects: a pod, its spec, its status, and everything inside them.

Go: staging/src/k8s.io/api/core/v1/zz_generated.deepcopy.go

Go generates one ``DeepCopy``/``DeepCopyInto`` pair per type from the struct fields. The port
walks the dataclass fields instead, with one small copier per class made on first use, which
does the same: a new struct, new slices and maps, and the scalars copied. It is several times
faster than ``copy.deepcopy``, which kubelet's hot paths (every status update, every pod handed
out by the config, every admission) would otherwise spend most of their time in, because it
pickles each object to rebuild it and keeps a memo of everything it has seen.

Like Go's generated copies (and unlike ``copy.deepcopy``), a copy does not preserve sharing: two
fields pointing at one object get two copies. API objects are trees, so nothing changes.
"""

from __future__ import annotations

import copy
import dataclasses
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
    new = object.__new__
    set_field = object.__setattr__  # also sets the fields of a frozen dataclass, as __init__ does

    def copier(value: Any) -> Any:
        result: Any = new(cls)
        for name in names:
            field = getattr(value, name)
            set_field(result, name, field if type(field) in _SHARED else deep_copy(field))
        return result

    return copier


_COPIERS: dict[type, _Copier] = {}
# The classes _same copies, tested inline before a call: most fields are strings and numbers.
_SHARED: set[type] = {str, int, float, bool, type(None)}
