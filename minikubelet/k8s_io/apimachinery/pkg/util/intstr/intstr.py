"""A field that holds a number or a name (a port ``8080`` or ``http``).

Go: staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go

The port's API types keep such a field as ``int | str``. Go's struct appears where kubelet prints
one with fmt: its ``String()`` has a pointer receiver, so a value prints its three fields,
``{1 0 http}`` (``%v``: kind, number, name). [`from_value`][] gives the struct for printing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from minikubelet.go.ints import int32


class Type(IntEnum):
    """Which of the two an [`IntOrString`][] holds.

    Go: staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go type Type
    """

    INT = 0
    STRING = 1


Int = Type.INT
String = Type.STRING


@dataclass(frozen=True, slots=True)
class IntOrString:
    """Go: staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go type IntOrString"""

    type: Type
    int_val: int32 = 0
    str_val: str = ""

    def go_fields(self) -> list[tuple[str, int | str]]:
        """Go's field names (see [`minikubelet.go.fmt`][minikubelet.go.fmt])."""
        return [("Type", int(self.type)), ("IntVal", self.int_val), ("StrVal", self.str_val)]


def from_int(val: int) -> IntOrString:
    """Go: staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go FromInt"""
    return IntOrString(Int, int_val=val)


def from_string(val: str) -> IntOrString:
    """Go: staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go FromString"""
    return IntOrString(String, str_val=val)


def from_value(val: int | str) -> IntOrString:
    """The struct Go holds for a field the port keeps as ``int | str`` (ours)."""
    return from_int(val) if isinstance(val, int) else from_string(val)
