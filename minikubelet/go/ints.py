"""Go's sized integers, as type annotations: ``int32`` and ``int64``.

Python has one ``int``; Go's API types say how wide each number is, and decoding a manifest
refuses a value that does not fit (``containerPort: 4294967296`` is out of range for an
``int32``). A field annotated ``int32`` is an ordinary ``int`` at run time; the annotation only
tells the decoder ([`minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json`][minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json]) the
range.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated


@dataclass(frozen=True, slots=True)
class Bits:
    """The width of a Go integer type, and the range of values it holds."""

    bits: int

    @property
    def min(self) -> int:
        return -(2 ** (self.bits - 1))

    @property
    def max(self) -> int:
        return 2 ** (self.bits - 1) - 1


int32 = Annotated[int, Bits(32)]
int64 = Annotated[int, Bits(64)]
