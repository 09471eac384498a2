"""A quantity's scaled value: the integer path (ours) gives what the Fraction computation gives."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity


def fresh(amount: Fraction, scale: int) -> int:
    """``amount`` in units of 10**scale, rounded away from zero, with Fractions only."""
    units = amount / Fraction(10) ** scale
    return math.ceil(units) if units >= 0 else -math.ceil(-units)


@given(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.integers(min_value=1, max_value=10**9),
    st.integers(min_value=-12, max_value=12),
)
def test_scaled_value_is_the_fraction_computation(
    numerator: int, denominator: int, scale: int
) -> None:
    amount = Fraction(numerator, denominator)
    assert Quantity(amount).scaled_value(scale) == fresh(amount, scale)


def test_values_of_written_quantities() -> None:
    assert Quantity.parse("1Ki").value() == 1024
    assert Quantity.parse("0.5").milli_value() == 500
    assert Quantity.parse("1500m").value() == 2
    assert Quantity.parse("-1500m").value() == -2
    assert Quantity.parse("3").scaled_value(-9) == 3 * 10**9
    assert Quantity.parse("1Gi").scaled_value(3) == 1_073_742
