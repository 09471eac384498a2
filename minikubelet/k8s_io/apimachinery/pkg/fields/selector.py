"""Field selectors: conditions on an object's fields (for a node, only ``metadata.name``).

Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go

A set of fields is a ``dict[str, str]``; a field it lacks reads as ``""``, as Go's
``Set.Get`` returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class Selector(Protocol):
    """Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go type Selector"""

    def matches(self, ls: dict[str, str]) -> bool:
        """Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go Selector.Matches"""
        ...


@dataclass(frozen=True, slots=True)
class NothingSelector:
    """Matches no object.

    Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go type nothingSelector
    """

    def matches(self, ls: dict[str, str]) -> bool:
        """Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go (nothingSelector).Matches"""
        return False


@dataclass(frozen=True, slots=True)
class HasTerm:
    """The field has this value.

    Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go type hasTerm
    """

    field: str
    value: str

    def matches(self, ls: dict[str, str]) -> bool:
        """Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go (*hasTerm).Matches"""
        return ls.get(self.field, "") == self.value


@dataclass(frozen=True, slots=True)
class NotHasTerm:
    """The field has another value (or none).

    Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go type notHasTerm
    """

    field: str
    value: str

    def matches(self, ls: dict[str, str]) -> bool:
        """Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go (*notHasTerm).Matches"""
        return ls.get(self.field, "") != self.value


@dataclass(frozen=True, slots=True)
class AndTerm:
    """Every selector matches.

    Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go type andTerm
    """

    selectors: tuple[Selector, ...]

    def matches(self, ls: dict[str, str]) -> bool:
        """Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go (andTerm).Matches"""
        return all(q.matches(ls) for q in self.selectors)


def nothing() -> Selector:
    """Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go Nothing"""
    return NothingSelector()


def one_term_equal_selector(k: str, v: str) -> Selector:
    """Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go OneTermEqualSelector"""
    return HasTerm(k, v)


def one_term_not_equal_selector(k: str, v: str) -> Selector:
    """Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go OneTermNotEqualSelector"""
    return NotHasTerm(k, v)


def and_selectors(*selectors: Selector) -> Selector:
    """Go: staging/src/k8s.io/apimachinery/pkg/fields/selector.go AndSelectors"""
    return AndTerm(selectors)
