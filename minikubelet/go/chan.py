"""Channels. Go: `chan T`, `make(chan T, n)`, `ch <- v`, `v, ok := <-ch`, `close(ch)`.

The state of a channel (`_HChan`, after the Go runtime's `hchan`) is a buffer of `cap`
values and two FIFO queues of blocked goroutines: receivers waiting for a value and senders waiting
for room. The rules are Go's:

- a send hands its value straight to a waiting receiver if there is one, else puts it in the
  buffer if there is room, else blocks (an unbuffered channel has no room: a send waits for its
  receiver, a *rendezvous*);
- a receive takes from the buffer (and lets one blocked sender refill it), else takes straight from
  a waiting sender, else returns `(None, False)` if the channel is closed, else blocks;
- `close` wakes every waiting receiver with `(None, False)` and makes every waiting (and every
  later) sender panic with `send on closed channel`.

Everything runs on one thread, in an asyncio event loop, so each operation is atomic between two
`await`s. The zero value Go returns from a closed channel is `None` here.

`Chan` can send and receive; `Chan.recv_only()` and `Chan.send_only()` give the
views Go writes `<-chan T` and `chan<- T` (a receive-only channel has no `send` and no
`close`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

from . import tracing
from .panic import Panic, blocking

T = TypeVar("T")


class _Waiter:
    """A blocked goroutine: the future it awaits. Go: `sudog`'s goroutine and `selectDone`.

    One waiter may sit in several queues at once (a `select`); the first channel to fire it wins,
    the others find it `done` and skip it.
    """

    __slots__ = ("done", "fut")

    def __init__(self, fut: asyncio.Future[tuple[int, Any, bool]]) -> None:
        self.fut = fut
        self.done = False

    def fire(self, index: int, value: Any, ok: bool) -> bool:
        """Wake the goroutine with `(case index, value, ok)`; False if it is already gone."""
        if self.done or self.fut.done():
            self.done = True
            return False
        self.done = True
        self.fut.set_result((index, value, ok))
        return True


class _Sudog:
    """An entry in a channel's wait queue: a waiter, its select case index, the value to send."""

    __slots__ = ("index", "value", "w")

    def __init__(self, w: _Waiter, index: int, value: Any) -> None:
        self.w = w
        self.index = index
        self.value = value


def _live(q: deque[_Sudog]) -> bool:
    """Drop dead entries at the head of `q`; True if a live waiter remains."""
    while q:
        w = q[0].w
        if not w.done and not w.fut.done():
            return True
        q.popleft()
    return False


def _discard(q: deque[_Sudog], s: _Sudog) -> None:
    """Remove `s` from `q` if it is still there (Go: `dequeueSudoG`)."""
    with contextlib.suppress(ValueError):
        q.remove(s)


