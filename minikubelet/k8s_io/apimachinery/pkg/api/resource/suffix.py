"""The suffixes of a quantity: ``Mi``, ``m``, ``e3``, and what each one multiplies by.

Go: staging/src/k8s.io/apimachinery/pkg/api/resource/suffix.go
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from minikubelet.k8s_io.apimachinery.pkg.api.resource.quantity import Format

_DIGITS = frozenset("0123456789")

# Suffix → (base, exponent). Go: suffix.go newSuffixer.
_BINARY_SUFFIXES: dict[str, int] = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL_SUFFIXES: dict[str, int] = {
    "n": -9,
    "u": -6,
    "m": -3,
    "": 0,
    "k": 3,
    "M": 6,
    "G": 9,
    "T": 12,
    "P": 15,
    "E": 18,
}
_DECIMAL_SUFFIX_OF_EXPONENT = {e: s for s, e in _DECIMAL_SUFFIXES.items()}
_BINARY_SUFFIX_OF_EXPONENT = {e: s for s, e in _BINARY_SUFFIXES.items()}


def _interpret(suffix: str) -> tuple[int, int, Format] | None:
    """(base, exponent, format) for a suffix, or None if it is not one.

    Go: staging/src/k8s.io/apimachinery/pkg/api/resource/suffix.go (*suffixHandler).interpret
    """
    # quantity.py imports this module, so its Format is looked up when called.
    from minikubelet.k8s_io.apimachinery.pkg.api.resource.quantity import Format

    if suffix in _DECIMAL_SUFFIXES:
        return 10, _DECIMAL_SUFFIXES[suffix], Format.DECIMAL_SI
    if suffix in _BINARY_SUFFIXES:
        return 2, _BINARY_SUFFIXES[suffix], Format.BINARY_SI
    if len(suffix) > 1 and suffix[0] in "eE":
        digits = suffix[1:]
        body = digits[1:] if digits[0] in "+-" else digits
        if body and all(c in _DIGITS for c in body):
            return 10, int(digits), Format.DECIMAL_EXPONENT
    return None
