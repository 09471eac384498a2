"""The operators a label or field selector can use.

Go: staging/src/k8s.io/apimachinery/pkg/selection/operator.go
"""

from __future__ import annotations

from enum import StrEnum


class Operator(StrEnum):
    """How a selector's requirement compares a label with its values (selector syntax spelling).

    Go: staging/src/k8s.io/apimachinery/pkg/selection/operator.go type Operator
    """

    DOES_NOT_EXIST = "!"
    EQUALS = "="
    DOUBLE_EQUALS = "=="
    IN = "in"
    NOT_EQUALS = "!="
    NOT_IN = "notin"
    EXISTS = "exists"
    GREATER_THAN = "gt"
    LESS_THAN = "lt"


# Go's constant names, so that ported code reads ``selection.In``.
DoesNotExist = Operator.DOES_NOT_EXIST
Equals = Operator.EQUALS
DoubleEquals = Operator.DOUBLE_EQUALS
In = Operator.IN
NotEquals = Operator.NOT_EQUALS
NotIn = Operator.NOT_IN
Exists = Operator.EXISTS
GreaterThan = Operator.GREATER_THAN
LessThan = Operator.LESS_THAN