class _HChan:
    """The shared state of one channel. Go: `runtime.hchan`."""

    __slots__ = ("buf", "cap", "closed", "name", "on_take", "recvq", "sendq", "trace_id")

    def __init__(self, cap: int, name: str | None) -> None:
        if cap < 0:
            raise Panic("makechan: size out of range")
        self.cap = cap
        self.buf: deque[Any] = deque()
        self.recvq: deque[_Sudog] = deque()
        self.sendq: deque[_Sudog] = deque()
        self.closed = False
        self.name = name
        #: Called after a value left the buffer (tickers use it to resume ticking).
        self.on_take: Callable[[], None] | None = None
        #: Ours: the channel's number in a trace recording, set by the recorder.
        self.trace_id: Any = None

    # --- the non-blocking halves, shared by send/recv and select -------------------------------

    def recv_ready(self) -> bool:
        """Would a receive proceed now? (A closed channel is always ready.)"""
        return bool(self.buf) or self.closed or _live(self.sendq)

    def send_ready(self) -> bool:
        """Would a send proceed now? (On a closed channel it proceeds — to a panic.)"""
        return self.closed or len(self.buf) < self.cap or _live(self.recvq)

    def try_send(self, v: Any) -> bool:
        """Send without blocking; False if the send would block. Go: `chansend(block=false)`."""
        if self.closed:
            raise Panic("send on closed channel")
        q = self.recvq
        while q:
            s = q.popleft()
            if s.w.fire(s.index, v, True):
                return True
        if len(self.buf) < self.cap:
            self.buf.append(v)
            if tracing.tracer is not None:
                tracing.tracer.buffer_changed(self)
            return True
        return False

    def try_recv(self) -> tuple[Any, bool] | None:
        """Receive without blocking; None if it would block. Go: `chanrecv(block=false)`."""
        buf = self.buf
        q = self.sendq
        if buf:
            v = buf.popleft()
            while q:  # a full buffer with blocked senders: the first one moves into the buffer
                s = q.popleft()
                if s.w.fire(s.index, None, True):
                    buf.append(s.value)
                    break
            if self.on_take is not None:
                self.on_take()
            if tracing.tracer is not None:
                tracing.tracer.buffer_changed(self)
            return (v, True)
        while q:  # unbuffered: take straight from a blocked sender
            s = q.popleft()
            if s.w.fire(s.index, None, True):
                return (s.value, True)
        if self.closed:
            return (None, False)
        return None

    # --- the blocking operations -----------------------------------------------------------

    @blocking("chan send")
    async def send(self, v: Any) -> None:
        """Go: `ch <- v`."""
        if self.try_send(v):
            if tracing.tracer is not None:
                tracing.tracer.sent(self, v, False)
            return
        w = _Waiter(asyncio.get_running_loop().create_future())
        s = _Sudog(w, 0, v)
        self.sendq.append(s)
        try:
            _, _, ok = await w.fut
        finally:
            if not w.done:  # cancelled while blocked (shutdown): leave the queue
                w.done = True
                _discard(self.sendq, s)
        if not ok:
            raise Panic("send on closed channel")
        if tracing.tracer is not None:
            tracing.tracer.sent(self, v, True)

    @blocking("chan receive")
    async def recv(self) -> tuple[Any, bool]:
        """Go: `v, ok := <-ch`."""
        r = self.try_recv()
        if r is not None:
            if tracing.tracer is not None:
                tracing.tracer.received(self, r[0], r[1], False)
            return r
        w = _Waiter(asyncio.get_running_loop().create_future())
        s = _Sudog(w, 0, None)
        self.recvq.append(s)
        try:
            _, v, ok = await w.fut
        finally:
            if not w.done:
                w.done = True
                _discard(self.recvq, s)
        if tracing.tracer is not None:
            tracing.tracer.received(self, v, ok, True)
        return (v, ok)

    def close(self) -> None:
        """Go: `close(ch)`."""
        if self.closed:
            raise Panic("close of closed channel")
        self.closed = True
        if tracing.tracer is not None:
            tracing.tracer.closed(self)
        while self.recvq:
            s = self.recvq.popleft()
            s.w.fire(s.index, None, False)
        while self.sendq:
            s = self.sendq.popleft()
            s.w.fire(s.index, None, False)  # the sender wakes and panics


class _ChanBase(Generic[T]):
    """What every view of a channel has: `len`, `cap` and a readable `repr`."""

    __slots__ = ("_h",)
    _h: _HChan

    def __len__(self) -> int:
        """Values in the buffer now. Go: `len(ch)`."""
        return len(self._h.buf)

    @property
    def cap(self) -> int:
        """Buffer capacity; 0 for an unbuffered channel. Go: `cap(ch)`."""
        return self._h.cap

    @property
    def closed(self) -> bool:
        """Whether the channel was closed (Go has no such query; handy in tests and logs)."""
        return self._h.closed

    def __bool__(self) -> bool:
        # A channel is a value, never "empty" in a boolean sense: `if ch:` tests for None.
        return True

    def __eq__(self, other: object) -> bool:
        """Two views of one channel are equal, as a `chan T` equals its `<-chan T`."""
        return isinstance(other, _ChanBase) and other._h is self._h

    def __hash__(self) -> int:
        return id(self._h)

    def __repr__(self) -> str:
        h = self._h
        name = f" {h.name!r}" if h.name else ""
        state = " closed" if h.closed else ""
        return f"<{type(self).__name__}{name} len={len(h.buf)} cap={h.cap}{state}>"


