"""A test fails when it leaves an asyncio task pending in an event loop it closes. Ours.

A goroutine that outlives its run is a task still pending when the runtime closes its loop:
asyncio says "Task was destroyed but it is pending!" later, when the task is collected, in
whatever test runs then (or at exit), and the suite passes. This plugin (loaded by
``tests/conftest.py``) looks at every event loop closed during a test: each task of the loop
not done by then is a leak, and the test errors in its teardown with the tasks named.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest


def _pending(loop: asyncio.AbstractEventLoop) -> list[asyncio.Task]:
    return [t for t in asyncio.all_tasks(loop) if not t.done()]


@pytest.fixture(autouse=True)
def no_leaked_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail the test if an event loop it closes still has a task pending."""
    leaked: list[str] = []
    close = asyncio.BaseEventLoop.close

    def close_and_check(loop: asyncio.BaseEventLoop) -> None:
        if not loop.is_closed():
            leaked.extend(repr(t) for t in _pending(loop))
        close(loop)

    monkeypatch.setattr(asyncio.BaseEventLoop, "close", close_and_check)
    yield
    if leaked:
        pytest.fail(
            "tasks still pending when their event loop closed (a goroutine outlived its run):\n"
            + "\n".join(leaked),
            pytrace=False,
        )
