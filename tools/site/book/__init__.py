"""The site as a book: one PDF per language, printed by Chromium from the built site.

``python -m tools.site.book --site SITE`` (``make pdf``) reads the pages of each language in
the order of the site's navigation, from its home page, and prints them as one document: a
cover, a table of contents whose entries link to their pages (with their page numbers), then
every page, its side-by-side views (the Go panes as the site was built: with the Go source, or
link-only), diagrams and tables as the site shows them. The API reference is left out (it is
the port's docstrings, hundreds of pages; the site has it), and so are the interactive parts:
a trace player keeps its command and the commands that show the same run in a terminal.
Links between pages of the book stay inside the PDF; links to the site's other pages go to the
published site (``--site-url``, else they lose their link).

Chromium prints twice: the first print, tagged, has an outline (one entry per heading, read
with pypdf), which tells on which page each part starts; the second puts those numbers in the
table of contents, untagged (a third of the size), and gets the first one's outline as its
bookmarks. The numbers take the room of the first print's placeholders, so the pages fall the
same.
"""

from __future__ import annotations

import datetime
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tools.site.render import render
from tools.site.repo import git_output

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
#: Pages of the navigation that the book leaves out, by their path on the site.
LEFT_OUT = ("reference/",)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
LANGUAGES = {"en": "", "zh": "zh/"}


def book_file(lang: str) -> str:
    """Where the book of ``lang`` goes in the site: ``pdf/`` under the language's home."""
    return f"{LANGUAGES[lang]}pdf/minikubelet-{lang}.pdf"


def links_directive(lang: str, page_url: str) -> str:
    """``{{ book() }}``: the links to both books, from the page at ``page_url`` (from the site's
    root) in ``lang``.

    Raw HTML, not a Markdown link: the PDFs are made after the build (``make pdf``, and the
    deploy workflow), so mkdocs cannot find them among the pages.
    """
    from mkdocs.utils import get_relative_url

    links = {other: get_relative_url(book_file(other), page_url) for other in LANGUAGES}
    return render("book-links.md.j2", lang=lang, **links) + "\n"


class BookError(Exception):
    """A site the book cannot be made from (named in the message)."""


@dataclass
class Part:
    """One page of the site, as a part of the book."""

    slug: str
    title: str
    html: str


def slug_of(base: str, url: str) -> str:
    """The part's id in the book: its path on the site, ``chapters-03-sync-loop-iteration``."""
    path = urlsplit(url).path.removeprefix(urlsplit(base).path).strip("/")
    return path.replace("/", "-") or "home"


def nav_urls(tab: Any, home: str) -> list[str]:
    """The pages of the navigation of ``home``, in order, without the ones left out."""
    tab.goto(home, wait_until="load")
    hrefs = tab.eval_on_selector_all(
        "nav.md-nav--primary a.md-nav__link[href]", "els => els.map(e => e.href)"
    )
    urls: list[str] = []
    for href in hrefs:
        parts = urlsplit(href)
        if parts.fragment or parts.netloc != urlsplit(home).netloc:
            continue
        url = href.split("#")[0]
        if not url.startswith(home) or url[len(home) :] in LEFT_OUT or url in urls:
            continue
        urls.append(url)
    if not urls:
        raise BookError(f"{home}: no navigation found (is it a page of the built site?)")
    return urls


def parts(tab: Any, base: str, urls: list[str], site_url: str) -> list[Part]:
    """Each page's article, ready for the book (``extract.js``)."""
    extract = (HERE / "extract.js").read_text(encoding="utf-8")
    pages = {url: slug_of(base, url) for url in urls}
    out = []
    for url in urls:
        tab.goto(url, wait_until="load")
        got = tab.evaluate(extract, {"slug": pages[url], "pages": pages, "site": site_url})
        out.append(Part(pages[url], got["title"], got["html"]))
    return out


@dataclass
class Heading:
    """An entry of a PDF's outline: a heading, where it is, and the headings under it."""

    title: str
    page: int  # 0-based
    top: float | None
    children: list[Heading]