class RecvChan(_ChanBase[T]):
    """A receive-only channel. Go: `<-chan T`.

    Make one with `Chan.recv_only()`; every `Chan` is also a `RecvChan`.
    """

    __slots__ = ()

    def __init__(self, h: _HChan) -> None:
        self._h = h

    def recv(self) -> Coroutine[Any, Any, tuple[T | None, bool]]:
        """Receive a value: `v, ok = await ch.recv()`. Go: `v, ok := <-ch`.

        `ok` is False (and `v` None, Go's zero value) once the channel is closed and drained.
        Blocks while there is nothing to receive.
        """
        return self._h.recv()

    def __aiter__(self) -> RecvChan[T]:
        """`async for v in ch:` receives until the channel is closed.

        Go: `for v := range ch`.
        """
        return self

    async def __anext__(self) -> T:
        v, ok = await self._h.recv()
        if not ok:
            raise StopAsyncIteration
        return v

    def __iter__(self) -> None:
        raise TypeError(
            "a channel is iterated with `async for v in ch` (Go: `for v := range ch`); "
            "a plain `for` cannot wait for the next value"
        )


class SendChan(_ChanBase[T]):
    """A send-only channel. Go: `chan<- T`.

    Make one with `Chan.send_only()`; every `Chan` is also a `SendChan`.
    """

    __slots__ = ()

    def __init__(self, h: _HChan) -> None:
        self._h = h

    def send(self, v: T) -> Coroutine[Any, Any, None]:
        """Send a value: `await ch.send(v)`. Go: `ch <- v`.

        Blocks until a receiver takes it (unbuffered) or there is room in the buffer. Sending on a
        closed channel raises `Panic` `send on closed channel`.
        """
        return self._h.send(v)

    def try_send(self, v: T) -> bool:
        """Send if that would not block; False otherwise. Go: `select { case ch <- v: return
        true; default: return false }`, for code that cannot await (a callback, a plain
        method of a simulated server)."""
        return self._h.try_send(v)

    def close(self) -> None:
        """Close the channel. Go: `close(ch)`.

        Receivers get the buffered values, then `(None, False)`. Closing twice raises
        `Panic` `close of closed channel`.
        """
        self._h.close()


class Chan(RecvChan[T], SendChan[T]):
    """A channel. Go: `make(chan T)` (`cap=0`, unbuffered) or `make(chan T, cap)`.

    ```python
    ch = Chan[int](cap=1)          # Go: ch := make(chan int, 1)
    await ch.send(1)               # ch <- 1
    v, ok = await ch.recv()        # v, ok := <-ch
    ch.close(); len(ch); ch.cap    # close(ch); len(ch); cap(ch)
    ```

    `name` is optional and only shows up in `repr` and in deadlock reports.
    """

    __slots__ = ()

    def __init__(self, cap: int = 0, *, name: str | None = None) -> None:
        self._h = _HChan(cap, name)

    def recv_only(self) -> RecvChan[T]:
        """This channel as receive-only. Go: assigning a `chan T` to a `<-chan T`."""
        return RecvChan(self._h)

    def send_only(self) -> SendChan[T]:
        """This channel as send-only. Go: assigning a `chan T` to a `chan<- T`."""
        return SendChan(self._h)


def make_chan(cap: int = 0, *, name: str | None = None) -> Chan[Any]:
    """Go: `make(chan T, cap)`. The same as `Chan(cap)`; use `Chan[T](cap)` to name `T`."""
    return Chan(cap, name=name)
