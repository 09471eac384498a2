"""Time: the virtual clock, sleep, timers, After, AfterFunc, tickers that drop ticks."""

from datetime import UTC, datetime

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from minikubelet import go
from minikubelet.go import Chan, Panic, Second, recv, select
from minikubelet.go.clock import time_string


def elapsed() -> float:
    """Virtual seconds since the start of the run (the virtual clock starts at its epoch)."""
    return go.now().mono


def test_durations_read_like_go():
    assert 1 * go.Second == 1000 * go.Millisecond == 10**6 * go.Microsecond
    assert go.Minute == 60 * go.Second and go.Hour == 60 * go.Minute
    assert go.Nanosecond == pytest.approx(1e-9)


def test_virtual_clock_starts_at_a_fixed_epoch():
    async def main():
        await go.sleep(1.5)
        return go.now(), go.format_time(go.now())

    t, text = go.run(main)
    assert datetime(2021, 7, 15, tzinfo=UTC).timestamp() == go.VIRTUAL_EPOCH
    assert t == go.Time(go.VIRTUAL_EPOCH + 1.5, 1.5)
    assert text == str(t) == "2021-07-15T00:00:01.500000Z"


def test_a_virtual_hour_takes_no_real_time():
    async def main():
        await go.sleep(go.Hour)
        return elapsed()

    assert go.run(main) == 3600.0  # and, the clock being virtual, in about a millisecond


def test_sleep_of_zero_or_less_returns_at_once():
    async def main():
        await go.sleep(0)
        await go.sleep(-1)
        return elapsed()

    assert go.run(main) == 0.0


def test_time_is_a_float_that_measures_with_its_monotonic_reading():
    t = go.Time(go.VIRTUAL_EPOCH + 0.25, 0.25)
    u = t + 0.3
    assert isinstance(u, go.Time) and isinstance(u, float)
    assert u - t == u.sub(t) == pytest.approx(0.3)
    assert (u.mono, u.wall) == (0.55, go.VIRTUAL_EPOCH + 0.55)
    assert t.before(u) and u.after(t) and t < u <= u and not t.equal(u)
    assert t.unix() == t.wall == float(t)
    assert (u - 0.3).mono == pytest.approx(0.25)
    assert str(t) == f"{t}" == "2021-07-15T00:00:00.250000Z"
    assert repr(t) == "Time('2021-07-15T00:00:00.250000Z', mono=0.25)"
    assert datetime.fromtimestamp(t, UTC).year == 2021  # usable wherever a timestamp is

    async def main():
        start = go.now()
        await go.sleep(0.55)
        return go.since(start), go.now() - start, go.now().wall - start.wall

    since, diff, by_wall = go.run(main)
    assert since == diff == 0.55  # exact: measured on the monotonic reading
    assert by_wall != 0.55  # 1.6e9 + 0.55 as a float cannot hold 0.55 exactly


def test_virtual_clock_only_moves_forward():
    clock = go.VirtualClock(epoch=0.0)
    clock.advance(2.5)
    assert (clock.monotonic(), clock.now()) == (2.5, 2.5)
    with pytest.raises(ValueError):
        clock.advance(-1)
    assert isinstance(clock, go.Clock) and isinstance(go.RealClock(), go.Clock)


def test_a_custom_clock_object_is_accepted():
    async def main():
        await go.sleep(1)
        return go.now()

    assert go.run(main, clock=go.VirtualClock(epoch=100.0)) == go.Time(101.0, 1.0)


def test_sleepers_wake_in_time_order():
    order = []

    async def sleeper(d):
        await go.sleep(d)
        order.append((d, elapsed()))

    async def main():
        for d in (3, 1, 2):
            go.go(sleeper, d)
        await go.sleep(10)

    go.run(main)
    assert order == [(1, 1.0), (2, 2.0), (3, 3.0)]


def test_after_delivers_the_time_once():
    async def main():
        c = go.after(5 * Second)
        v, ok = await c.recv()
        sel = await select(recv(c), default=True)
        return v.mono, ok, sel.index

    assert go.run(main) == (5.0, True, go.DEFAULT)


def test_after_in_a_select_is_a_timeout():
    async def main():
        never = Chan[int]()
        sel = await select(recv(never), recv(go.after(2 * Second)))
        return sel.index, elapsed()

    assert go.run(main) == (1, 2.0)


