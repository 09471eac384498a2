"""The built site in headless Chromium: clean loads, local requests only, language switch,
search in both languages, and the side-by-side highlight."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_site import built_path, english_pages

from .conftest import serve

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def page_urls() -> list[str]:
    """The URL path of every page of the site, in both languages, and the 404 page."""
    urls = []
    for page in english_pages():
        for lang in ("en", "zh"):
            rel = built_path(page, lang).as_posix()
            urls.append(rel.removesuffix("index.html"))
    return [*sorted(urls), "404.html"]


@pytest.mark.parametrize("path", page_urls())
def test_page_loads_without_errors_or_foreign_requests(page, site_server, path):
    response = page.goto(site_server.url + path, wait_until="load")
    assert response is not None
    assert response.status == 200, path
    page.wait_for_load_state("networkidle")
    assert page.locator("h1").count() >= 1, f"{path}: no heading"
    assert not page.watch.errors, f"{path}: " + "\n".join(page.watch.errors)
    foreign = page.watch.foreign()
    assert not foreign, f"{path} asked other hosts for: {foreign}"
    assert page.watch.requests, "no request was recorded: the watch is broken"


@pytest.mark.parametrize("chapter", ["chapters/02-sync-loop/", ""])
def test_language_switch_keeps_the_page(page, site_server, chapter):
    page.goto(site_server.url + chapter)
    for lang, expected in (("zh", "zh/" + chapter), ("en", chapter)):
        page.locator(".md-header__option .md-select").hover()
        page.locator(f"a.md-select__link[hreflang={lang}]").click()
        page.wait_for_url(site_server.url + expected)
        assert page.locator("html").get_attribute("lang") == lang
    assert not page.watch.errors, page.watch.errors


def search(page, url: str, query: str) -> list[str]:
    """Type ``query`` into the site's search box; the paths of the results, best first."""
    page.goto(url)
    page.locator("input.md-search__input").click()
    page.keyboard.type(query)
    page.wait_for_selector(".md-search-result__item > a", timeout=20_000)
    hrefs = page.eval_on_selector_all(
        ".md-search-result__item > a", "els => els.map(e => e.getAttribute('href'))"
    )
    return [re.sub(r"^https?://[^/]+/", "", h).split("?")[0] for h in hrefs]


@pytest.mark.parametrize(
    ("lang", "query"), [("zh", "主循环"), ("en", "sync loop"), ("en", "syncLoop")]
)
def test_search_finds_the_sync_loop_chapters(page, site_server, lang, query):
    prefix = "zh/" if lang == "zh" else ""
    results = search(page, site_server.url + prefix, query)
    wanted = {f"{prefix}chapters/02-sync-loop/", f"{prefix}chapters/03-sync-loop-iteration/"}
    top = results[:3]
    assert wanted & set(top), f"searching {query!r} on the {lang} site gave {results}"
    assert not page.watch.errors, page.watch.errors


def _check_twins(page, view):
    """Point at a Go case of ``view``: its Python twin lights up, and nothing else does."""
    go_case = view.locator(".mkl-go.mkl-head[data-b]").nth(1)
    case = go_case.get_attribute("data-b")
    go_case.hover()
    twins = view.locator(f'.mkl-py[data-bs~="{case}"]')
    assert twins.count() > 0, f"case {case} has no Python twin"
    for i in range(twins.count()):
        assert "mkl-hl" in twins.nth(i).get_attribute("class")
    lit = view.locator(".mkl-hl")
    for i in range(lit.count()):
        assert case in lit.nth(i).get_attribute("data-bs").split()
    # Pointing at the Python side lights up the Go case.
    view.locator(".mkl-sbs__bar").hover()
    assert view.locator(".mkl-hl").count() == 0
    view.locator(f'.mkl-py.mkl-head[data-b="{case}"]').last.hover()
    assert "mkl-hl" in go_case.get_attribute("class")
    # A click keeps it lit; a second click lets it go.
    go_case.click(position={"x": 3, "y": 3})
    assert view.get_attribute("data-pinned") == case
    view.locator(".mkl-sbs__bar").hover()
    assert "mkl-pin" in twins.first.get_attribute("class")
    go_case.click(position={"x": 3, "y": 3})
    assert view.get_attribute("data-pinned") == ""
    assert view.locator(".mkl-pin").count() == 0


def test_side_by_side_highlights_twins_on_the_built_site(page, site_server):
    page.goto(site_server.url + "chapters/03-sync-loop-iteration/")
    view = page.locator('.mkl-sbs[data-go$="(*Kubelet).syncLoopIteration"]')
    assert view.count() == 1
    mode = view.get_attribute("data-mode")
    if mode == "link-only":
        notice = view.locator(".mkl-sbs__notice")
        assert notice.is_visible()
        assert "K8S_SRC" in notice.inner_text()
    _check_twins(page, view)
    # Full screen and back (Esc).
    view.locator(".mkl-sbs__expand").click()
    assert "mkl-sbs--full" in view.get_attribute("class")
    page.keyboard.press("Escape")
    assert "mkl-sbs--full" not in view.get_attribute("class")
    assert not page.watch.errors, page.watch.errors


def test_side_by_side_highlights_twins_in_source_mode(page, source_mode_page: Path):
    """With the Go source at hand (our fixture Go): aligned panes, highlight, no errors."""
    with_server = serve(source_mode_page.parent)
    server = next(with_server)
    page.watch.allowed.add(server.netloc)
    try:
        page.goto(server.url + source_mode_page.name)
        view = page.locator(".mkl-sbs").first
        assert view.get_attribute("data-mode") == "source"
        assert view.locator(".mkl-sbs__notice").count() == 0
        # Each Go case starts on the same row as its Python twin.
        rows = view.locator("tbody tr")
        for i in range(rows.count()):
            row = rows.nth(i)
            go_head = row.locator("td.mkl-go.mkl-head")
            if go_head.count():
                case = go_head.first.get_attribute("data-b")
                assert row.locator(f'td.mkl-py.mkl-head[data-bs~="{case}"]').count(), (
                    f"row {i}: the Go case {case} starts here, its Python twin does not"
                )
        _check_twins(page, view)
        assert not page.watch.errors, page.watch.errors
        assert not page.watch.foreign(), page.watch.foreign()
    finally:
        with_server.close()
