"""`sync.WaitGroup`, `sync.Mutex` and `sync.Once`, for goroutines of one runtime.

All goroutines share one thread and only switch at an `await`, so code between two `await`s
is already atomic. A `Mutex` is needed only when a critical section itself awaits (sends on
a channel, sleeps…); it is the Go lock in spirit, and its misuse panics with Go's messages.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from types import TracebackType

from .panic import Panic, blocking


class WaitGroup:
    """Wait for a collection of goroutines to finish. Go: `sync.WaitGroup`.

    `wg.add(1)` before `go(worker, wg)`, `wg.done()` at the end of the worker (in a
    `finally`, as Go writes `defer wg.Done()`), `await wg.wait()` to wait for all.
    """

    def __init__(self) -> None:
        self._n = 0
        self._waiters: list[asyncio.Future[None]] = []

    def add(self, delta: int) -> None:
        """Add `delta` (may be negative) to the counter. Go: `WaitGroup.Add`."""
        self._n += delta
        if self._n < 0:
            raise Panic("sync: negative WaitGroup counter")
        if self._n == 0:
            waiters, self._waiters = self._waiters, []
            for f in waiters:
                if not f.done():
                    f.set_result(None)

    def done(self) -> None:
        """Decrement the counter by one. Go: `WaitGroup.Done`."""
        self.add(-1)

    @blocking("sync.WaitGroup.Wait")
    async def wait(self) -> None:
        """Block until the counter is zero. Go: `WaitGroup.Wait`."""
        if self._n == 0:
            return
        f: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(f)
        await f

    def __repr__(self) -> str:
        return f"<WaitGroup n={self._n}>"


class Once:
    """Call a function once, the first time `do` is called. Go: `sync.Once`.

    `f` is an ordinary function: with no `await` in it, no other goroutine can call `do`
    while it runs, so Go's lock is not needed. As in Go, `f` counts as done even when it
    raises (Go marks it done in a `defer`).
    """

    def __init__(self) -> None:
        self._done = False

    def do(self, f: Callable[[], object]) -> None:
        """Call `f` unless this `Once` already did. Go: `Once.Do`."""
        if self._done:
            return
        try:
            f()
        finally:
            self._done = True


class Mutex:
    """A mutual exclusion lock. Go: `sync.Mutex`.

    `await mu.lock()` / `mu.unlock()`, or `async with mu:` (Go: `mu.Lock(); defer
    mu.Unlock()`). Waiters get the lock first come, first served.
    """

    def __init__(self) -> None:
        self._locked = False
        self._waiters: deque[asyncio.Future[None]] = deque()

    @blocking("sync.Mutex.Lock")
    async def lock(self) -> None:
        """Acquire the lock, blocking while another goroutine holds it. Go: `Mutex.Lock`."""
        if not self._locked:
            self._locked = True
            return
        f: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(f)
        try:
            await f  # unlock() hands the lock over: it stays locked, now ours
        except BaseException:
            if f.done() and not f.cancelled():
                self.unlock()  # handed over just as we were cancelled: pass it on
            else:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(f)
            raise

    def try_lock(self) -> bool:
        """Acquire the lock if it is free. Go: `Mutex.TryLock` (Go 1.18)."""
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self) -> None:
        """Release the lock, handing it to the first waiter. Go: `Mutex.Unlock`."""
        if not self._locked:
            raise Panic("sync: unlock of unlocked mutex")
        while self._waiters:
            f = self._waiters.popleft()
            if not f.done():
                f.set_result(None)
                return
        self._locked = False

    @property
    def locked(self) -> bool:
        """Whether the lock is held."""
        return self._locked

    async def __aenter__(self) -> Mutex:
        await self.lock()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.unlock()

    def __repr__(self) -> str:
        return f"<Mutex locked={self._locked} waiters={len(self._waiters)}>"
