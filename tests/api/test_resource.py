"""Quantities: parsing as Go's resource.ParseQuantity does, and reading them as integers."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minikubelet.k8s_io.apimachinery.pkg.api.resource import (
    Format,
    Quantity,
    QuantityError,
    parse_quantity,
)

# text, exact amount, format, value() (rounded up), milli_value(), canonical spelling
CASES = [
    ("0", 0, Format.DECIMAL_SI, 0, 0, "0"),
    ("1", 1, Format.DECIMAL_SI, 1, 1000, "1"),
    ("500m", Fraction(1, 2), Format.DECIMAL_SI, 1, 500, "500m"),
    ("0.5", Fraction(1, 2), Format.DECIMAL_SI, 1, 500, "500m"),
    (".5", Fraction(1, 2), Format.DECIMAL_SI, 1, 500, "500m"),
    ("1.", 1, Format.DECIMAL_SI, 1, 1000, "1"),
    ("1.5", Fraction(3, 2), Format.DECIMAL_SI, 2, 1500, "1500m"),
    ("2000", 2000, Format.DECIMAL_SI, 2000, 2_000_000, "2k"),
    ("+7", 7, Format.DECIMAL_SI, 7, 7000, "7"),
    ("-1.5", Fraction(-3, 2), Format.DECIMAL_SI, -2, -1500, "-1500m"),
    ("0.1m", Fraction(1, 10_000), Format.DECIMAL_SI, 1, 1, "100u"),
    ("100n", Fraction(1, 10**7), Format.DECIMAL_SI, 1, 1, "100n"),
    ("1u", Fraction(1, 10**6), Format.DECIMAL_SI, 1, 1, "1u"),
    ("1k", 1000, Format.DECIMAL_SI, 1000, 1_000_000, "1k"),
    ("1G", 10**9, Format.DECIMAL_SI, 10**9, 10**12, "1G"),
    ("2T", 2 * 10**12, Format.DECIMAL_SI, 2 * 10**12, 2 * 10**15, "2T"),
    ("1P", 10**15, Format.DECIMAL_SI, 10**15, 10**18, "1P"),
    ("1E", 10**18, Format.DECIMAL_SI, 10**18, 10**21, "1E"),
    ("1Ki", 1024, Format.BINARY_SI, 1024, 1_024_000, "1Ki"),
    ("128Mi", 128 * 2**20, Format.BINARY_SI, 134_217_728, 134_217_728_000, "128Mi"),
    ("1.5Gi", 3 * 2**29, Format.BINARY_SI, 1_610_612_736, 1_610_612_736_000, "1536Mi"),
    ("2Ti", 2 * 2**40, Format.BINARY_SI, 2 * 2**40, 2 * 2**40 * 1000, "2Ti"),
    ("1Pi", 2**50, Format.BINARY_SI, 2**50, 2**50 * 1000, "1Pi"),
    ("1Ei", 2**60, Format.BINARY_SI, 2**60, 2**60 * 1000, "1Ei"),
    ("0.5Ki", 512, Format.BINARY_SI, 512, 512_000, "512"),
    ("1e3", 1000, Format.DECIMAL_EXPONENT, 1000, 1_000_000, "1e3"),
    ("1E3", 1000, Format.DECIMAL_EXPONENT, 1000, 1_000_000, "1e3"),
    ("1e+3", 1000, Format.DECIMAL_EXPONENT, 1000, 1_000_000, "1e3"),
    ("1.5e-3", Fraction(3, 2000), Format.DECIMAL_EXPONENT, 1, 2, "1500e-6"),
    ("12e6", 12 * 10**6, Format.DECIMAL_EXPONENT, 12 * 10**6, 12 * 10**9, "12e6"),
    ("1e-10", Fraction(1, 10**9), Format.DECIMAL_EXPONENT, 1, 1, "1e-9"),  # rounded up to 1n
    ("134217728", 134_217_728, Format.DECIMAL_SI, 134_217_728, 134_217_728_000, "134217728"),
    ("007", 7, Format.DECIMAL_SI, 7, 7000, "7"),
    # Go's quirks, kept: no digits at all reads as zero.
    (".", 0, Format.DECIMAL_SI, 0, 0, "0"),
    ("-", 0, Format.DECIMAL_SI, 0, 0, "0"),
    ("Mi", 0, Format.BINARY_SI, 0, 0, "0"),
    ("m", 0, Format.DECIMAL_SI, 0, 0, "0"),
]


@pytest.mark.parametrize(("text", "amount", "fmt", "value", "milli", "canonical"), CASES)
def test_parse(text, amount, fmt, value, milli, canonical):
    q = parse_quantity(text)
    assert q.amount == amount
    assert q.format is fmt
    assert q.value() == value
    assert q.milli_value() == milli
    assert str(q) == canonical
    assert q.text == text
    assert parse_quantity(canonical) == q  # the canonical spelling means the same amount


def test_binary_amounts_are_capped_at_the_largest_int64():
    assert parse_quantity("8Ei").amount == 2**63 - 1
    assert parse_quantity("100Ei").value() == 2**63 - 1
    # decimal amounts are not capped (Go keeps them as big decimals)
    assert parse_quantity("1e21").value() == 10**21


ERRORS = [
    ("", 'invalid quantity "": empty (examples: "500m", "0.5", "128Mi", "1G", "1e3")'),
    (
        "128MB",
        'invalid quantity "128MB": expected a number and an optional suffix '
        '(examples: "500m", "0.5", "128Mi", "1G", "1e3")',
    ),
    (
        "abc",
        'invalid quantity "abc": expected a number and an optional suffix '
        '(examples: "500m", "0.5", "128Mi", "1G", "1e3")',
    ),
    (
        "1 Gi",
        'invalid quantity "1 Gi": expected a number and an optional suffix '
        '(examples: "500m", "0.5", "128Mi", "1G", "1e3")',
    ),
    (
        "1.5.5",
        'invalid quantity "1.5.5": expected a number and an optional suffix '
        '(examples: "500m", "0.5", "128Mi", "1G", "1e3")',
    ),
    (
        "1ki",
        'invalid quantity "1ki": unknown suffix "ki": use one of Ki Mi Gi Ti Pi Ei (powers of '
        "1024), n u m k M G T P E (powers of 1000), or an exponent such as e3",
    ),
    (
        "1e",
        'invalid quantity "1e": unknown suffix "e": use one of Ki Mi Gi Ti Pi Ei (powers of '
        "1024), n u m k M G T P E (powers of 1000), or an exponent such as e3",
    ),
    (
        "1Mi3",
        'invalid quantity "1Mi3": unknown suffix "Mi3": use one of Ki Mi Gi Ti Pi Ei (powers of '
        "1024), n u m k M G T P E (powers of 1000), or an exponent such as e3",
    ),
    ("1e99999", 'invalid quantity "1e99999": exponent out of range (at most 10000)'),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_parse_errors(text, message):
    with pytest.raises(QuantityError) as info:
        parse_quantity(text)
    assert str(info.value) == message
    assert info.value.text == text
    assert isinstance(info.value, ValueError)


def test_equality_is_by_amount_whatever_the_spelling():
    assert parse_quantity("1Gi") == parse_quantity("1073741824")
    assert parse_quantity("0.5") == parse_quantity("500m")
    assert hash(parse_quantity("1k")) == hash(parse_quantity("1000"))
    assert parse_quantity("1Ki").cmp(parse_quantity("1k")) == 1
    assert parse_quantity("1k").cmp(parse_quantity("1Ki")) == -1
    assert parse_quantity("1k").cmp(parse_quantity("1e3")) == 0


def test_round_up_keeps_the_spelling_when_nothing_changes():
    q = parse_quantity("0.1m")
    rounded = q.round_up(-3)
    assert rounded.amount == Fraction(1, 1000)
    assert rounded.text is None and str(rounded) == "1m"
    same = parse_quantity("250m")
    assert same.round_up(-3) is same


def test_constructors_and_repr():
    assert Quantity.from_int(3) == parse_quantity("3")
    assert Quantity.from_milli(1500) == parse_quantity("1.5")
    assert repr(parse_quantity("1Gi")) == "Quantity('1Gi')"
    assert repr(Quantity.from_milli(1500)) == "Quantity('1500m')"
    assert Quantity.parse("2") == parse_quantity("2")
    assert parse_quantity("-1").sign() == -1 and parse_quantity("0").is_zero()


SUFFIXES = {
    "": 1,
    "m": Fraction(1, 1000),
    "k": 10**3,
    "M": 10**6,
    "G": 10**9,
    "Ki": 2**10,
    "Mi": 2**20,
    "Gi": 2**30,
    "e2": 100,
    "e-3": Fraction(1, 1000),
}


@given(st.integers(min_value=0, max_value=10**9), st.sampled_from(sorted(SUFFIXES)))
def test_integer_with_suffix(n, suffix):
    # (below the int64 cap on binary amounts, tested above)
    q = parse_quantity(f"{n}{suffix}")
    assert q.amount == n * SUFFIXES[suffix]
    assert parse_quantity(str(q)) == q


@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=999))
def test_decimal_fraction_reads_exactly(whole, thousandths):
    q = parse_quantity(f"{whole}.{thousandths:03d}")
    assert q.milli_value() == whole * 1000 + thousandths
    assert parse_quantity(str(q)) == q
