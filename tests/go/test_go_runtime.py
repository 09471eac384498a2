"""Goroutines and the runtime: results, panics, structured shutdown, determinism, deadlocks,
threads and real I/O."""

import asyncio
import http.server
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from minikubelet import go
from minikubelet.go import Chan, DeadlockError, Panic, recv, select

HERE = Path(__file__)


def line_of(marker: str) -> int:
    """The line number of the only line of this file that ends with ``# <marker>``."""
    lines = [
        n
        for n, text in enumerate(HERE.read_text().splitlines(), 1)
        if text.rstrip().endswith(f"# {marker}")
    ]
    assert len(lines) == 1, marker
    return lines[0]


def test_run_returns_what_main_returns():
    async def main(a, b):
        return a + b

    assert go.run(main, 2, 3) == 5


def test_goroutines_get_ids_and_names_like_go():
    seen = []

    async def worker():
        seen.append((go.current_goroutine().id, go.current_goroutine().name))

    async def main():
        seen.append((go.current_goroutine().id, go.current_goroutine().name))
        g = go.go(worker)
        h = go.go(worker, name="pleg")
        await go.sleep(1)
        return g.id, h.id, str(h)

    assert go.run(main) == (2, 3, 'goroutine 3 "pleg"')
    assert seen == [
        (1, "main"),
        (2, "test_goroutines_get_ids_and_names_like_go.<locals>.worker"),
        (3, "pleg"),
    ]


def test_go_starts_the_goroutine_when_the_caller_blocks():
    log = []

    async def worker(x):
        log.append(x)

    async def main():
        go.go(worker, 1)
        log.append("after go")
        await go.gosched()
        log.append("after gosched")

    go.run(main)
    assert log == ["after go", 1, "after gosched"]


def test_go_with_a_coroutine_object_is_refused_with_a_hint():
    async def worker():
        pass

    async def main():
        go.go(worker())

    with pytest.raises(TypeError, match=r"go\(f, x\), not go\(f\(x\)\)"):
        go.run(main)


def test_a_plain_function_can_be_a_goroutine():
    out = []

    async def main():
        go.go(out.append, "x")
        await go.gosched()
        return out

    assert go.run(main) == ["x"]


def test_panic_in_a_goroutine_stops_the_run_and_names_the_goroutine():
    cleaned = []

    async def bad():
        await go.sleep(1)
        raise ValueError("boom")

    async def patient():
        try:
            await go.sleep(3600)
        finally:
            cleaned.append("patient")

    async def main():
        go.go(patient)
        go.go(bad, name="bad-worker")  # GO-BAD
        await go.sleep(10)
        return "unreachable"

    with pytest.raises(ValueError, match="boom") as info:
        go.run(main)
    notes = info.value.__notes__
    assert notes == [
        f'panic in goroutine 3 "bad-worker" (created at {HERE.relative_to(Path.cwd())}:'
        f"{line_of('GO-BAD')})"
    ]
    assert cleaned == ["patient"]  # the others were cancelled and their finally blocks ran


def test_structured_shutdown_leaves_nothing_running():
    finished = []
    loops = []

    async def forever(ch, tag):
        try:
            while True:
                await ch.recv()
        finally:
            finished.append(tag)

    async def main():
        loops.append(asyncio.get_running_loop())
        ch = Chan[int]()
        for tag in range(5):
            go.go(forever, ch, tag)
        await go.sleep(1)
        go.new_ticker(1)  # a ticker left running
        return "done"

    assert go.run(main) == "done"
    assert sorted(finished) == [0, 1, 2, 3, 4]
    assert loops[0].is_closed()


def test_until_stops_the_run_after_that_much_virtual_time():
    ticks = []

    async def main():
        t = go.new_ticker(go.Second)
        async for v in t.c:
            ticks.append(v.mono)

    rt = go.Runtime(seed=0)
    assert rt.run(main, until=30 * go.Second) is None
    assert rt.until_reached
    assert ticks == [float(s) for s in range(1, 31)]


