"""Whether a toleration lets a pod past a taint.

Go: staging/src/k8s.io/api/core/v1/toleration.go
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1.types import (
    Taint,
    Toleration,
    TolerationOpEqual,
    TolerationOpExists,
)


def toleration_tolerates_taint(t: Toleration, taint: Taint) -> bool:
    """Whether ``t`` tolerates ``taint``: no effect matches every effect, no key every key;
    ``Exists`` matches every value, ``Equal`` (or no operator) only the same value.

    Go: staging/src/k8s.io/api/core/v1/toleration.go (*Toleration).ToleratesTaint
    """
    if t.effect is not None and t.effect != taint.effect:
        return False

    if t.key and t.key != taint.key:
        return False

    # Go: switch t.Operator {
    # Go: case "", TolerationOpEqual:
    if t.operator is None or t.operator == TolerationOpEqual:
        return t.value == taint.value
    # Go: case TolerationOpExists:
    # Go: default:
    # Exists tolerates every value; any other operator (the decoder refuses them) none.
    return t.operator == TolerationOpExists
