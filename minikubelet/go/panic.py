"""The errors of the Go runtime: a panic, and the deadlock report.

Go stops the whole program when a goroutine panics and nobody recovers, and when every goroutine
is blocked with nothing left that could wake one ("all goroutines are asleep - deadlock!"). Here a
panic is an ordinary exception (`Panic` for the runtime's own ones) that `run()`
re-raises with a note naming the goroutine; a deadlock is a `DeadlockError` that lists every
blocked goroutine, what it waits for and the file:line where it waits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])

#: Code objects of the runtime's blocking operations → the wait reason Go would print
#: (`chan receive`, `chan send`, `select`…). Filled by `blocking()`.
WAIT_REASONS: dict[CodeType, str] = {}


def blocking(reason: str) -> Callable[[F], F]:
    """Mark a coroutine function as a place where a goroutine can block, and say why.

    The decorator does not wrap: it records `fn.__code__` and returns `fn` itself, so stepping
    in a debugger and tracebacks are unchanged. The deadlock report uses the reason, as Go's
    traceback does (`goroutine 1 [chan receive]:`).
    """

    def mark(fn: F) -> F:
        WAIT_REASONS[fn.__code__] = reason
        return fn

    return mark


class Panic(RuntimeError):
    """A run-time panic raised by the Go runtime itself. Go: `panic(...)` from package runtime.

    The messages are Go's own: `send on closed channel`, `close of closed channel`,
    `sync: negative WaitGroup counter`, …
    """


@dataclass(frozen=True)
class BlockedGoroutine:
    """One line of a deadlock report: a goroutine, why it waits, and where.

    `site` is `file:line in function` of the innermost frame outside the runtime (the line of
    your `await`); `created_at` is where `go()` was called.
    """

    id: int
    name: str
    reason: str
    site: str
    created_at: str

    def __str__(self) -> str:
        return (
            f'goroutine {self.id} "{self.name}" [{self.reason}]:\n'
            f"    {self.site}\n"
            f"    created at {self.created_at}"
        )


class DeadlockError(RuntimeError):
    """Every goroutine is blocked and nothing can wake one: no timer, no thread, no I/O.

    Go: `fatal error: all goroutines are asleep - deadlock!`. Instead of hanging, `run()`
    raises this error; `blocked` lists each goroutine with its wait reason and site.
    """

    def __init__(self, blocked: list[BlockedGoroutine], when: str) -> None:
        self.blocked = blocked
        lines = [f"all goroutines are asleep - deadlock! ({when})", ""]
        lines += [str(b) for b in blocked]
        super().__init__("\n".join(lines))
