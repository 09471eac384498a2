"""Go semantics for the port: channels, `select`, goroutines, timers, tickers, virtual time.

kubelet's loop is a Go `select` over channels fed by goroutines and tickers. This package gives
the port the same constructs, explicit and deterministic, on asyncio:

```python
from minikubelet import go
from minikubelet.go import Chan, Second, recv, select

async def main() -> None:
    updates = Chan[str](cap=1)                 # updates := make(chan string, 1)
    ticker = go.new_ticker(1 * Second)          # ticker := time.NewTicker(1 * time.Second)
    go.go(producer, updates)                   # go producer(updates)
    while True:
        match await select(recv(updates), recv(ticker.c)):
            case 0, (u, ok):                   # case u, ok := <-updates:
                if not ok:
                    return
            case 1, _:                         # case <-ticker.C:
                ...

go.run(main, seed=1)                           # virtual clock: same seed, same run
```

See the "Go → Python" page of the docs for each mapping and why asyncio.
"""

from .chan import Chan, RecvChan, SendChan, make_chan
from .clock import (
    VIRTUAL_EPOCH,
    Clock,
    Hour,
    Microsecond,
    Millisecond,
    Minute,
    Nanosecond,
    RealClock,
    Second,
    Time,
    VirtualClock,
    format_time,
    now,
    since,
)
from .ints import Bits, int32, int64
from .panic import BlockedGoroutine, DeadlockError, Panic
from .runtime import (
    Goroutine,
    Runtime,
    current_goroutine,
    current_runtime,
    current_runtime_or_none,
    go,
    gosched,
    run,
    to_thread,
)
from .select import DEFAULT, RecvCase, Selected, SendCase, recv, select, send
from .sync import Mutex, Once, WaitGroup
from .ticker import Ticker, new_ticker, tick
from .timer import Timer, after, after_func, new_timer, sleep

__all__ = [
    "DEFAULT",
    "VIRTUAL_EPOCH",
    "Bits",
    "BlockedGoroutine",
    "Chan",
    "Clock",
    "DeadlockError",
    "Goroutine",
    "Hour",
    "Microsecond",
    "Millisecond",
    "Minute",
    "Mutex",
    "Nanosecond",
    "Once",
    "Panic",
    "RealClock",
    "RecvCase",
    "RecvChan",
    "Runtime",
    "Second",
    "Selected",
    "SendCase",
    "SendChan",
    "Ticker",
    "Time",
    "Timer",
    "VirtualClock",
    "WaitGroup",
    "after",
    "after_func",
    "current_goroutine",
    "current_runtime",
    "current_runtime_or_none",
    "format_time",
    "go",
    "gosched",
    "int32",
    "int64",
    "make_chan",
    "new_ticker",
    "new_timer",
    "now",
    "recv",
    "run",
    "select",
    "send",
    "since",
    "sleep",
    "tick",
    "to_thread",
]
