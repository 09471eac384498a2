"""``{{ exercises() }}``: a chapter's exercises, by name, with the command that starts each.

Read from the walkthrough's own catalogue (``walkthrough/chNN/``) at build time, in the page's
language, so the list on the page is the list the runner knows.
"""

from __future__ import annotations

import re

from .directives import DirectiveError
from .render import render

CHAPTER_PAGE = re.compile(r"(?:^|/)chapters/(\d\d)-[^/]*$")
RUNNER = "python -m walkthrough"


def exercises_directive(page_src: str, lang: str, chapter: int | None = None) -> str:
    """The Markdown table of the exercises of `chapter` (default: the page's own)."""
    from walkthrough.catalog import CatalogError, discover

    if chapter is None:
        found = CHAPTER_PAGE.search(page_src.removesuffix(".md").removesuffix(".zh") + ".md")
        if found is None:
            raise DirectiveError("exercises() outside docs/chapters/NN-*.md needs a chapter number")
        chapter = int(found.group(1))
    try:
        chapters = discover()
    except CatalogError as exc:
        raise DirectiveError(f"exercises: the walkthrough cannot be read: {exc}") from None
    ours = next((c for c in chapters if c.number == chapter), None)
    if ours is None or not ours.exercises:
        raise DirectiveError(f"exercises: walkthrough/ch{chapter:02d} has no exercises")
    rows = [(e.name, e.title[lang], f"{RUNNER} watch {e.name}") for e in ours.exercises]
    return render("exercises.md.j2", rows=rows, lang=lang, runner=RUNNER) + "\n"
