"""Resource quantities: ``"500m"`` CPU, ``"128Mi"`` of memory, ``"1e3"``, ``"0.5"``.

Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go

A quantity is an optional sign, a decimal number (``2``, ``2.5``, ``2.``, ``.5``) and at most
one suffix, of one of three kinds:

| kind | suffixes | each step |
|---|---|---|
| binary | ``Ki`` ``Mi`` ``Gi`` ``Ti`` ``Pi`` ``Ei`` | × 1024 |
| decimal | ``n`` ``u`` ``m`` (none) ``k`` ``M`` ``G`` ``T`` ``P`` ``E`` | × 1000 |
| exponent | ``e`` or ``E`` and a signed integer (``e3``, ``E-2``) | × 10 |

Go keeps the number exactly (never as a float); so does this module, with
``fractions.Fraction``. What the port needs from a quantity is an integer: CPU in
millicores ([`Quantity.milli_value`][], ``"500m"`` → 500, ``"1"`` → 1000) and memory in
bytes ([`Quantity.value`][], ``"128Mi"`` → 134217728). Both round *up*, as Go does: asking for
``"0.1m"`` of CPU gets you 1 millicore, not nothing.

A few of Go's parser's quirks are kept on purpose, so this module accepts exactly what
kubelet accepts: ``"1."`` and ``".5"`` are numbers, ``"1E"`` is one exa (10**18) but ``"1E3"`` is
one thousand, and a number that is missing altogether counts as zero: a bare sign (``"-"``), a
lone ``"."`` and even a suffix alone (``"Mi"``, ``"m"``, ``"e3"``) all parse as 0.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from minikubelet.base.i18n import both
from minikubelet.go import fmt as go_fmt
from minikubelet.k8s_io.apimachinery.pkg.api.resource.suffix import (
    _BINARY_SUFFIX_OF_EXPONENT,
    _DECIMAL_SUFFIX_OF_EXPONENT,
    _DIGITS,
    _interpret,
)
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import describe

__all__ = [
    "BinarySI",
    "DecimalExponent",
    "DecimalSI",
    "Format",
    "Quantity",
    "QuantityError",
    "parse_quantity",
]


class Format(StrEnum):
    """How a quantity was written, and so how it is written back.

    Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go type Format
    """

    DECIMAL_EXPONENT = "DecimalExponent"  # 12e6
    BINARY_SI = "BinarySI"  # 12Mi (12 * 2**20)
    DECIMAL_SI = "DecimalSI"  # 12M  (12 * 10**6)


#: Go: ``resource.DecimalExponent``.
DecimalExponent = Format.DECIMAL_EXPONENT
#: Go: ``resource.BinarySI``.
BinarySI = Format.BINARY_SI
#: Go: ``resource.DecimalSI``.
DecimalSI = Format.DECIMAL_SI

# Characters that may start a suffix. Go: parseQuantityString ("eEinumkKMGTP").
_SUFFIX_CHARS = frozenset("eEinumkKMGTP")

#: The largest magnitude a BinarySI quantity may have; larger ones are capped (Go: maxAllowed).
_MAX_INT64 = 2**63 - 1
#: Quantities are rounded up (away from zero) to a multiple of this (Go: the Nano scale).
_NANO = Fraction(1, 10**9)
#: We refuse exponents beyond this; Go accepts them, but no such number is a usable resource
#: amount and computing 10**(2**31) would never finish.
_MAX_EXPONENT = 10_000
#: Nor do we take more digits than this, for the same reason: Go accepts any number of digits,
#: but Python turns at most 4300 of them into an integer, and no resource needs a hundred.
_MAX_DIGITS = 1_000

_EXAMPLES = '"500m", "0.5", "128Mi", "1G", "1e3"'


class QuantityError(ValueError):
    """A string that is not a quantity: ``invalid quantity "128MB": <why, with examples>``.

    Go's parser returns one of three errors (``ErrFormatWrong``, ``ErrNumeric``, ``ErrSuffix``
    in quantity.go); this one exception says in words which, and shows examples.
    ``text`` is the string that was parsed and ``reason`` what is wrong with it.
    """

    def __init__(self, text: str, reason: str):
        self.text = text
        self.reason = reason
        shown = text if len(text) <= 40 else f"{text[:30]}... ({len(text)} characters)"
        super().__init__(
            both(
                f"invalid quantity {json.dumps(shown)}: {reason}",
                f"资源数量 {json.dumps(shown)} 不合法：{getattr(reason, 'zh', reason)}",
            )
        )


def _ceil_away_from_zero(value: Fraction) -> int:
    """``value`` as an integer, rounded away from zero (how Go's quantities round "up")."""
    return math.ceil(value) if value >= 0 else -math.ceil(-value)


def _round_up(value: Fraction, step: Fraction) -> Fraction:
    """``value`` rounded away from zero to a multiple of ``step`` (Go: ``inf.RoundUp``)."""
    return _ceil_away_from_zero(value / step) * step


@dataclass(frozen=True, slots=True, repr=False)
class Quantity:
    """An exact amount of a resource, as parsed from ``"500m"``, ``"128Mi"``, ``1`` …

    Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go type Quantity

    ``amount`` is the exact value (already rounded up to a multiple of 10**-9, as Go does when it
    parses). Two quantities are equal when their amounts are equal, however they were written:
    ``Quantity.parse("1Gi") == Quantity.parse("1073741824")``. ``format`` and ``text`` (the
    original spelling, kept so that a manifest written back reads as it was written) take no
    part in comparisons.
    """

    #: Go's ``*Quantity`` has a ``String`` method: klog quotes a pointer in a log line
    #: (``quantity="100Mi"``, ``fmt.Ptr(q)`` here); a ``Quantity`` held by value (in a
    #: ``ResourceList``) prints its fields ([`go_fields`][]).
    go_stringer: ClassVar[bool] = True
    go_pointer_receiver: ClassVar[bool] = True

    amount: Fraction
    format: Format = field(default=Format.DECIMAL_SI, compare=False)
    text: str | None = field(default=None, compare=False)

    @classmethod
    def parse(cls, text: str) -> Quantity:
        """Parse ``text``; raises [`QuantityError`][]. Same as [`parse_quantity`][]."""
        return parse_quantity(text)

    @classmethod
    def from_int(cls, value: int, fmt: Format = Format.DECIMAL_SI) -> Quantity:
        """A quantity of exactly ``value`` (bytes, cores, …).

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go NewQuantity
        """
        return cls(Fraction(value), fmt)

    @classmethod
    def from_milli(cls, value: int, fmt: Format = Format.DECIMAL_SI) -> Quantity:
        """A quantity of ``value`` thousandths (``from_milli(500)`` is ``"500m"``).

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go NewMilliQuantity
        """
        return cls(Fraction(value, 1000), fmt)

    def scaled_value(self, scale: int) -> int:
        """The amount in units of ``10**scale``, rounded up (away from zero).

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (*Quantity).ScaledValue
        """
        return _ceil_away_from_zero(self.amount / Fraction(10) ** scale)

    def value(self) -> int:
        """The amount as a whole number, rounded up: memory in bytes (``"1Ki"`` → 1024).

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (*Quantity).Value
        """
        return self.scaled_value(0)

    def milli_value(self) -> int:
        """The amount in thousandths, rounded up: CPU in millicores (``"0.5"`` → 500).

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (*Quantity).MilliValue
        """
        return self.scaled_value(-3)

    def cmp(self, other: Quantity) -> int:
        """-1, 0 or 1 as this quantity is less than, equal to or greater than ``other``.

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (*Quantity).Cmp
        """
        return (self.amount > other.amount) - (self.amount < other.amount)

    def add(self, y: Quantity) -> Quantity:
        """This quantity plus ``y``, in this quantity's format (``y``'s when this one is zero).

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (*Quantity).Add

        Go adds in place; a [`Quantity`][] here is immutable, so the sum is returned.
        """
        return Quantity(self.amount + y.amount, y.format if self.amount == 0 else self.format)

    def sub(self, y: Quantity) -> Quantity:
        """This quantity minus ``y``, in this quantity's format (``y``'s when this one is zero).

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (*Quantity).Sub

        Returned, not changed in place (see [`Quantity.add`][]).
        """
        return Quantity(self.amount - y.amount, y.format if self.amount == 0 else self.format)

    def sign(self) -> int:
        """-1, 0 or 1 for a negative, zero or positive amount.

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (*Quantity).Sign
        """
        return (self.amount > 0) - (self.amount < 0)

    def is_zero(self) -> bool:
        """True when the amount is zero.

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (*Quantity).IsZero
        """
        return self.amount == 0

    def round_up(self, scale: int) -> Quantity:
        """This quantity rounded up (away from zero) to a multiple of ``10**scale``.

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (*Quantity).RoundUp

        Go changes the quantity in place and reports whether precision was lost; a
        [`Quantity`][] here is immutable, so the rounded quantity is returned (``self`` when
        nothing changed, keeping its original spelling).
        """
        rounded = _round_up(self.amount, Fraction(10) ** scale)
        if rounded == self.amount:
            return self
        return Quantity(rounded, self.format)

    def canonical(self) -> str:
        """The canonical spelling: no fraction digits, the largest suffix that loses nothing.

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (*Quantity).CanonicalizeBytes

        ``1.5`` → ``"1500m"``, ``1.5Gi`` → ``"1536Mi"``, ``0.5Ki`` → ``"512"``. A DecimalSI
        amount beyond the suffixes (above ``E`` or below ``n``) is written with an exponent.
        """
        # Go omitted: case DecimalExponent, DecimalSI: -- the port keeps exact fractions, so there is no format-specific rounding path
        # Go omitted: case BinarySI: -- the port keeps exact fractions, so there is no format-specific rounding path
        # Go omitted: default: -- the port keeps exact fractions, so there is no format-specific rounding path
        # Go omitted: case DecimalExponent, DecimalSI: -- the port keeps exact fractions, so there is no format-specific rounding path
        # Go omitted: default: -- the port keeps exact fractions, so there is no format-specific rounding path
        if self.amount == 0:
            return "0"
        fmt = self.format
        small = -1024 < self.amount < 1024
        if fmt is Format.BINARY_SI and (small or self.amount.denominator != 1):
            # Small or fractional binary amounts are shown in decimal, to lose nothing.
            fmt = Format.DECIMAL_SI
        if fmt is Format.BINARY_SI:
            number, exponent = self.amount.numerator, 0
            while number % 1024 == 0 and exponent < 60:
                number //= 1024
                exponent += 10
            return f"{number}{_BINARY_SUFFIX_OF_EXPONENT.get(exponent, '')}"
        # Decimal: an integer mantissa times a power of ten that is a multiple of 3.
        amount = self.amount
        rest = amount.denominator
        for prime in (2, 5):
            while rest % prime == 0:
                rest //= prime
        if rest != 1:  # not a finite decimal (only possible for hand-made amounts)
            amount = _round_up(amount, _NANO)
        exponent = 0
        while amount.denominator != 1:
            amount *= 10
            exponent -= 1
        mantissa = amount.numerator
        while mantissa % 10 == 0:
            mantissa //= 10
            exponent += 1
        while exponent % 3:
            mantissa *= 10
            exponent -= 1
        if fmt is Format.DECIMAL_SI and exponent in _DECIMAL_SUFFIX_OF_EXPONENT:
            return f"{mantissa}{_DECIMAL_SUFFIX_OF_EXPONENT[exponent]}"
        return f"{mantissa}" if exponent == 0 else f"{mantissa}e{exponent}"

    def go_fields(self) -> list[tuple[str, Any]]:
        """The fields of Go's ``Quantity`` struct, for [`minikubelet.go.fmt`][minikubelet.go.fmt].

        Go's ``String()`` has a pointer receiver, so a ``Quantity`` held by value (as in a
        ``ResourceList``) prints its fields: ``{{500 -3} {<nil>} 500m DecimalSI}`` (the scaled
        int64 amount, the big-decimal amount when the int64 cannot hold it, the cached spelling
        and the format). Which of them ``ParseQuantity`` filled in is worked out from the text
        the quantity was parsed from ([`go_parsed_amount`][]).
        """
        parsed = go_parsed_amount(self.text) if self.text is not None else None
        if parsed is None and self.text is None and (self.amount * 1000).denominator == 1:
            # Made by the port (NewQuantity, RoundUp): Go keeps such amounts in the int64 form.
            scale = 0 if self.amount.denominator == 1 else -3
            parsed = (int(self.amount / Fraction(10) ** scale), scale, "")
        if parsed is None:
            return [
                ("i", _Int64Amount(0, 0)),
                ("d", _InfDecAmount(self.amount)),
                ("s", ""),
                ("Format", self.format),
            ]
        value, scale, cached = parsed
        return [
            ("i", _Int64Amount(value, scale)),
            ("d", _InfDecAmount(None)),
            ("s", cached),
            ("Format", self.format),
        ]

    def __str__(self) -> str:
        """The canonical spelling (Go: ``(*Quantity).String``)."""
        return self.canonical()

    def __repr__(self) -> str:
        return f"Quantity({self.text if self.text is not None else self.canonical()!r})"

    @classmethod
    def unmarshal_json(cls, value: Any) -> Quantity:
        """A quantity from a manifest: a string (``"500m"``) or a bare number (``2``, ``0.5``).

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (*Quantity).UnmarshalJSON

        Raises ``ValueError`` (a [`QuantityError`][] when the text does not parse) with the
        message a manifest error shows.
        """
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            got = describe(value)
            raise ValueError(
                both(
                    f'expected a quantity such as "500m" or "128Mi", got {got}',
                    f'应为 "500m"、"128Mi" 这样的资源数量，实际为{got.zh}',
                )
            )
        if isinstance(value, int) and value.bit_length() > 4 * _MAX_DIGITS:
            got = describe(value)
            raise ValueError(
                both(
                    f"{got} has too many digits (at most {_MAX_DIGITS})",
                    f"{got.zh}位数太多（最多 {_MAX_DIGITS} 位）",
                )
            )
        return parse_quantity(value.strip() if isinstance(value, str) else repr(value))

    def marshal_json(self) -> str:
        """The quantity as it was written, or its canonical spelling.

        Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (Quantity).MarshalJSON
        """
        return self.text if self.text is not None else self.canonical()


def _scan(text: str) -> tuple[bool, str, str, str]:
    """Split ``text`` into (positive, integer digits, fraction digits, suffix).

    Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go parseQuantityString

    Raises [`QuantityError`][] when what follows the number is not a suffix shape.
    """
    # Go omitted: case '-': -- the port scans the text with one regular expression instead of Go's byte switch
    # Go omitted: case '+': -- the port scans the text with one regular expression instead of Go's byte switch
    # Go omitted: case '0': -- the port scans the text with one regular expression instead of Go's byte switch
    # Go omitted: default: -- the port scans the text with one regular expression instead of Go's byte switch
    # Go omitted: case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9': -- the port scans the text with one regular expression instead of Go's byte switch
    # Go omitted: default: -- the port scans the text with one regular expression instead of Go's byte switch
    # Go omitted: case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9': -- the port scans the text with one regular expression instead of Go's byte switch
    # Go omitted: default: -- the port scans the text with one regular expression instead of Go's byte switch
    # Go omitted: case '-', '+': -- the port scans the text with one regular expression instead of Go's byte switch
    # Go omitted: case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9': -- the port scans the text with one regular expression instead of Go's byte switch
    # Go omitted: default: -- the port scans the text with one regular expression instead of Go's byte switch
    positive = True
    pos, end = 0, len(text)
    if pos < end and text[0] in "+-":
        positive = text[0] == "+"
        pos += 1
    # Leading zeros carry nothing; a string of only zeros (or only a sign) is zero.
    while pos < end and text[pos] == "0":
        pos += 1
    if pos >= end:
        return positive, "0", "", ""
    start = pos
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    num = text[start:pos] or "0"
    if pos >= end:
        return positive, num, "", ""
    denom = ""
    if text[pos] == ".":
        pos += 1
        start = pos
        while pos < end and text[pos] in _DIGITS:
            pos += 1
        denom = text[start:pos]
        if pos >= end:
            return positive, num, denom, ""
    suffix_start = pos
    while pos < end and text[pos] in _SUFFIX_CHARS:
        pos += 1
    if pos < end and text[pos] in "+-":
        pos += 1
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos < end:
        raise QuantityError(
            text,
            both(
                f"expected a number and an optional suffix (examples: {_EXAMPLES})",
                f"应为一个数字加可选的单位后缀（例如 {_EXAMPLES}）",
            ),
        )
    return positive, num, denom, text[suffix_start:]


def parse_quantity(text: str) -> Quantity:
    """Parse a quantity such as ``"500m"``, ``"1"``, ``"0.5"``, ``"128Mi"``, ``"1G"`` or ``"1e3"``.

    Go: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go ParseQuantity

    Raises [`QuantityError`][] (a ``ValueError``) with a message that names the bad text.
    Surrounding blanks are not allowed here, as in Go; the manifest loader strips them first,
    as Go's JSON decoding of a quantity does.
    """
    # Go omitted: case DecimalExponent, DecimalSI: -- the port keeps exact fractions instead of Go's int64 fast path and inf.Dec slow path
    # Go omitted: case BinarySI: -- the port keeps exact fractions instead of Go's int64 fast path and inf.Dec slow path
    # Go omitted: case exponent >= 0 && len(denom) == 0: -- the port keeps exact fractions instead of Go's int64 fast path and inf.Dec slow path
    # Go omitted: default: -- the port keeps exact fractions instead of Go's int64 fast path and inf.Dec slow path
    # Go omitted: case BinarySI: -- the port keeps exact fractions instead of Go's int64 fast path and inf.Dec slow path
    # Go omitted: default: -- the port keeps exact fractions instead of Go's int64 fast path and inf.Dec slow path
    if not isinstance(text, str):
        raise QuantityError(repr(text), f"expected a string, not {type(text).__name__}")
    if text == "":
        raise QuantityError(
            text, both(f"empty (examples: {_EXAMPLES})", f"为空（例如 {_EXAMPLES}）")
        )
    if text == "0":
        return Quantity(Fraction(0), Format.DECIMAL_SI, text)

    positive, num, denom, suffix = _scan(text)

    interpreted = _interpret(suffix)
    if interpreted is None:
        raise QuantityError(
            text,
            both(
                f"unknown suffix {json.dumps(suffix)}: use one of Ki Mi Gi Ti Pi Ei (powers of "
                "1024), n u m k M G T P E (powers of 1000), or an exponent such as e3",
                f"未知的后缀 {json.dumps(suffix)}：请使用 Ki Mi Gi Ti Pi Ei（1024 的幂）、"
                "n u m k M G T P E（1000 的幂）之一，或 e3 这样的指数",
            ),
        )
    base, exponent, fmt = interpreted
    if abs(exponent) > _MAX_EXPONENT:
        raise QuantityError(
            text,
            both(
                f"exponent out of range (at most {_MAX_EXPONENT})",
                f"指数超出范围（最大 {_MAX_EXPONENT}）",
            ),
        )

    if len(num) + len(denom) > _MAX_DIGITS:
        digits = len(num) + len(denom)
        raise QuantityError(
            text,
            both(
                f"too many digits ({digits}; at most {_MAX_DIGITS})",
                f"位数太多（{digits} 位，最多 {_MAX_DIGITS} 位）",
            ),
        )
    amount = Fraction(int(num + denom), 10 ** len(denom))
    amount *= Fraction(base) ** exponent
    if not positive:
        amount = -amount

    # Go rounds non-zero amounts up to the smallest unit it can hold (10**-9), so that asking
    # for a tiny amount of something still gets you some of it.
    magnitude = _round_up(abs(amount), _NANO)
    # Go caps binary amounts at the largest int64 (decimal ones it keeps as big numbers).
    if fmt is Format.BINARY_SI and magnitude > _MAX_INT64:
        magnitude = Fraction(_MAX_INT64)
    if fmt is Format.BINARY_SI and 0 < magnitude < 1:
        fmt = Format.DECIMAL_SI  # "0.5Ki" is 512, but "0.0001Ki" is shown in decimal
    return Quantity(magnitude if positive else -magnitude, fmt, text)


@dataclass(frozen=True, slots=True)
class _Int64Amount:
    """Go: staging/src/k8s.io/apimachinery/pkg/api/resource/amount.go type int64Amount"""

    value: int
    scale: int

    def go_fields(self) -> list[tuple[str, Any]]:
        return [("value", self.value), ("scale", self.scale)]


@dataclass(frozen=True, slots=True)
class _InfDecAmount:
    """Go: staging/src/k8s.io/apimachinery/pkg/api/resource/amount.go type infDecAmount

    Go embeds a ``*inf.Dec``: nil unless the amount did not fit the int64 form.
    """

    dec: Fraction | None

    def go_fields(self) -> list[tuple[str, Any]]:
        return [("Dec", go_fmt.Ptr(self.dec))]


def go_parsed_amount(text: str) -> tuple[int, int, str] | None:
    """What Go's ``ParseQuantity`` keeps of ``text`` in its int64 form: ``(value, scale,
    cached spelling)``, or None when it keeps a big decimal instead (or the text does not parse).

    The part of ``ParseQuantity`` (see [`parse_quantity`][]) that chooses between Go's two forms,
    which the port itself does not keep (it keeps exact fractions): the int64 form holds the
    digits as one integer times ``10**scale`` when they are few enough, and the text is cached
    when it is already the canonical spelling.
    """
    if text == "0":
        return 0, 0, text
    try:
        positive, num, denom, suf = _scan(text)
    except QuantityError:
        return None
    interpreted = _interpret(suf)
    if interpreted is None:
        return None
    _, exponent, fmt = interpreted
    precision = 0
    scale = 0
    mantissa = 1
    match fmt:
        case Format.DECIMAL_EXPONENT | Format.DECIMAL_SI:
            scale = exponent
            precision = 18 - (len(num) + len(denom))
        case Format.BINARY_SI:
            scale = 0
            if exponent >= 0 and len(denom) == 0:
                mantissa = mantissa << exponent
                precision = 15 - len(num) - int(exponent * 3 / 10) - 1
            else:
                precision = -1
    if precision < 0:
        return None
    scale -= len(denom)
    if scale < -9:
        return None
    shifted = num + denom
    value = int(shifted)
    result = value * mantissa
    if result > _MAX_INT64:
        return None
    if not positive:
        result = -result
    cached = ""
    if fmt is Format.BINARY_SI:
        if exponent % 10 == 0 and value & 0x07 != 0:
            cached = text
    elif scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0":
        cached = text
    return result, scale, cached
