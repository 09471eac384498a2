"""Label selectors: requirements on an object's labels, all of which must hold.

Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go

A set of labels is a ``dict[str, str]``. Only what node affinity and ``nodeSelector`` use is
here: building requirements (with their checks), matching, the selector of a label set, and the
selector that matches nothing. Parsing the selector syntax (``a in (x,y)``) is left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from minikubelet.go.ints import Bits
from minikubelet.k8s_io.apimachinery.pkg.selection import operator as selection
from minikubelet.k8s_io.apimachinery.pkg.util.validation.validation import (
    is_qualified_name,
    is_valid_label_value,
)

_int64 = Bits(64)


class Selector(Protocol):
    """Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go type Selector"""

    def matches(self, ls: dict[str, str]) -> bool:
        """Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go Selector.Matches"""
        ...


def _parse_int64(value: str) -> int | None:
    """Go's ``strconv.ParseInt(value, 10, 64)``; ``None`` where Go returns an error."""
    body = value[1:] if value[:1] in ("+", "-") else value
    if not body.isascii() or not body.isdigit():
        return None
    n = int(value)
    return n if _int64.min <= n <= _int64.max else None


@dataclass(frozen=True, slots=True)
class Requirement:
    """A key, an operator and values: ``zone in (a,b)``, ``gpu``, ``cores gt 4``.

    Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go type Requirement
    """

    key: str
    operator: selection.Operator
    str_values: tuple[str, ...] = ()

    def matches(self, ls: dict[str, str]) -> bool:
        """Does the label set satisfy the requirement? A missing key satisfies only the
        negative operators (``notin``, ``!=``, ``!``).

        Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go (*Requirement).Matches
        """
        match self.operator:
            # Go: case selection.In, selection.Equals, selection.DoubleEquals:
            case selection.In | selection.Equals | selection.DoubleEquals:
                if self.key not in ls:
                    return False
                return self.has_value(ls[self.key])
            # Go: case selection.NotIn, selection.NotEquals:
            case selection.NotIn | selection.NotEquals:
                if self.key not in ls:
                    return True
                return not self.has_value(ls[self.key])
            # Go: case selection.Exists:
            case selection.Exists:
                return self.key in ls
            # Go: case selection.DoesNotExist:
            case selection.DoesNotExist:
                return self.key not in ls
            # Go: case selection.GreaterThan, selection.LessThan:
            case selection.GreaterThan | selection.LessThan:
                if self.key not in ls:
                    return False
                # Go logs each of these three failures at V(10) with klog's printf form, which
                # the port's klog does not have; here they are silent.
                ls_value = _parse_int64(ls[self.key])
                if ls_value is None:
                    return False
                if len(self.str_values) != 1:
                    return False
                r_value = _parse_int64(self.str_values[0])
                if r_value is None:
                    return False
                return (self.operator == selection.GreaterThan and ls_value > r_value) or (
                    self.operator == selection.LessThan and ls_value < r_value
                )
            # Go: default:
            case _:
                return False

    def has_value(self, value: str) -> bool:
        """Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go (*Requirement).hasValue"""
        return value in self.str_values


def new_requirement(
    key: str, op: selection.Operator, vals: list[str], path: str = ""
) -> tuple[Requirement, list[str]]:
    """A requirement, and what is wrong with it (each problem prefixed with the field's path,
    ``path`` being where the requirement came from). A requirement with problems must not be
    used.

    Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go NewRequirement

    The problems' wording is ours, as is the validation module's.
    """
    errs: list[str] = []
    where = f"{path}." if path else ""
    if problem := is_qualified_name(key):
        errs.append(f"{where}key: {problem}")
    value_path = f"{where}values"
    match op:
        # Go: case selection.In, selection.NotIn:
        case selection.In | selection.NotIn:
            if len(vals) == 0:
                errs.append(f"{value_path}: for 'in', 'notin' operators, values set can't be empty")
        # Go: case selection.Equals, selection.DoubleEquals, selection.NotEquals:
        case selection.Equals | selection.DoubleEquals | selection.NotEquals:
            if len(vals) != 1:
                errs.append(f"{value_path}: exact-match compatibility requires one single value")
        # Go: case selection.Exists, selection.DoesNotExist:
        case selection.Exists | selection.DoesNotExist:
            if len(vals) != 0:
                errs.append(f"{value_path}: values set must be empty for exists and does not exist")
        # Go: case selection.GreaterThan, selection.LessThan:
        case selection.GreaterThan | selection.LessThan:
            if len(vals) != 1:
                errs.append(
                    f"{value_path}: for 'Gt', 'Lt' operators, exactly one value is required"
                )
            for i, v in enumerate(vals):
                if _parse_int64(v) is None:
                    errs.append(
                        f"{value_path}[{i}]: for 'Gt', 'Lt' operators, the value must be an integer"
                    )
        # Go: default:
        case _:
            errs.append(f"{where}operator: unsupported value {op!r}")
    for i, v in enumerate(vals):
        if problem := is_valid_label_value(v):
            errs.append(f"{value_path}[{i}]: {problem}")
    return Requirement(key, op, tuple(vals)), errs


@dataclass(frozen=True, slots=True)
class InternalSelector:
    """Requirements, sorted by key, that must all hold; none matches every label set.

    Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go type internalSelector
    """

    requirements: tuple[Requirement, ...] = field(default=())

    def matches(self, ls: dict[str, str]) -> bool:
        """Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go (internalSelector).Matches"""
        return all(r.matches(ls) for r in self.requirements)

    def add(self, *reqs: Requirement) -> InternalSelector:
        """A new selector with the requirements added.

        Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go (internalSelector).Add
        """
        return InternalSelector(tuple(sorted((*self.requirements, *reqs), key=lambda r: r.key)))


@dataclass(frozen=True, slots=True)
class NothingSelector:
    """Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go type nothingSelector"""

    def matches(self, ls: dict[str, str]) -> bool:
        """Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go (nothingSelector).Matches"""
        return False


def new_selector() -> InternalSelector:
    """Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go NewSelector"""
    return InternalSelector()


def nothing() -> Selector:
    """Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go Nothing"""
    return NothingSelector()


def selector_from_set(ls: dict[str, str]) -> Selector:
    """A selector that needs each of the set's labels with its value.

    Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go SelectorFromSet

    Go's ``SelectorFromSet`` calls ``SelectorFromValidatedSet``; both are this one function here.
    """
    if not ls:
        return InternalSelector()
    return InternalSelector(
        tuple(Requirement(k, selection.Equals, (v,)) for k, v in sorted(ls.items()))
    )
