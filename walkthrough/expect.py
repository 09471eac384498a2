"""Expectations with a message in both languages: what an exercise's tests are made of.

An exercise test states what the learner's code must do with :func:`expect`; when the code falls
short, the runner prints the message of the first unmet expectation in the learner's language::

    expect(
        handler.calls == [("removes", ["web"])],
        en="A REMOVE update must go to handler.handle_pod_removes.",
        zh="REMOVE 更新应当交给 handler.handle_pod_removes 处理。",
    )

A plain ``assert`` works too, but its message is shown as is, in one language.
"""

from __future__ import annotations

from typing import Any


class Unmet(AssertionError):
    """An expectation the learner's code does not meet yet, worded in English and in Chinese."""

    def __init__(self, en: str, zh: str) -> None:
        super().__init__(en)
        self.en = en
        self.zh = zh

    def message(self, lang: str) -> str:
        """The wording for ``lang`` (``"en"`` or ``"zh"``)."""
        return self.zh if lang == "zh" else self.en


def expect(condition: object, *, en: str, zh: str) -> None:
    """Raise :class:`Unmet` with both wordings unless ``condition`` is true."""
    if not condition:
        raise Unmet(en, zh)


def show(value: Any) -> str:
    """A short, readable rendering of a value for a message."""
    text = repr(value)
    return text if len(text) <= 300 else text[:297] + "..."


def expect_equal(actual: Any, expected: Any, *, en: str, zh: str) -> None:
    """Like :func:`expect` for ``actual == expected``; the message shows both values."""
    if actual != expected:
        raise Unmet(
            f"{en}\n    expected: {show(expected)}\n    got:      {show(actual)}",
            f"{zh}\n    期望：{show(expected)}\n    实际：{show(actual)}",
        )
