"""Goroutines and the runtime that runs them. Go: the `go` statement and package `runtime`.

`run()` is the program's entry point (Go: the process running `main`): it makes an asyncio
event loop, runs `main` as goroutine 1 and returns what it returns. Every goroutine started with
`go()` is an asyncio task of that loop. On the way out the runtime is *structured*: the
goroutines still running are cancelled and awaited (their `finally` blocks run), so a test never
leaks one. A goroutine that raises stops the whole run, as an unrecovered panic stops a Go program,
and `run()` re-raises its exception with a note naming the goroutine.

The loop is asyncio's selector loop with two changes, both in `_GoSelector`, the place
where asyncio waits when it has nothing to run:

- under a `VirtualClock` it does not sleep until the next timer but
  advances the clock to it; it still waits, for real, for work running in threads
  (`to_thread()`), so virtual time stands still while a thread works;
- when nothing can ever happen again — no callback ready, no timer, no thread, no socket or signal
  being watched — it raises `DeadlockError` naming every blocked
  goroutine and the line where it waits, instead of hanging.

asyncio runs ready callbacks first in, first out, so with the virtual clock and no threads or
sockets a run is a pure function of its seed: the only randomness is `select`'s choice, drawn
from the runtime's `random.Random(seed)`.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import random
import selectors
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from . import tracing
from .alarm import UntilPassed, alarm_at
from .clock import Clock, RealClock, Time, VirtualClock, format_time
from .collector import collector_paced_for_a_run
from .panic import BlockedGoroutine, DeadlockError
from .sites import blocked_at, caller_site

R = TypeVar("R")


@dataclass(eq=False)
class Goroutine:
    """One goroutine: an asyncio task with a Go-style id and a name.

    `id` counts from 1 (`main`) in the order goroutines are started; `created_at` is the
    `file:line` of the `go()` call, as in Go's `created by … at …`.
    """

    id: int
    name: str
    created_at: str
    task: asyncio.Task[Any] = field(repr=False)

    def __str__(self) -> str:
        return f'goroutine {self.id} "{self.name}"'


class _GoSelector(selectors.BaseSelector):
    """asyncio's selector, wrapped: the one place where the loop waits.

    `select(timeout)` is called by the loop once per iteration: `timeout` is 0 when callbacks
    are ready, the time to the next timer when one is pending, None when there is none.
    """

    def __init__(self, rt: Runtime) -> None:
        self._inner = selectors.DefaultSelector()
        self._rt = rt
        self._baseline = 0  # fds the loop registers for itself (its self-pipe)

    # -- delegated ------------------------------------------------------------------------
    def register(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._inner.register(fileobj, events, data)

    def unregister(self, fileobj: Any) -> selectors.SelectorKey:
        return self._inner.unregister(fileobj)

    def modify(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._inner.modify(fileobj, events, data)

    def get_key(self, fileobj: Any) -> selectors.SelectorKey:
        return self._inner.get_key(fileobj)

    def get_map(self) -> Any:
        return self._inner.get_map()

    def close(self) -> None:
        self._inner.close()

    # -- waiting --------------------------------------------------------------------------
    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        rt = self._rt
        events = self._inner.select(0)
        if not events and timeout != 0:
            events = self._idle(timeout)
        if not rt.clock.virtual:
            rt._check_deadline()
        return events

    def _idle(self, timeout: float | None) -> list[tuple[selectors.SelectorKey, int]]:
        """No callback is ready and no real I/O event arrived: wait, jump time, or give up."""
        rt = self._rt
        loop = rt.loop
        clock = rt.clock
        threads = loop._go_threads > 0
        # Something outside the loop may still wake it: a socket being watched, a signal handler.
        external = loop._go_signals > 0 or len(self._inner.get_map()) > self._baseline
        deadline = rt._deadline
        if clock.virtual:
            if threads:
                # A thread is working: virtual time stands still and we wait for it for real;
                # its completion wakes the loop through the self-pipe.
                return self._inner.select(None)
            if timeout is not None:
                now = clock.monotonic()
                # Jump to the exact due time of the next timer (not now + timeout, which
                # floating point can put a hair short of it).
                # asyncio's private heap of timers: the one place to learn the next due time.
                scheduled = loop._scheduled  # type: ignore[attr-defined]
                due = scheduled[0].when() if scheduled else now + timeout
                if deadline is not None and due > deadline:
                    # Everything due up to `until` has happened; the next timer is later.
                    clock.advance_to(max(now, deadline))  # type: ignore[attr-defined]
                    rt._check_deadline()
                    return []
                clock.advance_to(max(now, due))  # type: ignore[attr-defined]
                return []
            if external or rt._final:
                return self._inner.select(None)
            raise rt._deadlock()
        # Real clock.
        if timeout is None and not (threads or external or rt._final):
            raise rt._deadlock()
        if deadline is not None:
            left = max(0.0, deadline - clock.monotonic())
            timeout = left if timeout is None else min(timeout, left)
        return self._inner.select(timeout)


class _GoLoop(asyncio.SelectorEventLoop):
    """asyncio's selector event loop on the runtime's clock, counting threads and signals."""

    def __init__(self, rt: Runtime) -> None:
        self._go_selector = _GoSelector(rt)
        super().__init__(self._go_selector)
        self._go_selector._baseline = len(self._go_selector.get_map())
        self._go_rt = rt
        self._go_clock = rt.clock
        self._go_threads = 0
        self._go_signals = 0

    @property
    def go_runtime(self) -> Runtime:
        """The `Runtime` this loop belongs to."""
        return self._go_rt

    def time(self) -> float:
        """The loop's time is the runtime clock's monotonic time (virtual or real)."""
        return self._go_clock.monotonic()

    def run_in_executor(  # type: ignore[override]  # typeshed's TypeVarTuple form, same call
        self, executor: Any, func: Callable[..., R], *args: Any
    ) -> Any:
        """As asyncio's, but counted: the loop waits for threads instead of jumping time."""
        fut = super().run_in_executor(executor, func, *args)
        self._go_threads += 1
        fut.add_done_callback(self._go_thread_done)
        return fut

    def _go_thread_done(self, _fut: Any) -> None:
        self._go_threads -= 1

    def add_signal_handler(  # type: ignore[override]  # typeshed's TypeVarTuple form
        self, sig: int, callback: Callable[..., object], *args: Any
    ) -> None:
        """As asyncio's; while a handler is set, waiting for a signal is not a deadlock."""
        super().add_signal_handler(sig, callback, *args)
        self._go_signals += 1

    def remove_signal_handler(self, sig: int) -> bool:
        """As asyncio's."""
        removed = super().remove_signal_handler(sig)
        if removed:
            self._go_signals -= 1
        return removed


