"""Go's ``fmt`` verbs for the port's values: ``%v``, ``%+v``, ``%s``, ``%q`` and ``%d``.

kubelet writes Go values into its log lines and error messages with package fmt, and a reader
compares those lines with a real kubelet's. This module prints a port value as fmt prints the Go
value it stands for (Go 1.16, the release v1.21 is built with):

* **Methods first.** A value whose Go type has a ``String()`` method (a *Stringer*) prints what
  the method returns; an error prints its ``Error()``. A class of the port marks a Go Stringer
  with ``go_stringer = True`` and returns the text from ``__str__``; when Go declares the
  method on the pointer (``func (c *ContainerID) String()``), the class also sets
  ``go_pointer_receiver = True``, and fmt calls it only through a pointer, [`Ptr`][]. Below the
  top, fmt calls methods only on what it may reach: a field whose Go name starts with a lower-case
  letter (unexported) and everything inside it prints raw.
* **Structs** print their fields in Go's order, ``{a b}``, or with ``%+v`` ``{Name:a Type:b}``.
  A class says which fields its Go struct has with a ``go_fields()`` method (pairs of Go name and
  value); a dataclass without one prints its own fields, named as Go names them
  ([`go_name`][]).
* **Pointers** ([`Ptr`][]): a pointer to a struct, slice or map passed to fmt prints ``&`` and the
  value; a pointer inside another value prints its address, ``0xc000…`` (see [`address`][]);
  a nil pointer prints ``<nil>``.
* ``None`` is nil (``<nil>``), booleans ``true``/``false``, a map ``map[k:v …]`` with its keys
  sorted, a slice ``[a b]``, an enum of the port (Go's ``type Phase string``) its value.

Ours: the port has no Go types at run time, so the classes carry what fmt would read off them;
and an address is made up (see [`address`][]).
"""

from __future__ import annotations

import dataclasses
import re
import zlib
from collections.abc import Iterable
from decimal import Decimal
from enum import Enum
from typing import Any

from minikubelet.go.duration import format_duration

#: Go names of a dataclass field that Go spells with capitals (``image_id`` → ``ImageID``).
_INITIALISMS = {
    "api": "API",
    "cpu": "CPU",
    "dns": "DNS",
    "http": "HTTP",
    "id": "ID",
    "ip": "IP",
    "ips": "IPs",
    "qos": "QOS",
    "tcp": "TCP",
    "tty": "TTY",
    "uid": "UID",
    "url": "URL",
}


def go_name(field_name: str) -> str:
    """The Go name of an exported field the port spells in snake_case: ``image_id`` → ``ImageID``."""
    return "".join(_INITIALISMS.get(part, part.capitalize()) for part in field_name.split("_"))


class Ptr:
    """A value Go holds by pointer: ``Ptr(x)`` is ``&x``, ``Ptr(None)`` a nil pointer.

    ``nil_string`` is what the type's ``String()`` returns on a nil receiver, for a Stringer
    whose method allows one (gogo-protobuf's generated methods return ``"nil"``); without it a
    nil pointer prints ``<nil>``, as fmt prints it when the method cannot run.
    """

    __slots__ = ("elem", "nil_string")

    def __init__(self, elem: Any, nil_string: str = "<nil>") -> None:
        self.elem = elem
        self.nil_string = nil_string


class Time:
    """A ``time.Time``: fmt prints it with its ``String()`` method.

    The port keeps times as seconds since the Unix epoch; ``None`` (or 0.0, where the port uses
    it for "never set") is Go's zero time. A [`Time`][minikubelet.go.clock.Time] of the runtime's
    clock (``go.now()``) also has a monotonic reading, which Go prints after the date:
    ``2021-07-15 00:00:13.1 +0000 UTC m=+13.100000000`` (seconds since the process started in Go,
    since the run started here).
    """

    go_stringer = True
    __slots__ = ("t",)

    def __init__(self, t: float | None) -> None:
        self.t = t

    def __str__(self) -> str:
        from minikubelet.go.clock import time_string

        text = time_string(self.t if self.t else None)
        mono = getattr(self.t, "mono", None)
        if mono is not None:
            text += f" m={'-' if mono < 0 else '+'}{abs(mono):.9f}"
        return text


