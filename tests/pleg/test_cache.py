"""The pod cache: default statuses, stored errors, and waiting for a newer status."""

from __future__ import annotations

import pytest

from minikubelet import go
from minikubelet.container.cache import new_cache
from minikubelet.container.runtime import PodStatus


def test_a_missing_pod_has_an_empty_status():
    c = new_cache()
    assert c.get("uid-1") == PodStatus(id="uid-1")


def test_set_get_and_the_stored_error():
    async def main():
        c = new_cache()
        await c.set("a", PodStatus(id="a", name="web"), None, 10.0)
        await c.set("b", None, RuntimeError("inspect failed"), 10.0)
        assert c.get("a").name == "web"
        with pytest.raises(RuntimeError, match="inspect failed"):
            c.get("b")
        c.delete("a")
        assert c.get("a") == PodStatus(id="a")

    go.run(main)


def test_get_newer_than_blocks_until_a_newer_status_or_global_timestamp():
    order = []

    async def waiter(c, uid, t):
        status = await c.get_newer_than(uid, t)
        order.append((uid, status.name, float(go.now()) - go.VIRTUAL_EPOCH))

    async def main():
        c = new_cache()
        await c.set("a", PodStatus(id="a", name="old"), None, 5.0)
        go.go(waiter, c, "a", 5.0)  # needs newer than 5
        go.go(waiter, c, "b", 5.0)  # never set: the global timestamp will do
        go.go(waiter, c, "a", 1.0)  # already newer: returns at once
        await go.sleep(1)
        await c.set("a", PodStatus(id="a", name="new"), None, 6.0)
        await go.sleep(1)
        await c.update_time(7.0)
        await go.sleep(1)

    go.run(main)
    assert order == [("a", "old", 0.0), ("a", "new", 1.0), ("b", "", 2.0)]


def test_get_newer_than_raises_the_stored_error():
    async def main():
        c = new_cache()
        await c.set("a", None, RuntimeError("boom"), 2.0)
        with pytest.raises(RuntimeError, match="boom"):
            await c.get_newer_than("a", 1.0)

    go.run(main)