# --- determinism ---------------------------------------------------------------------------


def traced_program(seed: int) -> list[str]:
    """Goroutines, tickers, buffered channels and selects where several cases are often ready."""
    trace: list[str] = []

    async def source(name, ch, period):
        for k in range(20):
            await go.sleep(period)
            await ch.send(f"{name}{k}")
        ch.close()

    async def main():
        config, pleg = Chan[str](2), Chan[str](2)
        sync_ticker = go.new_ticker(go.Second)
        housekeeping = go.new_ticker(2 * go.Second)
        go.go(source, "cfg", config, 0.5)
        go.go(source, "pleg", pleg, 0.7)
        while config or pleg:
            sel = await select(recv(config), recv(pleg), recv(sync_ticker.c), recv(housekeeping.c))
            match sel:
                case 0, (u, ok):
                    if not ok:
                        config = None
                    trace.append(f"{go.now().mono!r} config {u}")
                case 1, (e, ok):
                    if not ok:
                        pleg = None
                    trace.append(f"{go.now().mono!r} pleg {e}")
                case 2, (t, _):
                    trace.append(f"{go.now()} sync {t.mono!r}")
                case 3, _:
                    trace.append(f"{go.now().mono!r} housekeeping")
            await go.sleep(0.3)  # work takes time, so several cases become ready together
        return trace

    return go.run(main, seed=seed)


def test_same_seed_same_trace_bit_for_bit():
    a, b = traced_program(1), traced_program(1)
    assert len(a) > 40
    assert a == b


def test_different_seeds_give_different_traces():
    traces = {tuple(traced_program(seed)) for seed in range(5)}
    assert len(traces) == 5


# --- deadlock ------------------------------------------------------------------------------


def test_deadlock_is_reported_with_every_blocked_goroutine_and_its_line():
    async def stuck_sender(ch):
        await ch.send(1)  # BLOCK-SEND

    async def stuck_waiter(wg):
        await wg.wait()  # BLOCK-WG

    async def main():
        updates = Chan[int](name="updates")
        go.go(stuck_sender, updates, name="sender")  # GO-SENDER
        wg = go.WaitGroup()
        wg.add(1)
        go.go(stuck_waiter, wg, name="waiter")
        await go.sleep(2)
        await select(recv(Chan[int]()), recv(None))  # BLOCK-SELECT

    with pytest.raises(DeadlockError) as info:
        go.run(main)
    err = info.value
    msg = str(err)
    f = HERE.relative_to(Path.cwd())
    assert msg.startswith("all goroutines are asleep - deadlock! (2s into the run, 2021-07-15T")
    assert f'goroutine 1 "main" [select]:\n    {f}:{line_of("BLOCK-SELECT")} in main' in msg
    assert (
        f'goroutine 2 "sender" [chan send on updates]:\n'
        f"    {f}:{line_of('BLOCK-SEND')} in stuck_sender\n"
        f"    created at {f}:{line_of('GO-SENDER')}"
    ) in msg
    assert f'goroutine 3 "waiter" [sync.WaitGroup.Wait]:\n    {f}:{line_of("BLOCK-WG")}' in msg
    assert [(b.id, b.name) for b in err.blocked] == [(1, "main"), (2, "sender"), (3, "waiter")]


def test_deadlock_on_an_asyncio_primitive_names_the_await():
    async def main():
        await asyncio.Event().wait()  # BLOCK-EVENT

    with pytest.raises(DeadlockError) as info:
        go.run(main)
    (b,) = info.value.blocked
    assert b.reason == "await in Event.wait"
    assert b.site.endswith(f":{line_of('BLOCK-EVENT')} in main")


def test_deadlock_is_detected_under_the_real_clock_too():
    async def main():
        await Chan[int]().recv()

    with pytest.raises(DeadlockError, match=r"\[chan receive\]"):
        go.run(main, clock="real")


