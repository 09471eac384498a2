"""``{{ exercises() }}``: each chapter page lists its exercises by name, with the command."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT
from tools.site.directives import DirectiveError
from tools.site.exercises import exercises_directive
from walkthrough.catalog import discover

CHAPTERS = sorted((ROOT / "docs" / "chapters").glob("[0-9][0-9]-*.md"))


def test_the_table_lists_each_exercise_in_the_page_language():
    (ch02,) = [c for c in discover() if c.number == 2]
    assert ch02.exercises
    for lang in ("en", "zh"):
        table = exercises_directive(
            f"chapters/02-sync-loop{'.zh' if lang == 'zh' else ''}.md", lang
        )
        assert ("| 练习 |" if lang == "zh" else "| exercise |") in table
        for ex in ch02.exercises:
            row = f"| `{ex.name}` | {ex.title[lang]} | `python -m walkthrough watch {ex.name}` |"
            assert row in table


def test_what_cannot_be_listed_is_said():
    with pytest.raises(DirectiveError, match="needs a chapter number"):
        exercises_directive("how-to-use.md", "en")
    with pytest.raises(DirectiveError, match="walkthrough/ch99 has no exercises"):
        exercises_directive("how-to-use.md", "en", 99)


def test_every_chapter_page_with_exercises_lists_them():
    numbers = {c.number for c in discover() if c.exercises}
    assert numbers
    for page in CHAPTERS:
        number = int(page.name[:2])
        if number in numbers:
            text = page.read_text(encoding="utf-8")
            assert re.search(r"^\{\{ exercises\(\) \}\}$", text, re.M), (
                f"docs/chapters/{page.name} does not list its exercises ({{{{ exercises() }}}})"
            )


def test_the_built_chapter_page_shows_the_commands(built_site):
    (ch03,) = [c for c in discover() if c.number == 3]
    for lang in ("", "zh/"):
        html = (built_site / lang / "chapters" / "03-sync-loop-iteration" / "index.html").read_text(
            encoding="utf-8"
        )
        for ex in ch03.exercises:
            assert f"python -m walkthrough watch {ex.name}</code>" in html, (lang, ex.name)