def outline_of(pdf: bytes) -> list[Heading]:
    """The outline Chromium made of a tagged print (one entry per heading)."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    out: list[Heading] = []
    for item in reader.outline:
        if isinstance(item, list):  # the headings under the one before
            out[-1].children = _outline_items(reader, item)
        else:
            out.append(_heading(reader, item))
    return out


def _outline_items(reader: Any, items: list[Any]) -> list[Heading]:
    out: list[Heading] = []
    for item in items:
        if isinstance(item, list):
            out[-1].children = _outline_items(reader, item)
        else:
            out.append(_heading(reader, item))
    return out


def _heading(reader: Any, item: Any) -> Heading:
    top = getattr(item, "top", None)
    return Heading(
        " ".join(str(item.title).split()),
        reader.get_destination_page_number(item),
        float(top) if top is not None else None,
        [],
    )


def page_numbers(outline: list[Heading], book: list[Part]) -> dict[str, int]:
    """On which page (1-based) each part starts: its title's heading, in order."""
    flat: list[Heading] = []

    def walk(headings: list[Heading]) -> None:
        for h in headings:
            flat.append(h)
            walk(h.children)

    walk(outline)
    numbers: dict[str, int] = {}
    at = 0
    for part in book:
        title = " ".join(part.title.split())
        for i in range(at, len(flat)):
            if flat[i].title == title:
                numbers[part.slug] = flat[i].page + 1
                at = i + 1
                break
    return numbers


def with_outline(pdf: bytes, outline: list[Heading]) -> bytes:
    """``pdf`` with ``outline`` as its bookmarks (its pages are laid out as the outline's)."""
    from pypdf import PdfWriter
    from pypdf.generic import Fit

    writer = PdfWriter(clone_from=io.BytesIO(pdf))

    def add(headings: list[Heading], parent: Any) -> None:
        for h in headings:
            fit = Fit.xyz(top=h.top) if h.top is not None else Fit.fit()
            item = writer.add_outline_item(
                title=h.title, page_number=h.page, parent=parent, fit=fit
            )
            add(h.children, item)

    add(outline, None)
    writer.page_mode = "/UseOutlines"
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


FOOTER = (
    '<div style="width:100%;font-size:8px;color:#777;text-align:center;">'
    '<span class="pageNumber"></span> / <span class="totalPages"></span></div>'
)


def print_book(tab: Any, html: str, *, tagged: bool) -> bytes:
    """Chromium's print of ``html``; a tagged print has an outline, and is three times the
    size (a structure element per highlighted token of the views)."""
    tab.set_content(html, wait_until="networkidle")
    tab.emulate_media(media="print")
    return bytes(
        tab.pdf(
            format="A4",
            print_background=True,
            prefer_css_page_size=True,
            outline=tagged,
            tagged=tagged,
            display_header_footer=True,
            header_template="<span></span>",
            footer_template=FOOTER,
        )
    )


def make_book(browser: Any, base: str, lang: str, *, site_url: str = "") -> bytes:
    """The PDF of the site at ``base`` in ``lang``."""
    tab = browser.new_page()
    try:
        home = base + LANGUAGES[lang]
        urls = nav_urls(tab, home)  # the tab stays on the home page
        styles = tab.eval_on_selector_all("link[rel=stylesheet]", "els => els.map(e => e.href)")
        described = tab.locator('meta[name="description"]')
        context = {
            "lang": lang,
            "title": tab.title().split(" - ")[-1],
            "subtitle": described.get_attribute("content") if described.count() else "",
            "base": base,
            "styles": styles,
            "book_css": (HERE / "book.css").read_text(encoding="utf-8"),
            "made": datetime.date.today().isoformat(),
            "commit": git_output(ROOT, "rev-parse", "--short", "HEAD"),
            "pages": parts(tab, base, urls, site_url),
            "site": site_url,
        }
        first = print_book(tab, render("book.html.j2", numbers={}, **context), tagged=True)
        outline = outline_of(first)
        numbers = page_numbers(outline, context["pages"])
        final = print_book(tab, render("book.html.j2", numbers=numbers, **context), tagged=False)
        return with_outline(final, outline)
    finally:
        tab.close()