class Duration:
    """A ``time.Duration``: fmt prints it with its ``String()`` method (``1m30s``, ``300ms``).

    The port keeps a duration as a float of seconds; wrapping it here, rather than formatting it
    where it is logged, leaves the formatting to the moment a line is written, as Go's klog
    does, so a line the verbosity suppresses formats nothing.
    """

    go_stringer = True
    __slots__ = ("d",)

    def __init__(self, d: float) -> None:
        self.d = d

    def __str__(self) -> str:
        return format_duration(self.d)


class Empty:
    """Go's ``struct{}``, e.g. the values of a ``sets.String`` (a ``map[string]sets.Empty``,
    which the port keeps as a ``set``): fmt prints ``{}``."""

    __slots__ = ()

    def go_fields(self) -> list[tuple[str, Any]]:
        return []


def string_set(values: Iterable[str]) -> dict[str, Empty]:
    """A ``sets.String`` as fmt sees it: ``map[a:{} b:{}]``."""
    return {v: Empty() for v in values}


def is_stringer(value: Any) -> bool:
    """Whether fmt would call ``String()`` (or ``Error()``) on ``value`` passed as an argument."""
    if isinstance(value, BaseException):
        return True
    if isinstance(value, Ptr):
        return value.elem is not None and bool(getattr(type(value.elem), "go_stringer", False))
    cls = type(value)
    return bool(getattr(cls, "go_stringer", False)) and not getattr(
        cls, "go_pointer_receiver", False
    )


def address(elem: Any) -> str:
    """The address fmt prints for a pointer it does not follow, e.g. ``0xc0004f8a10``.

    Go prints where the value lives in memory, which changes from run to run. Ours: a made-up
    address in the range of Go's heap, from a checksum of what the pointer points to, so that
    runs stay the same and equal values show the same address.
    """
    return f"0xc000{zlib.crc32(sprint(elem, plus=True).encode()) & 0xFFFFFF:06x}"


def sprint(value: Any, plus: bool = False) -> str:
    """``fmt.Sprintf("%v", value)``, or ``%+v`` with ``plus``."""
    return _print(value, plus, 0, True)


def _fields(value: Any) -> Iterable[tuple[str, Any]]:
    go_fields = getattr(value, "go_fields", None)
    if go_fields is not None:
        return go_fields()
    return [(go_name(f.name), getattr(value, f.name)) for f in dataclasses.fields(value)]


def _is_struct(value: Any) -> bool:
    return hasattr(value, "go_fields") or (
        dataclasses.is_dataclass(value) and not isinstance(value, type)
    )


def _print(value: Any, plus: bool, depth: int, reachable: bool) -> str:
    # fmt's handleMethods: the argument itself, or a value below it that fmt may reach.
    if (depth == 0 or reachable) and is_stringer(value):
        if isinstance(value, Ptr):
            return str(value.elem)
        return str(value)
    if isinstance(value, Ptr):
        elem = value.elem
        if elem is None:
            return value.nil_string if (depth == 0 or reachable) else "<nil>"
        if depth == 0 and (_is_struct(elem) or isinstance(elem, list | tuple | dict)):
            return "&" + _print(elem, plus, depth + 1, reachable)
        return address(elem)
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return _print(value.value, plus, depth, reachable)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, bytes):
        return "[" + " ".join(str(b) for b in value) + "]"
    if isinstance(value, dict):
        pairs = sorted(value.items(), key=lambda kv: _sort_key(kv[0]))
        return (
            "map["
            + " ".join(
                f"{_print(k, plus, depth + 1, reachable)}:{_print(v, plus, depth + 1, reachable)}"
                for k, v in pairs
            )
            + "]"
        )
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value) if isinstance(value, set | frozenset) else value
        return "[" + " ".join(_print(v, plus, depth + 1, reachable) for v in items) + "]"
    if _is_struct(value):
        parts = []
        for name, field_value in _fields(value):
            shown = _print(field_value, plus, depth + 1, reachable and name[:1].isupper())
            parts.append(f"{name}:{shown}" if plus else shown)
        return "{" + " ".join(parts) + "}"
    return str(value)


