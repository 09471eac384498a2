"""tests/leaks.py: a test that leaves a task pending in the loop it closes fails.

Each test runs a small suite of its own in another process (with the plugin), so that the
leak it plants is that suite's, not this one's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent

LEAKY = """
import asyncio


def test_leaves_a_task_pending():
    loop = asyncio.new_event_loop()
    never = loop.create_future()
    loop.create_task(asyncio.wait_for(never, None), name="forgotten")
    loop.run_until_complete(asyncio.sleep(0))
    loop.close()
"""

TIDY = """
import asyncio


def test_finishes_its_tasks():
    loop = asyncio.new_event_loop()
    task = loop.create_task(asyncio.sleep(0), name="finished")
    loop.run_until_complete(task)
    loop.close()


def test_runs_a_program_to_its_end():
    from minikubelet import go

    async def main():
        go.go(go.sleep, 5)
        await go.sleep(1)

    go.run(main)
"""


def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.RunResult:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    return pytester.runpytest_subprocess("-p", "tests.leaks", "-p", "no:cacheprovider")


def test_a_task_left_pending_fails_the_test(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_leaky=LEAKY)
    result = run(pytester, monkeypatch)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        ["*tasks still pending when their event loop closed*", "*forgotten*"]
    )


def test_tasks_that_finish_or_are_cancelled_pass(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_tidy=TIDY)
    result = run(pytester, monkeypatch)
    result.assert_outcomes(passed=2)
