"""Several errors as one error, printed as kubelet prints them.

Go: staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


class AggregateError(Exception):
    """A list of errors that is itself an error.

    Go: staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go type aggregate

    Go's ``Aggregate`` is an interface over the unexported ``aggregate`` list; the port has the
    one class. Make one with [`new_aggregate`][], which leaves out ``None`` as Go leaves out nil.
    """

    def __init__(self, errs: list[BaseException]) -> None:
        self.errs = errs
        super().__init__(self.error())

    def error(self) -> str:
        """One error's own message; for more, each distinct message once, as ``[a, b]``.

        Go: staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go (aggregate).Error
        """
        if not self.errs:
            return ""
        if len(self.errs) == 1:
            return str(self.errs[0])
        seen: list[str] = []

        def note(err: BaseException) -> bool:
            msg = str(err)
            if msg not in seen:
                seen.append(msg)
            return False

        self.visit(note)
        return seen[0] if len(seen) == 1 else "[" + ", ".join(seen) + "]"

    def visit(self, f: Callable[[BaseException], bool]) -> bool:
        """Call ``f`` on each error, those of a nested aggregate in its place; stop at a True.

        Go: staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go (aggregate).visit
        """
        for err in self.errs:
            # Go: case aggregate:
            if isinstance(err, AggregateError):
                if err.visit(f):
                    return True
            # Go omitted: case Aggregate: -- the port has one aggregate class, the case above
            # Go: default:
            elif f(err):
                return True
        return False

    def errors(self) -> list[BaseException]:
        """Go: staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go (aggregate).Errors"""
        return self.errs


def new_aggregate(errlist: Iterable[BaseException | None]) -> AggregateError | None:
    """The errors that are not ``None`` as one, or ``None`` if there are none.

    Go: staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go NewAggregate
    """
    errs = [e for e in errlist if e is not None]
    return AggregateError(errs) if errs else None
