"""flowcontrol.Backoff: doubling per key, capped, reset after a quiet period."""

from __future__ import annotations

from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import new_back_off, new_fake_back_off


class FakeClock:
    virtual = True

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def now(self) -> float:
        return self.t

    def monotonic(self) -> float:
        return self.t

    def step(self, d: float) -> None:
        self.t += d


def test_delay_doubles_per_key_and_is_capped():
    clock = FakeClock()
    b = new_fake_back_off(10, 300, clock)
    seen = []
    for _ in range(8):
        b.next("a", clock.now())
        seen.append(b.get("a"))
        clock.step(1)
    assert seen == [10, 20, 40, 80, 160, 300, 300, 300]
    assert b.get("other") == 0


def test_in_back_off_since_an_event():
    clock = FakeClock()
    b = new_fake_back_off(10, 300, clock)
    assert not b.is_in_back_off_since("a", clock.now())
    b.next("a", clock.now())
    exited = clock.now()
    clock.step(9.5)
    assert b.is_in_back_off_since("a", exited)
    clock.step(0.5)
    assert not b.is_in_back_off_since("a", exited)


def test_in_back_off_since_update():
    clock = FakeClock()
    b = new_fake_back_off(10, 300, clock)
    b.next("img", clock.now())
    assert b.is_in_back_off_since_update("img", clock.now() + 9)
    assert not b.is_in_back_off_since_update("img", clock.now() + 10)


def test_a_quiet_key_starts_over_and_is_collected():
    clock = FakeClock()
    b = new_fake_back_off(10, 300, clock)
    for _ in range(4):
        b.next("a", clock.now())
    assert b.get("a") == 80
    clock.step(601)  # more than 2 × max without an update
    assert not b.is_in_back_off_since("a", clock.now())
    b.next("a", clock.now())
    assert b.get("a") == 10
    clock.step(601)
    b.gc()
    assert b.per_item_backoff == {}


def test_reset_and_delete_entry():
    clock = FakeClock()
    b = new_fake_back_off(1, 10, clock)
    b.next("a", clock.now())
    b.next("b", clock.now())
    b.reset("a")
    b.delete_entry("b")
    assert b.get("a") == b.get("b") == 0


def test_default_back_off_reads_the_running_runtime_clock():
    from minikubelet import go

    b = new_back_off(10, 300)  # made before the run

    async def main():
        await go.sleep(5)
        b.next("a", go.now())
        start = go.now()
        await go.sleep(9)
        inside = b.is_in_back_off_since("a", start)
        await go.sleep(1)
        return (
            inside,
            b.is_in_back_off_since("a", start),
            float(b.per_item_backoff["a"].last_update),
        )

    inside, after, last = go.run(main)
    assert (inside, after) == (True, False)
    assert last == go.VIRTUAL_EPOCH + 5