def test_timer_stop_and_reset():
    async def main():
        t = go.new_timer(5)
        assert t.stop() is True
        assert t.stop() is False
        await go.sleep(10)
        assert len(t.c) == 0
        assert t.reset(1) is False
        v, _ = await t.c.recv()
        return v.mono

    assert go.run(main) == 11.0


def test_after_func_runs_in_its_own_goroutine():
    seen = []

    async def fn(x):
        seen.append((x, elapsed(), go.current_goroutine().id))

    async def main():
        go.after_func(3, fn, "x")
        await go.sleep(5)

    go.run(main)
    assert seen == [("x", 3.0, 2)]


def test_ticker_ticks_on_its_grid():
    async def main():
        t = go.new_ticker(1.5)
        ticks = [(await t.c.recv())[0].mono for _ in range(4)]
        t.stop()
        return ticks

    assert go.run(main) == [1.5, 3.0, 4.5, 6.0]


def test_ticker_drops_ticks_for_a_slow_reader_and_stays_on_the_grid():
    async def main():
        t = go.new_ticker(1)
        await go.sleep(3.5)  # ticks at 1 (kept in the buffer), 2 and 3 (dropped)
        assert len(t.c) == 1
        first, _ = await t.c.recv()
        second, _ = await t.c.recv()  # the next tick on the grid after 3.5
        return first.mono, second.mono, elapsed()

    assert go.run(main) == (1.0, 4.0, 4.0)


def test_tick_is_a_ticker_channel():
    async def main():
        c = go.tick(2)
        await c.recv()
        await c.recv()
        return elapsed()

    assert go.run(main) == 4.0


def test_stopped_ticker_sends_no_more():
    async def main():
        t = go.new_ticker(1)
        await t.c.recv()
        t.stop()
        sel = await select(recv(t.c), recv(go.after(10)))
        return sel.index

    assert go.run(main) == 1


def test_ticker_reset_changes_the_period_from_now():
    async def main():
        t = go.new_ticker(1)
        await go.sleep(0.5)
        t.reset(2)
        v, _ = await t.c.recv()
        return v.mono

    assert go.run(main) == 2.5


def test_non_positive_ticker_period_panics_like_go():
    async def main():
        go.new_ticker(0)

    with pytest.raises(Panic, match="non-positive interval for NewTicker"):
        go.run(main)


@settings(max_examples=40, deadline=None)
@given(
    period=st.sampled_from([0.25, 0.5, 1.0, 1.5, 3.0]),
    work=st.lists(st.sampled_from([0.0, 0.1, 0.3, 0.7, 2.0, 5.0]), min_size=1, max_size=25),
)
# Found by hypothesis: 8.2 + 0.7 s of work ended a hair before the 9.0 s tick in floating
# point, and the ticker ticked twice at 9.0 s.
@example(period=0.5, work=[0.0, 0.0, 0.7, 2.0, 2.0, 2.0, 0.7, 0.1, 0.0, 0.0])
def test_ticker_matches_a_model_of_go_for_any_reader_speed(period, work):
    """Model: ticks are due at k*period; a tick is delivered iff the one-slot buffer is empty."""
    got = []

    async def main():
        t = go.new_ticker(period)
        for w in work:
            v, _ = await t.c.recv()
            got.append((round(elapsed(), 9), round(v.mono, 9)))
            await go.sleep(w)

    go.run(main)

    expected = []
    now, k, buffered = 0.0, 1, None
    for w in work:
        if buffered is None:  # block until the next tick on the grid
            now = k * period
            tick, k = now, k + 1
        else:
            tick, buffered = buffered, None
        expected.append((round(now, 9), round(tick, 9)))
        end = now + w
        while k * period <= end:  # ticks during the work: the first fills the buffer
            if buffered is None:
                buffered = k * period
            k += 1
        now = end
    assert got == expected


def test_time_string_reads_as_go_prints_a_time():
    """Go's time.Time.String in UTC: the fraction without trailing zeros, none when whole."""
    assert time_string(None) == "0001-01-01 00:00:00 +0000 UTC"  # Go's zero time
    assert time_string(1626307201.0) == "2021-07-15 00:00:01 +0000 UTC"
    assert time_string(1626307201.5) == "2021-07-15 00:00:01.5 +0000 UTC"
    assert time_string(1626307201.000123) == "2021-07-15 00:00:01.000123 +0000 UTC"
    assert time_string(1626307201.9999999) == "2021-07-15 00:00:02 +0000 UTC"
