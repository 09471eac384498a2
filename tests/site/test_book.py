"""tools.site.book: a small site printed as a PDF, read back with pypdf.

The site is two pages of our own around a side-by-side view built in source mode from the
cross-linker's fixtures (our Go, shaped like kubelet's), so the Go pane has code to print.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tools.site.serve import served

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HOME = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Home - a small book</title>
<meta name="description" content="Two pages, printed.">
<link rel="stylesheet" href="sidebyside.css"></head>
<body><nav class="md-nav md-nav--primary">
<a class="md-nav__link" href="./">Home</a>
<a class="md-nav__link" href="view/">The select, side by side</a>
<a class="md-nav__link" href="reference/">API reference</a>
</nav>
<article class="md-content__inner md-typeset"><h1 id="home">Home</h1>
<p>See <a href="view/#sbs-1">the view</a>, or <a href="reference/">the reference</a>.</p>
</article></body></html>
"""

VIEW = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>The select - a small book</title>
<link rel="stylesheet" href="../sidebyside.css"></head>
<body><article class="md-content__inner md-typeset">
<h1 id="the-select">The select, side by side</h1>{view}</article></body></html>
"""


def small_site(root: Path, source_mode_page: Path) -> Path:
    """Home, a page with the view, and a reference page the book leaves out."""
    html = source_mode_page.read_text(encoding="utf-8")
    view = html[html.index('<div class="mkl-sbs"') : html.rindex("</article>")]
    (root / "view").mkdir(parents=True)
    (root / "reference").mkdir()
    (root / "sidebyside.css").write_bytes((source_mode_page.parent / "sidebyside.css").read_bytes())
    (root / "index.html").write_text(HOME, encoding="utf-8")
    (root / "view" / "index.html").write_text(VIEW.format(view=view), encoding="utf-8")
    (root / "reference" / "index.html").write_text("<h1>Reference</h1>", encoding="utf-8")
    return root


def test_a_small_site_becomes_a_pdf_with_its_contents_and_the_go(
    browser, source_mode_page, tmp_path
):
    from pypdf import PdfReader

    from tools.site.book import make_book

    site = small_site(tmp_path / "site", source_mode_page)
    with served(site) as base:
        reader = PdfReader(io.BytesIO(make_book(browser, base, "en")))
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert titles == ["Home", "The select, side by side"], "nav order, the reference left out"
    starts = [reader.get_destination_page_number(i) + 1 for i in reader.outline[:2]]
    cover, contents = (reader.pages[n].extract_text() for n in (0, 1))
    assert "a small book" in cover and "Two pages, printed." in cover
    # The table of contents: each part with the page it starts on, and a link to it.
    assert f"Home {starts[0]}" in contents and f"The select, side by side {starts[1]}" in contents
    inside = [a for a in reader.pages[1].get("/Annots", []) if "/Dest" in a.get_object()]
    assert len(inside) == 2, "each entry of the contents links inside the PDF"
    text = "\n".join(page.extract_text() for page in reader.pages)
    # The Go pane, printed whole (our fixture's Go), beside the Python.
    assert "func (kl *Kubelet) syncLoopIteration(" in text
    assert "def sync_loop_iteration(" in text
    assert "Reference" not in text, "the page left out is not printed"
