"""Zero broken internal links or anchors across the built site, in both languages."""

from __future__ import annotations

import posixpath
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tools.site.book import LANGUAGES, book_file

#: The PDFs are printed from the built site afterwards (make pdf, the deploy workflow), so a
#: build has only the home pages' links to them; tests/site/test_book.py prints one.
BOOKS = {book_file(lang) for lang in LANGUAGES}
LINKING = {("a", "href"), ("link", "href"), ("script", "src"), ("img", "src"), ("source", "src")}


class Page(HTMLParser):
    """The ids of a page, and every internal URL it links to or loads."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.urls: list[tuple[str, str]] = []  # (tag, url)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for name in ("id", "name"):
            if a.get(name) is not None:
                self.ids.add(a[name])
        for t, attr in LINKING:
            if tag == t and a.get(attr):
                self.urls.append((tag, a[attr]))


@cache
def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def target_file(site: Path, page: Path, path: str) -> Path | None:
    """The file a link's path points to (``dir/`` → ``dir/index.html``), or None."""
    if path.startswith("/"):
        rel = posixpath.normpath("." + path)
    else:
        here = page.parent.relative_to(site).as_posix()
        rel = posixpath.normpath(posixpath.join(here, path))
    if rel.startswith(".."):
        return None
    candidate = site / rel
    if candidate.is_dir():
        candidate = candidate / "index.html"
    return candidate


def broken_links(site: Path) -> list[str]:
    problems = []
    pages = sorted(site.rglob("*.html"))
    assert pages, f"no page in {site}"
    for page in pages:
        for tag, url in parse(page).urls:
            parts = urlsplit(url)
            if parts.scheme or parts.netloc:  # another host (or mailto:, data:…): not ours
                continue
            path, fragment = unquote(parts.path), unquote(parts.fragment)
            target = page if not path else target_file(site, page, path)
            where = f"{page.relative_to(site)}: <{tag}> {url}"
            if target is None:
                problems.append(f"{where}: points outside the site")
                continue
            if target.relative_to(site).as_posix() in BOOKS:
                continue
            if not target.is_file():
                problems.append(f"{where}: no file {target.relative_to(site)}")
                continue
            if fragment and target.suffix == ".html" and fragment not in parse(target).ids:
                problems.append(f"{where}: no id {fragment!r} in {target.relative_to(site)}")
    return problems


def test_no_broken_internal_link_or_anchor(built_site):
    problems = broken_links(built_site)
    assert not problems, f"{len(problems)} broken links:\n" + "\n".join(problems[:50])


def test_both_languages_are_crawled(built_site):
    pages = {p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html")}
    for chapter in ("01-big-picture", "02-sync-loop", "03-sync-loop-iteration"):
        assert f"chapters/{chapter}/index.html" in pages
        assert f"zh/chapters/{chapter}/index.html" in pages


def test_the_checker_finds_broken_links(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(
        '<h2 id="here">x</h2><a href="#here">ok</a><a href="#gone">bad</a>'
        '<a href="../b/">missing</a><a href="../a/#here">ok</a><a href="https://x.org/">ext</a>',
        encoding="utf-8",
    )
    problems = broken_links(tmp_path)
    assert len(problems) == 2, problems
    assert "no id 'gone'" in problems[0] or "no id 'gone'" in problems[1]