ClockChoice = Literal["virtual", "real"] | Clock


class Runtime:
    """One run of a Go-style program: its clock, its seeded RNG, its goroutines and timers.

    Most code uses `run()`, which makes a `Runtime` and calls `run()`. Inside a run,
    `current_runtime()` returns it.
    """

    def __init__(self, *, seed: int = 0, clock: ClockChoice = "virtual") -> None:
        if clock == "virtual":
            self.clock: Clock = VirtualClock()
        elif clock == "real":
            self.clock = RealClock()
        elif isinstance(clock, Clock):
            self.clock = clock
        else:
            raise ValueError(f"clock must be 'virtual', 'real' or a Clock, not {clock!r}")
        self.seed = seed
        #: The RNG behind every random choice of the run (`select`). Go: `fastrand`.
        self.rng = random.Random(seed)
        #: True when the run stopped because `until` was reached.
        self.until_reached = False
        self.loop: _GoLoop = None  # type: ignore[assignment]
        self._next_id = 1
        self._live: dict[int, Goroutine] = {}
        self._by_task: dict[asyncio.Task[Any], Goroutine] = {}
        self._timers: dict[int, Any] = {}  # live Timers and Tickers, stopped at shutdown
        self._next_timer = 0
        self._done: asyncio.Future[None] = None  # type: ignore[assignment]
        self._main: Goroutine | None = None
        self._panic: tuple[Goroutine, BaseException] | None = None
        self._deadline: float | None = None
        self._final = False
        self._stopping = False
        self._t0 = 0.0

    def now(self) -> Time:
        """The current time on this runtime's clock. Go: `time.Now()`."""
        return Time(self.clock.now(), self.clock.monotonic())

    # -- goroutines -----------------------------------------------------------------------
    def spawn(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        name: str | None = None,
        created_at: str | None = None,
    ) -> Goroutine:
        """Start `fn(*args)` as a goroutine. Go: `go fn(args...)`. See `go()`.

        `created_at` defaults to the `file:line` of the first caller outside this package.
        """
        if inspect.iscoroutine(fn):
            fn.close()
            raise TypeError(
                "go() takes a function and its arguments, as Go's `go f(x)`: "
                "write go(f, x), not go(f(x))"
            )
        if not callable(fn):
            raise TypeError(f"go() needs a function, not {fn!r}")
        coro = fn(*args) if inspect.iscoroutinefunction(fn) else _call_maybe_async(fn, args)
        gid = self._next_id
        self._next_id += 1
        gname = name or getattr(fn, "__qualname__", None) or repr(fn)
        task = self.loop.create_task(coro, name=f"goroutine {gid} {gname}")
        g = Goroutine(gid, gname, created_at or caller_site(), task)
        self._live[gid] = g
        self._by_task[task] = g
        task.add_done_callback(self._goroutine_done)
        if tracing.tracer is not None:
            tracing.tracer.goroutine_started(g)
        if self._stopping:
            task.cancel()
        return g

    def _goroutine_done(self, task: asyncio.Task[Any]) -> None:
        g = self._by_task.pop(task)
        del self._live[g.id]
        if tracing.tracer is not None:
            how = (
                "cancelled" if task.cancelled() else "panicked" if task.exception() else "returned"
            )
            tracing.tracer.goroutine_ended(g, how)
        if task.cancelled():
            return
        exc = task.exception()
        if isinstance(exc, UntilPassed):
            return  # stopped at `until`, as a cancelled goroutine is
        if exc is not None:
            self._record_panic(g, exc)
        elif g is self._main and not self._done.done():
            self._done.set_result(None)

    def _record_panic(self, g: Goroutine, exc: BaseException) -> None:
        if self._panic is None:
            self._panic = (g, exc)
        if not self._done.done():
            self._done.set_result(None)

    def current(self) -> Goroutine | None:
        """The goroutine running now (None in a timer callback)."""
        task = asyncio.current_task(self.loop)
        return None if task is None else self._by_task.get(task)

    # -- timers (used by Timer and Ticker) ----------------------------------------------------
    def _add_timer(self, t: Any) -> int:
        self._next_timer += 1
        self._timers[self._next_timer] = t
        return self._next_timer

    def _drop_timer(self, key: int) -> None:
        self._timers.pop(key, None)

    # -- time limit and deadlock ------------------------------------------------------------
    def _check_deadline(self) -> None:
        if (
            self._deadline is not None
            and not self._stopping
            and self.clock.monotonic() >= self._deadline
        ):
            self.until_reached = True
            if not self._done.done():
                self._done.set_result(None)

    def _deadlock(self) -> DeadlockError:
        blocked = []
        for g in self._live.values():
            reason, site = blocked_at(g.task)
            blocked.append(BlockedGoroutine(g.id, g.name, reason, site, g.created_at))
        elapsed = self.clock.monotonic() - self._t0
        when = f"{elapsed:g}s into the run, {format_time(self.clock.now())}"
        if self._stopping:
            when += "; while stopping: these goroutines blocked again after being cancelled"
        return DeadlockError(blocked, when)

    # -- the run ----------------------------------------------------------------------------
    def run(
        self, main: Callable[..., Awaitable[R]], *args: Any, until: float | None = None
    ) -> R | None:
        """Run `main(*args)` as goroutine 1 until it returns; return its result.

        `until` (seconds on the runtime's clock) stops the run when that much time has passed
        (under the virtual clock: once everything due at or before it has run): every goroutine,
        `main` included, is cancelled, `until_reached` is set and the result is None.
        Raises the first goroutine's exception (with a note naming it) or
        `DeadlockError`.
        """
        if self.loop is not None:
            raise RuntimeError("a Runtime runs once; make a new one")
        self.loop = loop = _GoLoop(self)
        self._done = loop.create_future()
        self._t0 = self.clock.monotonic()
        if until is not None:
            self._deadline = self._t0 + until
        error: BaseException | None = None
        tracer = tracing.tracer
        if tracer is not None:
            tracer.run_started(self)
        try:
            self._main = self.spawn(main, args, "main")
            try:
                with alarm_at(None if self.clock.virtual else until, lambda: self._stopping):
                    loop.run_until_complete(self._done)
            except UntilPassed:
                self.until_reached = True
            except DeadlockError as e:
                error = e.with_traceback(None)  # asyncio's internals would only hide the report
            except BaseException as e:  # KeyboardInterrupt and the like: stop, then re-raise
                error = e
            if error is None and self._panic is not None:
                error = self._with_note(*self._panic)
            try:
                self._shutdown()
            except DeadlockError as e:
                if error is None:
                    error = e.with_traceback(None)
                else:
                    error.add_note(str(e))
            if error is None and self._panic is not None:
                error = self._with_note(*self._panic)
        finally:
            if tracer is not None:
                tracer.run_ended(self)
            self._close()
        if error is not None:
            raise error
        main_task = self._main.task
        if self.until_reached or main_task.cancelled():
            return None
        return main_task.result()

    @staticmethod
    def _with_note(g: Goroutine, exc: BaseException) -> BaseException:
        exc.add_note(f"panic in {g} (created at {g.created_at})")
        return exc

    def _shutdown(self) -> None:
        """Stop timers, cancel every goroutine, and wait until all have finished. One that
        blocks again once cancelled deadlocks the stop (`DeadlockError`), raised after one more
        round of cancels so that no task outlives the loop (ours: Go's process just ends)."""
        self._stopping = True
        for t in list(self._timers.values()):
            t.stop()
        loop = self.loop
        stuck: DeadlockError | None = None
        while self._live:
            tasks = [g.task for g in self._live.values()]
            for t in tasks:
                t.cancel()
            try:
                loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            except DeadlockError as e:
                if stuck is not None:
                    break  # blocked once more: they catch their cancellation
                stuck = e
        if stuck is not None:
            raise stuck

    def _close(self) -> None:
        loop = self.loop
        self._final = True
        try:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            loop.close()