def test_unread_ticker_neither_hides_a_deadlock_nor_spins_virtual_time():
    async def main():
        t = go.new_ticker(go.Millisecond)
        await go.sleep(1)
        assert len(t.c) == 1  # one tick waits in the buffer; the rest were dropped
        await Chan[int]().recv()

    with pytest.raises(DeadlockError, match=r"\(1s into the run"):
        go.run(main)


def test_panic_in_an_after_func_goroutine_is_reported():
    async def crash():
        raise Panic("from after_func")

    async def main():
        go.after_func(1, crash)  # AFTER-FUNC
        await go.sleep(2)

    with pytest.raises(Panic, match="from after_func") as info:
        go.run(main)
    assert info.value.__notes__[0].endswith(f"test_go_runtime.py:{line_of('AFTER-FUNC')})")


# --- threads, real clock, real I/O ---------------------------------------------------------


def test_virtual_time_stands_still_while_a_thread_works():
    async def main():
        t0 = go.now()
        go.new_ticker(go.Millisecond)  # timers pending: they must not be jumped to meanwhile
        await go.to_thread(time.sleep, 0.05)
        return go.now() - t0

    assert go.run(main) == 0.0


def test_waiting_only_for_a_thread_is_not_a_deadlock():
    async def main():
        return await go.to_thread(lambda: time.sleep(0.02) or "from thread")

    assert go.run(main) == "from thread"


def test_blocking_http_in_a_thread_under_the_virtual_clock():
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"pods: []"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"

    def fetch():
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.read()

    async def main():
        got = []
        for _ in range(3):
            got.append(await go.to_thread(fetch))
            await go.sleep(20 * go.Second)  # poll period: virtual, so no real waiting
        return got, go.now().mono

    try:
        assert go.run(main) == ([b"pods: []"] * 3, 60.0)
    finally:
        server.shutdown()
        server.server_close()


def test_real_clock_runs_ordinary_asyncio_io():
    async def handle(reader, writer):
        data = await reader.readline()
        writer.write(data.upper())
        await writer.drain()
        writer.close()

    async def main():
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        replies = Chan[bytes](1)

        async def client():
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"hello\n")
            await replies.send(await reader.readline())
            writer.close()

        go.go(client)
        ticker = go.new_ticker(5 * go.Millisecond)
        ticks = 0
        while True:
            match await select(recv(replies), recv(ticker.c)):
                case 0, (reply, _):
                    break
                case 1, _:
                    ticks += 1
        server.close()
        await server.wait_closed()
        return reply

    assert go.run(main, clock="real") == b"HELLO\n"


def test_real_clock_until():
    async def main():
        t = go.new_ticker(5 * go.Millisecond)
        last = go.now()
        async for v in t.c:
            assert v > last
            last = v

    rt = go.Runtime(clock="real")
    assert rt.run(main, until=0.05) is None and rt.until_reached


def test_real_clock_until_is_a_deadline_inside_a_long_step():
    # Issue #28 item 6: one step that computes for seconds (thousands of manifests at once) used
    # to carry the run past `until`, which the loop looks at only between its iterations.
    steps = []

    async def busy() -> None:
        end = time.monotonic() + 10
        while time.monotonic() < end:  # never awaits: one step of 10 s
            pass
        steps.append("busy step finished")

    async def main():
        go.go(busy)
        await go.sleep(60 * go.Second)

    rt = go.Runtime(clock="real")
    assert rt.run(main, until=0.2) is None and rt.until_reached
    assert steps == []  # stopped inside the step, not after it


def test_the_deadline_alarm_is_put_away_after_the_run():
    import signal

    before = signal.getsignal(signal.SIGALRM)
    rt = go.Runtime(clock="real")
    assert rt.run(go.sleep, 0.01, until=5) is None and not rt.until_reached
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_virtual_clock_waits_for_real_sockets_when_no_timer_is_pending():
    async def handle(reader, writer):
        writer.write(await reader.readline())
        await writer.drain()
        writer.close()

    async def main():
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"ping\n")
        reply = await reader.readline()
        writer.close()
        server.close()
        await server.wait_closed()
        return reply, go.now().mono

    assert go.run(main) == (b"ping\n", 0.0)


