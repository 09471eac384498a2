"""Hashing an object by its printed form.

Go: pkg/util/hash/hash.go

Go prints the object with go-spew (``%#v``, sorted keys, no methods) into the hasher. kubelet
passes only one kind of object, the JSON bytes of a container (``HashContainer``), so only
spew's printing of a ``[]uint8`` is ported: its type in brackets, then each byte in decimal,
space-separated, in square brackets: ``([]uint8)[123 34 110 ...]``.
"""

from __future__ import annotations


class Fnv32a:
    """The 32-bit FNV-1a hash, as ``fnv.New32a()`` of Go's standard library makes it."""

    def __init__(self) -> None:
        self._h = 0x811C9DC5

    def reset(self) -> None:
        """Start again (``Reset``)."""
        self._h = 0x811C9DC5

    def write(self, data: bytes) -> None:
        """Hash more bytes (``Write``)."""
        h = self._h
        for b in data:
            h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
        self._h = h

    def sum32(self) -> int:
        """The hash so far (``Sum32``)."""
        return self._h


def deep_hash_object(hasher: Fnv32a, object_to_write: bytes) -> None:
    """Write spew's ``%#v`` of ``object_to_write`` (a ``[]uint8``) into ``hasher``.

    Go: pkg/util/hash/hash.go DeepHashObject
    """
    hasher.reset()
    hasher.write(("([]uint8)[" + " ".join(map(str, object_to_write)) + "]").encode())