async def _call_maybe_async(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    r = fn(*args)
    if inspect.isawaitable(r):
        r = await r
    return r


def current_runtime() -> Runtime:
    """The `Runtime` of the running loop; a clear error outside `run()`."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        raise RuntimeError(
            "minikubelet.go: no runtime here; start the program with go.run(main)"
        ) from None
    rt = getattr(loop, "go_runtime", None)
    if rt is None:
        raise RuntimeError(
            "minikubelet.go: this event loop is not a go runtime; "
            "start the program with go.run(main), not asyncio.run(main)"
        )
    return rt


def current_runtime_or_none() -> Runtime | None:
    """The running `Runtime`, or None outside one (for code that also runs without)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return getattr(loop, "go_runtime", None)


def run(
    main: Callable[..., Awaitable[R]],
    *args: Any,
    seed: int = 0,
    clock: ClockChoice = "virtual",
    until: float | None = None,
) -> R | None:
    """Run a Go-style program: `main(*args)` as goroutine 1. Go: a process running `main`.

    `seed` seeds every random choice (`select`), `clock` is `"virtual"` (default: time
    jumps, runs are repeatable), `"real"` or a `Clock`, and `until`
    stops the run after that many seconds of the clock. Returns `main`'s result (None when
    stopped by `until`); raises a goroutine's exception or a
    `DeadlockError`. Every goroutine has finished when it returns.
    """
    with collector_paced_for_a_run():
        return Runtime(seed=seed, clock=clock).run(main, *args, until=until)


def go(fn: Callable[..., Any], *args: Any, name: str | None = None) -> Goroutine:
    """Start `fn(*args)` as a new goroutine and return at once. Go: `go fn(args...)`.

    `fn` is usually an `async def` function; the arguments are evaluated now, as in Go. The
    goroutine runs when the current one next blocks. `name` (default: the function's name)
    shows up in deadlock reports and panics.
    """
    return current_runtime().spawn(fn, args, name)


def current_goroutine() -> Goroutine | None:
    """The goroutine that is running (Go has no public equivalent; for logs and tests)."""
    return current_runtime().current()


async def gosched() -> None:
    """Let the other runnable goroutines run, then continue. Go: `runtime.Gosched()`.

    Goroutines here are cooperative: one only gives way at an `await` that blocks. A loop that
    polls with `select(..., default=True)` must call this, or nothing else ever runs.
    """
    await asyncio.sleep(0)


async def to_thread(fn: Callable[..., R], *args: Any) -> R:
    """Run blocking `fn(*args)` in a worker thread and wait for it.

    The way to do blocking I/O (files, `urllib`) from a goroutine. Under the virtual clock, time
    stands still while the thread works and the runtime waits for it instead of declaring a
    deadlock. (Go has no equivalent: its scheduler parks a goroutine in a blocking syscall by
    itself.)

    The thread is a daemon that the runtime never joins: a run that ends (``--until``, Ctrl+C)
    while a thread is stuck in a read ends at once, as a Go process exits with goroutines
    still blocked in syscalls. What the thread returns after that is dropped.
    """
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[R] = loop.create_future()
    ctx = contextvars.copy_context()

    def settle(result: Any, error: BaseException | None) -> None:
        if fut.done():  # the waiting goroutine was cancelled
            return
        if error is not None:
            fut.set_exception(error)
        else:
            fut.set_result(result)

    def work() -> None:
        try:
            result, error = ctx.run(fn, *args), None
        except BaseException as e:
            result, error = None, e
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    go_loop = loop if isinstance(loop, _GoLoop) else None
    if go_loop is not None:
        go_loop._go_threads += 1
        fut.add_done_callback(go_loop._go_thread_done)
    threading.Thread(target=work, name=f"to_thread({_name_of(fn)})", daemon=True).start()
    return await fut


def _name_of(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__qualname__", None) or repr(fn)
