"""``{{ chapters() }}``: the home page's path through the book, one line a chapter.

Made at build time from the chapters (``walkthrough/chNN/chapter.yaml``, the one list of them)
and their pages, as the navigation is (``tools/site/nav.py``): each chapter with a page, in
order, linked under its page's heading in the build's language and followed by its
``summary:``; a part's chapters under the part's label. So adding a chapter adds it here too.
"""

from __future__ import annotations

from pathlib import Path

from walkthrough.catalog import CatalogError, Chapter, discover

from .directives import DirectiveError
from .nav import NavError, chapter_pages
from .render import render


def page_heading(docs_dir: Path, page: str, lang: str) -> str:
    """The ``# …`` heading of ``page`` (``chapters/01-x.md``) in ``lang``, as the navigation
    shows it; the English page's when the language has no page of its own."""
    path = docs_dir / page
    translated = path.with_suffix(f".{lang}.md")
    if lang != "en" and translated.is_file():
        path = translated
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    raise DirectiveError(f"chapters: docs/{path.relative_to(docs_dir)} has no '# ' heading")


def chapter_list(docs_dir: Path, chapters: list[Chapter], lang: str) -> str:
    """The Markdown of the list: a paragraph for each part, then its chapters' items."""
    pages = chapter_pages(docs_dir, chapters)
    groups: list[tuple[str | None, list[tuple[str, str, str | None]]]] = []
    previous = None
    for chapter in chapters:
        page = pages.get(chapter.number)
        if page is None:  # no page yet: the navigation leaves it out too
            continue
        if not groups or chapter.part != previous:
            groups.append((None if chapter.part is None else chapter.part.label(lang), []))
        previous = chapter.part
        summary = None if chapter.summary is None else chapter.summary[lang]
        groups[-1][1].append((page_heading(docs_dir, page, lang), page, summary))
    return render("chapter-list.md.j2", groups=groups, lang=lang) + "\n"


def chapters_directive(docs_dir: Path, lang: str) -> str:
    """What ``{{ chapters() }}`` becomes on a page of ``docs_dir`` (links relative to it)."""
    try:
        chapters = discover(docs_dir.parent / "walkthrough")
        return chapter_list(docs_dir, chapters, lang)
    except (CatalogError, NavError) as err:
        raise DirectiveError(f"chapters: {err}") from None
