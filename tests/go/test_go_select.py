"""select: Go's rules, and the fairness of its random choice, checked with a statistical bound."""

import math

import pytest

from minikubelet import go
from minikubelet.go import DEFAULT, Chan, DeadlockError, Panic, Selected, recv, select, send


def test_default_runs_when_nothing_is_ready_and_never_blocks():
    ran = []

    async def other():
        ran.append("other")

    async def main():
        ch = Chan[int]()
        go.go(other)
        t0 = go.now()
        sel = await select(recv(ch), send(ch, 1), default=True)
        assert not ran  # a select with a default does not even yield
        assert go.now() == t0
        return sel

    sel = go.run(main)
    assert sel == (DEFAULT, (None, False))
    assert sel.index == -1 and sel.case is None and not sel.ok


def test_ready_case_wins_over_default():
    async def main():
        a = Chan[str](1)
        await a.send("x")
        return await select(recv(a), default=True)

    assert go.run(main) == (0, ("x", True))


def test_nil_channel_case_is_never_ready():
    async def main():
        closed = Chan[int]()
        closed.close()
        results = [await select(recv(None), None, send(None, 1), default=True)]
        results.append(await select(recv(None), recv(closed)))
        return results

    assert go.run(main) == [(DEFAULT, (None, False)), (1, (None, False))]


def test_select_with_only_nil_cases_blocks_forever():
    async def main():
        await select(recv(None))

    with pytest.raises(DeadlockError, match=r'goroutine 1 "main" \[select\]'):
        go.run(main)


def test_empty_select_blocks_forever_like_go_select_braces():
    async def main():
        await select()

    with pytest.raises(DeadlockError):
        go.run(main)


def test_closed_channel_receive_is_always_ready():
    async def main():
        ch = Chan[int]()
        ch.close()
        return [await select(recv(ch)) for _ in range(3)]

    assert go.run(main) == [(0, (None, False))] * 3


def test_send_case_delivers_the_value():
    async def main():
        ch = Chan[str](1)
        sel = await select(recv(None), send(ch, "hello"))
        return sel, await ch.recv()

    sel, got = go.run(main)
    assert sel == (1, (None, True)) and sel.ok
    assert got == ("hello", True)


def test_choosing_a_send_to_a_closed_channel_panics():
    async def main():
        ch = Chan[int](1)
        ch.close()
        await select(send(ch, 1))

    with pytest.raises(Panic, match="send on closed channel"):
        go.run(main)


def test_blocked_send_case_panics_when_the_channel_is_closed():
    async def closer(ch):
        await go.sleep(1)
        ch.close()

    async def main():
        ch = Chan[int]()
        go.go(closer, ch)
        await select(send(ch, 1), recv(None))

    with pytest.raises(Panic, match="send on closed channel"):
        go.run(main)


def test_blocked_select_takes_exactly_one_and_loses_nothing():
    async def sender(ch, v):
        await ch.send(v)

    async def main():
        a, b = Chan[str](name="a"), Chan[str](name="b")
        go.go(sender, a, "from a")
        go.go(sender, b, "from b")
        first = await select(recv(a), recv(b))
        # The other sender is still blocked, its value intact; the select left no waiter behind.
        assert not a._h.recvq and not b._h.recvq
        other = a if first.index == 1 else b
        second = await other.recv()
        return first.value, second[0]

    assert sorted(go.run(main)) == ["from a", "from b"]


def test_blocked_select_is_woken_by_close_with_ok_false():
    async def closer(ch):
        await go.sleep(5)
        ch.close()

    async def main():
        a, b = Chan[int](), Chan[int]()
        go.go(closer, b)
        sel = await select(recv(a), recv(b))
        return sel, go.now().mono

    sel, t = go.run(main)
    assert sel == (1, (None, False)) and t == 5


def test_blocked_select_send_case_wakes_with_receiver():
    async def receiver(ch, out):
        out.append(await ch.recv())

    async def main():
        ch, out = Chan[int](), []
        go.go(receiver, ch, out)
        sel = await select(send(ch, 42), recv(None))
        await go.gosched()
        return sel, out

    assert go.run(main) == ((0, (None, True)), [(42, True)])


def test_losing_cases_leave_no_waiters_behind():
    async def feeder(ch, n):
        for i in range(n):
            await go.sleep(1)
            await ch.send(i)

    async def main():
        busy, quiet = Chan[int](), Chan[int]()
        go.go(feeder, busy, 50)
        for _ in range(50):
            await select(recv(quiet), recv(busy), recv(quiet))
        return len(quiet._h.recvq), len(busy._h.recvq)

    assert go.run(main) == (0, 0)


