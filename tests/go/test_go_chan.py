"""Channels: Go's rules for send, receive, close, len/cap, range, and the directional views."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minikubelet import go
from minikubelet.go import Chan, Panic, RecvChan, SendChan

FAST = settings(max_examples=60, deadline=None)


def run(main, *args, seed=0):
    return go.run(main, *args, seed=seed)


def test_buffered_send_does_not_block_until_full():
    async def main():
        ch = Chan[int](cap=2)
        await ch.send(1)
        await ch.send(2)
        assert (len(ch), ch.cap) == (2, 2)
        assert await ch.recv() == (1, True)
        assert len(ch) == 1
        return await ch.recv()

    assert run(main) == (2, True)


def test_unbuffered_send_waits_for_its_receiver():
    log = []

    async def sender(ch):
        log.append("send start")
        await ch.send("x")
        log.append("send done")

    async def main():
        ch = Chan[str]()
        assert (len(ch), ch.cap) == (0, 0)
        go.go(sender, ch)
        await go.sleep(1)  # the sender runs and blocks: nobody receives yet
        log.append("recv")
        v = await ch.recv()
        await go.gosched()
        return v

    assert run(main) == ("x", True)
    assert log == ["send start", "recv", "send done"]


def test_receive_from_closed_channel_drains_then_reports_closed():
    async def main():
        ch = Chan[int](3)
        for v in (1, 2):
            await ch.send(v)
        ch.close()
        got = [await ch.recv() for _ in range(4)]
        return got, ch.closed

    got, closed = run(main)
    assert got == [(1, True), (2, True), (None, False), (None, False)]
    assert closed


def test_close_wakes_every_blocked_receiver():
    async def receiver(ch, out):
        out.append(await ch.recv())

    async def main():
        ch, out = Chan[int](), []
        for _ in range(3):
            go.go(receiver, ch, out)
        await go.sleep(1)
        ch.close()
        await go.sleep(1)
        return out

    assert run(main) == [(None, False)] * 3


def test_close_twice_panics():
    async def main():
        ch = Chan[int]()
        ch.close()
        ch.close()

    with pytest.raises(Panic, match="close of closed channel"):
        run(main)


def test_send_on_closed_channel_panics():
    async def main():
        ch = Chan[int](1)
        ch.close()
        await ch.send(1)

    with pytest.raises(Panic, match="send on closed channel"):
        run(main)


def test_blocked_sender_panics_when_channel_is_closed():
    async def sender(ch):
        await ch.send(1)

    async def main():
        ch = Chan[int]()
        go.go(sender, ch, name="blocked-sender")
        await go.sleep(1)
        ch.close()
        await go.sleep(1)

    with pytest.raises(Panic, match="send on closed channel") as info:
        run(main)
    assert any('"blocked-sender"' in note for note in info.value.__notes__)


def test_negative_capacity_panics():
    with pytest.raises(Panic, match="size out of range"):
        Chan(-1)


def test_async_for_ends_at_close():
    async def producer(ch):
        for v in range(5):
            await ch.send(v)
        ch.close()

    async def main():
        ch = Chan[int]()
        go.go(producer, ch)
        return [v async for v in ch]

    assert run(main) == [0, 1, 2, 3, 4]


def test_plain_for_is_refused_with_a_hint():
    with pytest.raises(TypeError, match="async for"):
        for _ in Chan[int]():
            pass


def test_views_mirror_directional_channels():
    async def main():
        ch = Chan[int](1)
        r, s = ch.recv_only(), ch.send_only()
        assert isinstance(r, RecvChan) and not isinstance(r, SendChan)
        assert isinstance(s, SendChan) and not isinstance(s, RecvChan)
        assert not hasattr(r, "send") and not hasattr(r, "close")
        assert not hasattr(s, "recv")
        assert r == ch and s == ch and hash(r) == hash(ch)
        await s.send(7)
        assert (len(r), r.cap) == (1, 1)
        got = await r.recv()
        s.close()
        return got, await r.recv()

    assert run(main) == ((7, True), (None, False))


def test_empty_channel_is_still_truthy_and_has_a_readable_repr():
    ch = Chan[int](2, name="updates")
    assert ch and len(ch) == 0
    assert repr(ch) == "<Chan 'updates' len=0 cap=2>"
    ch.close()
    assert "closed" in repr(ch)


def test_make_chan_is_go_make():
    ch = go.make_chan(4)
    assert isinstance(ch, Chan) and ch.cap == 4


def test_full_buffer_refilled_from_blocked_sender_in_order():
    async def sender(ch):
        for v in range(4):
            await ch.send(v)

    async def main():
        ch = Chan[int](2)
        go.go(sender, ch)
        await go.sleep(1)  # buffer holds 0, 1; the sender is blocked with 2
        assert len(ch) == 2
        return [await ch.recv() for _ in range(4)]

    assert run(main) == [(v, True) for v in range(4)]


# --- properties ----------------------------------------------------------------------------

delays = st.lists(st.integers(min_value=0, max_value=3), max_size=40)


async def _pause(n: int) -> None:
    """Perturb the interleaving: yield n times, or sleep a little virtual time."""
    if n == 3:
        await go.sleep(0.001)
    for _ in range(n):
        await go.gosched()


@FAST
@given(
    cap=st.integers(min_value=0, max_value=5),
    values=st.lists(st.integers(), max_size=40),
    send_pauses=delays,
    recv_pauses=delays,
)
def test_fifo_order_per_channel(cap, values, send_pauses, recv_pauses):
    async def producer(ch):
        for i, v in enumerate(values):
            await _pause(send_pauses[i] if i < len(send_pauses) else 0)
            await ch.send(v)
        ch.close()

    async def main():
        ch = Chan[int](cap)
        go.go(producer, ch)
        got = []
        i = 0
        while True:
            await _pause(recv_pauses[i] if i < len(recv_pauses) else 0)
            v, ok = await ch.recv()
            if not ok:
                return got
            assert len(ch) <= cap
            got.append(v)
            i += 1

    assert run(main) == values


@FAST
@given(
    cap=st.integers(min_value=0, max_value=4),
    per_sender=st.lists(st.integers(min_value=0, max_value=15), min_size=1, max_size=6),
    receivers=st.integers(min_value=1, max_value=5),
    pauses=delays,
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_many_senders_and_receivers_lose_and_duplicate_nothing(
    cap, per_sender, receivers, pauses, seed
):
    async def sender(ch, wg, sid, n):
        try:
            for k in range(n):
                await _pause(pauses[(sid + k) % len(pauses)] if pauses else 0)
                await ch.send((sid, k))
        finally:
            wg.done()

    async def receiver(ch, wg, rid, out):
        try:
            k = 0
            async for v in ch:
                out[rid].append(v)
                await _pause(pauses[(rid * 7 + k) % len(pauses)] if pauses else 0)
                k += 1
        finally:
            wg.done()

    async def main():
        ch = Chan[tuple[int, int]](cap)
        senders, done = go.WaitGroup(), go.WaitGroup()
        out = [[] for _ in range(receivers)]
        for sid, n in enumerate(per_sender):
            senders.add(1)
            go.go(sender, ch, senders, sid, n)
        for rid in range(receivers):
            done.add(1)
            go.go(receiver, ch, done, rid, out)
        await senders.wait()
        ch.close()
        await done.wait()
        return out

    out = run(main, seed=seed)
    sent = Counter((sid, k) for sid, n in enumerate(per_sender) for k in range(n))
    received = Counter(v for part in out for v in part)
    assert received == sent
    for part in out:  # each receiver sees each sender's values in the order they were sent
        for sid in range(len(per_sender)):
            ks = [k for s, k in part if s == sid]
            assert ks == sorted(ks)


@FAST
@given(
    cap=st.integers(min_value=0, max_value=5),
    buffered=st.integers(min_value=0, max_value=5),
    blocked_senders=st.integers(min_value=0, max_value=3),
    blocked_receivers=st.integers(min_value=0, max_value=3),
)
def test_close_semantics(cap, buffered, blocked_senders, blocked_receivers):
    buffered = min(buffered, cap)
    if buffered < cap:
        blocked_senders = 0  # senders only block on a full buffer
    if buffered > 0 or blocked_senders:
        blocked_receivers = 0  # receivers only block when there is nothing to take

    outcome = []

    async def sender(ch):
        try:
            await ch.send("late")
            outcome.append("sent")
        except Panic as e:
            outcome.append(str(e))

    async def receiver(ch):
        outcome.append(await ch.recv())

    async def main():
        ch = Chan[str](cap)
        for i in range(buffered):
            await ch.send(f"v{i}")
        for _ in range(blocked_senders):
            go.go(sender, ch)
        for _ in range(blocked_receivers):
            go.go(receiver, ch)
        await go.sleep(1)
        ch.close()
        with pytest.raises(Panic, match="close of closed channel"):
            ch.close()
        with pytest.raises(Panic, match="send on closed channel"):
            await ch.send("after")
        await go.sleep(1)
        drained = [await ch.recv() for _ in range(buffered + 2)]
        return drained

    drained = run(main)
    assert drained == [(f"v{i}", True) for i in range(buffered)] + [(None, False)] * 2
    assert sorted(outcome, key=str) == sorted(
        ["send on closed channel"] * blocked_senders + [(None, False)] * blocked_receivers,
        key=str,
    )