def test_outside_a_runtime_the_error_says_what_to_do():
    with pytest.raises(RuntimeError, match=r"go\.run\(main\)"):
        go.now()

    async def main():
        go.go(print)

    with pytest.raises(RuntimeError, match=r"not asyncio\.run"):
        asyncio.run(main())


def test_a_runtime_runs_once():
    async def main():
        pass

    rt = go.Runtime()
    rt.run(main)
    with pytest.raises(RuntimeError, match="runs once"):
        rt.run(main)


def test_runtime_rejects_an_unknown_clock():
    with pytest.raises(ValueError, match="clock must be"):
        go.Runtime(clock="fast")  # type: ignore[arg-type]


# --- sync ----------------------------------------------------------------------------------


def test_waitgroup_waits_for_all_workers():
    done = []

    async def worker(wg, i):
        try:
            await go.sleep(i)
            done.append(i)
        finally:
            wg.done()

    async def main():
        wg = go.WaitGroup()
        for i in range(4):
            wg.add(1)
            go.go(worker, wg, i)
        await wg.wait()
        return go.now().mono

    assert go.run(main) == 3.0
    assert done == [0, 1, 2, 3]


def test_waitgroup_negative_counter_panics():
    with pytest.raises(Panic, match="negative WaitGroup counter"):
        go.WaitGroup().done()


def test_mutex_serialises_critical_sections_that_await():
    log = []

    async def worker(mu, tag):
        async with mu:
            log.append(f"{tag} in")
            await go.sleep(1)
            log.append(f"{tag} out")

    async def main():
        mu = go.Mutex()
        wg = go.WaitGroup()
        for tag in "abc":
            wg.add(1)
            go.go(lambda t=tag: _and_done(worker(mu, t), wg))
        await wg.wait()
        assert not mu.locked and mu.try_lock() and not mu.try_lock()
        mu.unlock()
        with pytest.raises(Panic, match="unlock of unlocked mutex"):
            mu.unlock()

    go.run(main)
    assert log == ["a in", "a out", "b in", "b out", "c in", "c out"]


async def _and_done(coro, wg):
    try:
        await coro
    finally:
        wg.done()


def test_a_goroutine_that_blocks_again_while_stopping_is_reported():
    async def stubborn(ch):
        try:
            await ch.recv()
        finally:
            await ch.recv()  # BLOCK-AGAIN

    async def main():
        go.go(stubborn, Chan[int]())
        await go.sleep(1)

    with pytest.raises(DeadlockError, match="while stopping") as info:
        go.run(main)
    (b,) = info.value.blocked
    assert b.name.endswith(".stubborn") and b.site.endswith(
        f":{line_of('BLOCK-AGAIN')} in stubborn"
    )


def test_current_runtime_or_none():
    assert go.current_runtime_or_none() is None

    async def main():
        return go.current_runtime_or_none()

    rt = go.Runtime(seed=3)
    assert rt.run(main) is rt and rt.seed == 3


def test_a_signal_handler_keeps_the_run_waiting_without_freezing_virtual_time():
    import os
    import signal

    async def main():
        loop = asyncio.get_running_loop()
        stop = Chan[None]()
        loop.add_signal_handler(signal.SIGUSR1, stop.close)
        try:
            await go.sleep(3)  # timers still jump although a signal could come
            elapsed = go.now().mono
            threading.Timer(0.02, os.kill, (os.getpid(), signal.SIGUSR1)).start()
            got = await stop.recv()  # nothing else can wake us: waits for the signal, no deadlock
        finally:
            loop.remove_signal_handler(signal.SIGUSR1)
        return elapsed, got

    assert go.run(main) == (3.0, (None, False))