def test_selected_reads_as_a_pair_attributes_and_a_match():
    async def main():
        a, b = Chan[int](1), Chan[int](1)
        case_b = recv(b)
        await b.send(9)
        sel = await select(recv(a), case_b)
        assert isinstance(sel, Selected)
        assert (sel.index, sel.value, sel.ok, sel.case) == (1, 9, True, case_b)
        i, (v, ok) = sel
        match sel:
            case 0, _:
                branch = "a"
            case 1, (v, True):
                branch = f"b={v}"
            case _:
                branch = "?"
        return i, v, ok, branch

    assert go.run(main) == (1, 9, True, "b=9")


def test_same_channel_twice_in_one_select():
    async def sender(ch):
        await ch.send("v")

    async def main():
        ch = Chan[str]()
        go.go(sender, ch)
        sel = await select(recv(ch), recv(ch))
        return sel.value, len(ch._h.recvq)

    assert go.run(main) == ("v", 0)


def test_select_outside_a_runtime_says_how_to_start_one():
    import asyncio

    async def main():
        a, b = Chan[int](), Chan[int]()
        a.close()
        b.close()
        await select(recv(a), recv(b))

    with pytest.raises(RuntimeError, match=r"go\.run"):
        asyncio.run(main())


# --- fairness ------------------------------------------------------------------------------
#
# Go's spec: when several cases are ready, one is chosen by uniform pseudo-random selection.
# For k equally likely cases and n selects, Pearson's statistic X² = Σ (O - E)² / E is
# asymptotically χ² with k - 1 degrees of freedom. For even df the tail has a closed form:
# P(X² > x) = e^(-x/2) Σ_{i < df/2} (x/2)^i / i!. We require P > 1e-6 for every seeded run: a fair
# chooser fails one run with probability about 1e-6, and since the seeds are fixed the test itself
# is deterministic. A biased chooser (say, first ready case 40% of the time) fails it at once.

P_MIN = 1e-6


def chi2_sf_even(x: float, df: int) -> float:
    """Upper tail of the χ² distribution for an even number of degrees of freedom."""
    assert df % 2 == 0
    h = x / 2
    return math.exp(-h) * sum(h**i / math.factorial(i) for i in range(df // 2))


def chi2(counts: list[int]) -> float:
    n = sum(counts)
    e = n / len(counts)
    return sum((o - e) ** 2 / e for o in counts)


def test_chi2_tail_is_right():
    assert chi2_sf_even(0.0, 2) == 1.0
    assert chi2_sf_even(5.991, 2) == pytest.approx(0.05, abs=1e-4)  # textbook table values
    assert chi2_sf_even(9.488, 4) == pytest.approx(0.05, abs=1e-4)
    assert chi2_sf_even(chi2([1400, 800, 800]), 2) < P_MIN  # a 47/27/27 split is caught


def _counts_closed(seed: int, n: int) -> list[int]:
    """n selects over 3 always-ready cases (closed channels) among never-ready ones."""

    async def main():
        ready = [Chan[int]() for _ in range(3)]
        for ch in ready:
            ch.close()
        never = Chan[int]()
        counts = [0, 0, 0]
        for _ in range(n):
            sel = await select(
                recv(None), recv(ready[0]), recv(never), recv(ready[1]), recv(ready[2])
            )
            counts[[1, 3, 4].index(sel.index)] += 1
        return counts

    return go.run(main, seed=seed)


def _counts_buffered(seed: int, n: int) -> list[int]:
    """n selects over 5 buffered channels, each kept full: all 5 always ready."""

    async def main():
        chans = [Chan[int](1) for _ in range(5)]
        for ch in chans:
            await ch.send(0)
        counts = [0] * 5
        for _ in range(n):
            sel = await select(*(recv(ch) for ch in chans))
            counts[sel.index] += 1
            await chans[sel.index].send(0)
        return counts

    return go.run(main, seed=seed)


@pytest.mark.parametrize("seed", range(10))
def test_select_is_fair_among_three_ready_cases(seed):
    counts = _counts_closed(seed, 3000)
    assert sum(counts) == 3000
    assert chi2_sf_even(chi2(counts), df=2) > P_MIN, counts


@pytest.mark.parametrize("seed", range(10))
def test_select_is_fair_among_five_ready_cases(seed):
    counts = _counts_buffered(seed, 3000)
    assert chi2_sf_even(chi2(counts), df=4) > P_MIN, counts


def test_select_fairness_pooled_over_seeds():
    pooled = [0, 0, 0]
    for seed in range(100, 120):
        for i, c in enumerate(_counts_closed(seed, 3000)):
            pooled[i] += c
    assert chi2_sf_even(chi2(pooled), df=2) > P_MIN, pooled
    # and each case on its own: |O - n/3| within 5.3 standard deviations (two-sided p < 1e-7)
    n = sum(pooled)
    sd = math.sqrt(n * (1 / 3) * (2 / 3))
    assert all(abs(c - n / 3) < 5.3 * sd for c in pooled), pooled


def test_one_seed_one_sequence_of_choices():
    assert _counts_closed(7, 500) == _counts_closed(7, 500)
    assert _counts_closed(7, 500) != _counts_closed(8, 500)
