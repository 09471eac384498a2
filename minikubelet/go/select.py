"""`select`. Go: `select { case v, ok := <-a: … case b <- x: … default: … }`.

Build one case per Go `case` with `recv()` and `send()`, then `await select(...)`:

```python
match await select(recv(config_ch), recv(pleg_ch), recv(sync_ch)):
    case 0, (u, open_):      # case u, open := <-configCh:
        ...
    case 1, (e, _):          # case e := <-plegCh:
        ...
    case 2, _:               # case <-syncCh:
        ...
```

The result is a `Selected`: `(index, (value, ok))`, also readable as `.index`,
`.value`, `.ok` and `.case`. With `default=True` a select never blocks: when no case is
ready it returns index `DEFAULT` (`-1`).

The rules are Go's: if several cases are ready, one is chosen uniformly at random (from the
runtime's seeded RNG, so a run is repeatable); if none is ready and there is no default, the
goroutine blocks until one is; a receive from a closed channel is always ready; a `None` channel
(Go's nil channel) is never ready; choosing a send to a closed channel panics.
"""

from __future__ import annotations

import asyncio
from typing import Any

from . import tracing
from .chan import _ChanBase, _discard, _HChan, _Sudog, _Waiter
from .panic import Panic, blocking
from .runtime import current_runtime

#: The index `select()` returns when its `default` case ran.
DEFAULT = -1


class RecvCase:
    """A receive case. Go: `case v, ok := <-ch:`. Made by `recv()`."""

    __slots__ = ("_h", "chan")

    def __init__(self, chan: _ChanBase[Any] | None) -> None:
        self.chan = chan
        self._h: _HChan | None = None if chan is None else chan._h

    def __repr__(self) -> str:
        return f"recv({self.chan!r})"


class SendCase:
    """A send case. Go: `case ch <- v:`. Made by `send()`."""

    __slots__ = ("_h", "chan", "value")

    def __init__(self, chan: _ChanBase[Any] | None, value: Any) -> None:
        self.chan = chan
        self.value = value
        self._h: _HChan | None = None if chan is None else chan._h

    def __repr__(self) -> str:
        return f"send({self.chan!r}, {self.value!r})"


Case = RecvCase | SendCase


def recv(ch: _ChanBase[Any] | None) -> RecvCase:
    """A receive case for `select()`. Go: `case v, ok := <-ch:`.

    `ch` may be `None`: like Go's nil channel, that case is never ready.
    """
    return RecvCase(ch)


def send(ch: _ChanBase[Any] | None, value: Any) -> SendCase:
    """A send case for `select()`. Go: `case ch <- value:`.

    `ch` may be `None`: like Go's nil channel, that case is never ready.
    """
    return SendCase(ch, value)


class Selected(tuple[int, tuple[Any, bool]]):
    """What `select()` chose: a pair `(index, (value, ok))`.

    `index` is the position of the case that ran (`DEFAULT` = -1 for the default case).
    For a receive case, `(value, ok)` is what the receive returned; for a send case it is
    `(None, True)`; for the default case `(None, False)`. The pair unpacks
    (`i, (v, ok) = await select(...)`) and works with `match`; the same facts are also
    attributes, with `.case` the case object that ran (None for the default).
    """

    case: Case | None

    def __new__(cls, index: int, value: Any, ok: bool, case: Case | None) -> Selected:
        self = super().__new__(cls, (index, (value, ok)))
        self.case = case
        return self

    @property
    def index(self) -> int:  # type: ignore[override]  # shadows tuple.index on purpose
        """The position of the chosen case; `DEFAULT` (-1) for the default case."""
        return self[0]

    @property
    def value(self) -> Any:
        """The received value (None for a send case, the default, or a closed channel)."""
        return self[1][0]

    @property
    def ok(self) -> bool:
        """False when the receive found the channel closed (and for the default case)."""
        return self[1][1]


def _commit(case: Case, i: int) -> Selected:
    """Run a case that is ready, without blocking."""
    h = case._h
    assert h is not None
    if isinstance(case, RecvCase):
        r = h.try_recv()
        assert r is not None
        return Selected(i, r[0], r[1], case)
    if not h.try_send(case.value):  # raises Panic on a closed channel
        raise AssertionError("a ready send case could not send")
    return Selected(i, None, True, case)


@blocking("select")
async def select(*cases: Case | None, default: bool = False) -> Selected:
    """Wait on several channel operations; run exactly one. Go: the `select` statement.

    `cases` are `recv()` and `send()` cases (or `None`, a case that is never ready).
    When several are ready, one is chosen uniformly at random with the runtime's seeded RNG.
    With `default=True` it never blocks and returns index `DEFAULT` when nothing is ready.
    `await select()` with no case blocks forever, like Go's `select {}`.
    """
    ready = [
        i
        for i, c in enumerate(cases)
        if c is not None
        and c._h is not None
        and (c._h.recv_ready() if isinstance(c, RecvCase) else c._h.send_ready())
    ]
    if ready:
        # Go: selectgo's pollorder, the cases shuffled uniformly (runtime/select.go)
        n = len(ready)  # several ready: a uniform choice (Go: the shuffled poll order)
        i = ready[current_runtime().rng.randrange(n)] if n > 1 else ready[0]
        chosen = _commit(cases[i], i)  # type: ignore[arg-type]
        if tracing.tracer is not None:
            tracing.tracer.selected(cases, ready, i, chosen.value, False)
        return chosen
    if default:
        if tracing.tracer is not None:
            tracing.tracer.selected(cases, ready, DEFAULT, None, False)
        return Selected(DEFAULT, None, False, None)

    # Nothing ready: queue one waiter on every channel, in case order, and sleep.
    w = _Waiter(asyncio.get_running_loop().create_future())
    queued: list[tuple[Any, _Sudog]] = []
    for i, c in enumerate(cases):
        if c is None or c._h is None:
            continue
        if isinstance(c, RecvCase):
            s = _Sudog(w, i, None)
            c._h.recvq.append(s)
            queued.append((c._h.recvq, s))
        else:
            s = _Sudog(w, i, c.value)
            c._h.sendq.append(s)
            queued.append((c._h.sendq, s))
    if tracing.tracer is not None:
        tracing.tracer.select_waits(cases)
    try:
        i, v, ok = await w.fut
    finally:
        w.done = True
        for q, s in queued:  # leave every other queue (Go: dequeueSudoG on the losers)
            _discard(q, s)
    if tracing.tracer is not None:
        tracing.tracer.selected(cases, [i], i, v, True)
    case = cases[i]
    if isinstance(case, SendCase):
        if not ok:
            raise Panic("send on closed channel")
        return Selected(i, None, True, case)
    return Selected(i, v, ok, case)
