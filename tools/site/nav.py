"""The site's chapter list, made from the chapters (a mkdocs hook, named in ``mkdocs.yml``).

``mkdocs.yml`` leaves its ``Chapters`` section empty; before each language's build this hook
fills it from the chapters of the ``walkthrough/`` folder beside ``docs/``
(`walkthrough.catalog.discover`): every chapter's page ``docs/chapters/NN-*.md`` in
order (mkdocs-static-i18n picks the ``.zh.md`` twin for the Chinese build; each page's title is
its heading), and the chapters of a part (``part:`` in their ``chapter.yaml``) grouped under the
part's title in the build's language. So a new chapter is its folder and its two pages; the
navigation needs no edit. A chapter whose pages are not written yet is left out (a line in the
build's log says so); a page without a chapter fails the build.

The hook runs after mkdocs-static-i18n's ``on_config`` (priority -100), which sets the theme's
language to the build's; i18n builds each language in turn with the same config object, and
each build fills the section anew.
"""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # mkdocs loads this file by path: make `walkthrough` importable
    sys.path.insert(0, str(ROOT))

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402

from walkthrough.catalog import CatalogError, Chapter, discover  # noqa: E402

log = logging.getLogger("mkdocs.plugins.minikubelet")

#: The nav section of mkdocs.yml this hook fills (its Chinese title is in nav_translations).
SECTION = "Chapters"
CHAPTER_PAGE = re.compile(r"^(\d\d)-[a-z0-9]+(?:-[a-z0-9]+)*\.md$")
#: A page in another language than the default: ``x.zh.md`` (mkdocs-static-i18n's suffix).
TRANSLATION = re.compile(r"\.[a-z]{2}\.md$")


class NavError(ValueError):
    """The chapters and their pages do not match; the message names the file."""


def chapter_pages(docs_dir: Path, chapters: list[Chapter]) -> dict[int, str]:
    """Chapter number → its page (``chapters/01-big-picture.md``): one page a chapter at most.

    A page needs its chapter (its title, its part). A chapter may have no page yet: its folder
    can land before its pages are written, and the site leaves it out until then.
    """
    folder = docs_dir / "chapters"
    pages: dict[int, str] = {}
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        if TRANSLATION.search(path.name):
            continue
        match = CHAPTER_PAGE.match(path.name)
        if match is None:
            raise NavError(f"docs/chapters/{path.name}: a chapter page is named NN-words.md")
        number = int(match.group(1))
        if number in pages:
            raise NavError(
                f"docs/{pages[number]} and docs/chapters/{path.name}: one page a chapter"
            )
        pages[number] = f"chapters/{path.name}"
    known = {c.number for c in chapters}
    for number, page in sorted(pages.items()):
        if number not in known:
            raise NavError(
                f"docs/{page}: no walkthrough/ch{number:02d}/chapter.yaml (title, part) for it"
            )
    return pages


def chapters_nav(chapters: list[Chapter], pages: dict[int, str], lang: str) -> list[Any]:
    """The entries of the Chapters section: pages in order, a part's pages under its title."""
    entries: list[Any] = []
    part_pages: list[str] | None = None
    previous = None
    for chapter in chapters:
        page = pages.get(chapter.number)
        if page is None:  # no page yet: nothing to show
            continue
        if chapter.part is None:
            entries.append(page)
            part_pages = None
        else:
            if part_pages is None or chapter.part != previous:
                part_pages = []
                entries.append({chapter.part.label(lang): part_pages})
            part_pages.append(page)
        previous = chapter.part
    return entries


def fill_nav(nav: list[Any], entries: list[Any]) -> None:
    """Put ``entries`` in the top-level ``Chapters`` section of ``nav`` (a mkdocs.yml nav)."""
    for item in nav:
        if isinstance(item, dict) and SECTION in item:
            item[SECTION] = entries
            return
    raise NavError(f"mkdocs.yml: nav has no section {SECTION!r} for the chapters")


@event_priority(-110)  # after mkdocs-static-i18n's on_config has set the build's language
def on_config(config: Any) -> Any:
    lang = config.theme.get("language") or "en"
    docs_dir = Path(config.docs_dir)
    try:
        chapters = discover(docs_dir.parent / "walkthrough")
        pages = chapter_pages(docs_dir, chapters)
        entries = chapters_nav(chapters, pages, lang)
        fill_nav(config.nav or [], entries)
    except (CatalogError, NavError) as err:
        raise PluginError(f"chapters: {err}") from err
    for chapter in chapters:
        if chapter.number not in pages and lang == "en":
            log.info(
                f"minikubelet: {chapter.slug} has no page docs/chapters/{chapter.number:02d}-*.md "
                "yet: it is not in the navigation"
            )
    return config