def _sort_key(key: Any) -> Any:
    """Map keys in fmt's order: numbers by value, strings and structs as Python orders them."""
    if isinstance(key, Enum):
        return key.value
    return key


def _float(f: float) -> str:
    """``%v`` of a float64: ``%g`` with the shortest digits that read back as ``f``, so with an
    exponent when the first digit's power of ten is below -4 or at least 6 (``1e+06``,
    ``1.5e-05``)."""
    if f != f:
        return "NaN"
    if f in (float("inf"), float("-inf")):
        return "+Inf" if f > 0 else "-Inf"
    sign, digit_tuple, exp = Decimal(repr(f)).normalize().as_tuple()
    digits = "".join(map(str, digit_tuple))
    point = len(digits) + int(exp) - 1  # the exponent of the first digit
    minus = "-" if sign else ""
    if digits == "0":
        return minus + "0"
    if -4 <= point < 6:
        if point >= len(digits) - 1:
            return minus + digits + "0" * (point - len(digits) + 1)
        if point >= 0:
            return f"{minus}{digits[: point + 1]}.{digits[point + 1 :]}"
        return f"{minus}0.{'0' * (-point - 1)}{digits}"
    rest = f".{digits[1:]}" if len(digits) > 1 else ""
    return f"{minus}{digits[0]}{rest}e{'-' if point < 0 else '+'}{abs(point):02d}"


_GO_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    '"': '\\"',
    "\\": "\\\\",
}


def quote(s: str) -> str:
    """``s`` in double quotes, as Go's ``%q`` (``strconv.Quote``) writes a string.

    Printable characters stay as they are (Go's ``unicode.IsPrint`` and Python's
    ``str.isprintable`` agree: letters, marks, numbers, punctuation, symbols and the ASCII
    space); ``"`` and ``\\`` get a backslash; the rest are written as Go escapes them. A byte
    that is not UTF-8 (kept in a ``str`` as Python's ``surrogateescape`` decoding keeps it,
    U+DC80…U+DCFF) is written ``\\x`` and its two hex digits, as Go writes an invalid byte.
    """
    if s.isprintable() and '"' not in s and "\\" not in s:
        return f'"{s}"'
    out = []
    for ch in s:
        escaped = _GO_ESCAPES.get(ch)
        code = ord(ch)
        if escaped is not None:
            out.append(escaped)
        elif ch.isprintable():
            out.append(ch)
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


def _string(value: Any) -> str:
    """``%s``: a string as it is, a Stringer's or an error's text, else as ``%v``."""
    if isinstance(value, str) and not isinstance(value, Enum):
        return str.__str__(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return sprint(value)


def _quoted(value: Any) -> str:
    """``%q``: a string, a Stringer's or an error's text in Go quotes; a slice element-wise."""
    if isinstance(value, list | tuple):
        return "[" + " ".join(_quoted(v) for v in value) + "]"
    if isinstance(value, bytes):
        return quote(value.decode("utf-8", "surrogateescape"))
    if isinstance(value, str) and not isinstance(value, Enum):
        return quote(str.__str__(value))
    return quote(sprint(value))


_VERB = re.compile(r"%(\+?)([vsqd%])")


def sprintf(format: str, *args: Any) -> str:
    """``fmt.Sprintf`` for the verbs kubelet's messages use: ``%v``, ``%+v``, ``%s``, ``%q``,
    ``%d`` and ``%%``; a missing argument prints ``%!v(MISSING)``, as in Go."""
    rest = list(args)

    def one(m: re.Match[str]) -> str:
        plus, verb = m.group(1), m.group(2)
        if verb == "%":
            return "%"
        if not rest:
            return f"%!{verb}(MISSING)"
        arg = rest.pop(0)
        if verb == "s":
            return _string(arg)
        if verb == "q":
            return _quoted(arg)
        return sprint(arg, plus=bool(plus))

    text = _VERB.sub(one, format)
    if rest:
        extra = ", ".join(f"{type(a).__name__}={sprint(a)}" for a in rest)
        text += f"%!(EXTRA {extra})"
    return text
