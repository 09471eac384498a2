"""What a reader sees in Chromium, at 390 px (a phone) and 1440 px, in both languages, with every
request to a host other than 127.0.0.1 blocked (the ``page`` fixture aborts and records them).

Side-by-side views in source mode are the xref fixtures' (our own Go), rendered with the site's
template, CSS and JS; the built site is link-only, as on CI.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_site import DOCS, english_pages
from walkthrough.catalog import discover

from .conftest import serve

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PHONE, DESKTOP = (390, 844), (1440, 900)
CHAPTERS = [p.with_suffix("").as_posix() + "/" for p in english_pages() if p.parts[0] == "chapters"]
#: Chapters whose page has side-by-side views (chapter 12 compares releases in prose).
WITH_VIEWS = {
    c for c in CHAPTERS if "{{ sidebyside(" in (DOCS / (c.rstrip("/") + ".md")).read_text("utf-8")
}
#: Chapters with exercises in the walkthrough's catalogue: their page lists them.
WITH_EXERCISES = {
    c
    for c in CHAPTERS
    if int(c.split("/")[1][:2]) in {ch.number for ch in discover() if ch.exercises}
}


def touch(page) -> None:
    """Make the page a touch screen: (hover: none) and (pointer: coarse) match."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})


@pytest.fixture
def fixture_view(page, source_mode_page: Path):
    """Open the source-mode fixture page: ``fixture_view(lang, (w, h))`` returns the view."""
    with_server = serve(source_mode_page.parent)
    server = next(with_server)
    page.watch.allowed.add(server.netloc)

    def open_view(lang: str = "en", size=DESKTOP):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        name = "view.zh.html" if lang == "zh" else "view.html"
        page.goto(server.url + name)
        return page.locator(".mkl-sbs").first

    try:
        yield open_view
    finally:
        with_server.close()
        assert not page.watch.foreign(), page.watch.foreign()
        assert not page.watch.errors, page.watch.errors


def visible_cells(view, side: str) -> int:
    return view.evaluate(
        "(v, side) => [...v.querySelectorAll('td.s-' + side)]"
        ".filter(td => td.getClientRects().length > 0).length",
        side,
    )


# --- the site, at both sizes, in both languages ---------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390px", "1440px"])
def test_chapter_pages_fit_the_screen_and_show_their_diagrams(page, site_server, lang, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    prefix = "zh/" if lang == "zh" else ""
    for chapter in CHAPTERS:
        page.goto(site_server.url + prefix + chapter, wait_until="networkidle")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0] + 1, f"{prefix}{chapter} is {width}px wide at {size[0]}px"
        views = page.locator(".mkl-sbs")
        assert (views.count() > 0) == (chapter in WITH_VIEWS), f"{prefix}{chapter}: views"
        for i in range(views.count()):
            view = views.nth(i)
            box = view.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 1, view.get_attribute(
                "id"
            )
            assert view.locator(".mkl-sbs__expand").is_visible(), "full screen hidden"
            if view.get_attribute("data-mode") == "link-only":  # no switch: both panes show
                assert visible_cells(view, "py") > 0, f"{view.get_attribute('id')}: no Python"
        diagrams = page.locator('img[src*="assets/diagrams/"]')
        assert diagrams.count() >= 1, f"{prefix}{chapter} shows no diagram"
        for i in range(diagrams.count()):
            img = diagrams.nth(i)
            assert img.evaluate("i => i.complete && i.naturalWidth > 0"), img.get_attribute("src")
            assert img.bounding_box()["width"] <= size[0]
        ids = page.eval_on_selector_all(".mkl-sbs", "els => els.map(e => e.id)")
        assert ids == [f"sbs-{n}" for n in range(1, len(ids) + 1)], "views numbered out of order"
        if chapter in WITH_EXERCISES:
            table = page.locator("article table:has(code)").filter(
                has_text="python -m walkthrough watch"
            )
            assert table.count() == 1, f"{prefix}{chapter}: no exercise list"
    assert not page.watch.errors, page.watch.errors
    assert not page.watch.foreign(), page.watch.foreign()


#: Where a line of a Markdown table's text breaks between two letters or digits of one word: each
#: such break as "…before|after…". Breaks at spaces, after hyphens and between Chinese characters
#: are where lines may break; every other one cuts a word or an identifier in two. (Side-by-side
#: views are tables with a class: their code lines wrap by design.)
MID_WORD_BREAKS = """() => {
  const word = /[A-Za-z0-9_]/, found = [];
  for (const table of document.querySelectorAll('article table:not([class])')) {
    const walk = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      const text = node.textContent, range = document.createRange();
      let top = null;
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rects = range.getClientRects();
        if (!rects.length) continue;
        if (top !== null && rects[0].top > top + 1 && word.test(text[i - 1]) && word.test(text[i]))
          found.push(text.slice(Math.max(0, i - 16), i) + '|' + text.slice(i, i + 16));
        top = rects[0].top;
      }
    }
  }
  return found;
}"""
PAGES = [p.with_suffix("").as_posix().removesuffix("index") for p in english_pages()]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390px", "1440px"])
def test_tables_keep_words_whole_and_scroll_in_their_own_box(page, site_server, lang, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    prefix = "zh/" if lang == "zh" else ""
    for path in PAGES:
        url = prefix + (path + "/" if path else "")
        page.goto(site_server.url + url)
        assert page.evaluate(MID_WORD_BREAKS) == [], f"{url}: words cut at {size[0]}px"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0] + 1, f"{url} is {width}px wide at {size[0]}px"
    assert not page.watch.errors, page.watch.errors


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_language_switch_keeps_the_section(page, site_server, lang):
    here, there = ("", "zh/") if lang == "en" else ("zh/", "")
    other = "zh" if lang == "en" else "en"
    page.goto(site_server.url + here + "chapters/02-sync-loop/#goals")
    page.locator(".md-header__option .md-select").hover()
    page.locator(f"a.md-select__link[hreflang={other}]").click()
    page.wait_for_url(site_server.url + there + "chapters/02-sync-loop/#goals")
    assert page.locator("html").get_attribute("lang") == other
    assert not page.watch.errors, page.watch.errors


def test_each_language_has_its_own_404_page(page, site_server):
    for path, lang, heading in (
        ("404.html", "en", "404 - Page not found"),
        ("zh/404.html", "zh", "404：找不到这个页面"),
    ):
        page.goto(site_server.url + path)
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("article h1").inner_text() == heading
        home = page.locator('article a[href$="/zh/"]' if lang == "en" else 'article a[href="/"]')
        assert home.count() == 1, "no way home in the other language"
    assert not page.watch.foreign(), page.watch.foreign()


def test_chinese_pages_have_chinese_chrome(page, site_server):
    page.goto(site_server.url + "zh/chapters/01-big-picture/")
    description = page.locator('meta[name="description"]').get_attribute("content")
    assert re.search(r"[\u4e00-\u9fff]", description), description
    titles = page.eval_on_selector_all("a.headerlink", "els => els.map(e => e.title)")
    assert titles and set(titles) == {"永久链接"}
    toggles = page.eval_on_selector_all(
        "form[data-md-component=palette] label", "els => els.map(e => e.title)"
    )
    assert toggles and all(re.search(r"[\u4e00-\u9fff]", t) for t in toggles), toggles


# --- search ---------------------------------------------------------------------------------


def search(page, url: str, query: str) -> list[str]:
    page.goto(url)
    page.locator("input.md-search__input").click()
    page.keyboard.type(query)
    page.wait_for_selector(".md-search-result__item > a", timeout=20_000)
    hrefs = page.eval_on_selector_all(
        ".md-search-result__item > a", "els => els.map(e => e.getAttribute('href'))"
    )
    return [re.sub(r"^https?://[^/]+/", "", h).split("?")[0] for h in hrefs]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_language_searches_its_own_pages_chapters_first(page, site_server, lang):
    prefix = "zh/" if lang == "zh" else ""
    results = search(page, site_server.url + prefix, "syncLoopIteration")
    assert results[0] == f"{prefix}chapters/03-sync-loop-iteration/", results
    assert all(r.startswith("zh/") == (lang == "zh") for r in results), results
    assert not any(r.startswith(f"{prefix}reference") for r in results[:3]), (
        f"the API reference crowds out the chapters: {results[:3]}"
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("query", ["handlepodadditions", "HandlePodAdditions", "pod additions"])
def test_identifiers_are_found_whole_lower_case_and_by_their_parts(page, site_server, lang, query):
    prefix = "zh/" if lang == "zh" else ""
    results = search(page, site_server.url + prefix, query)
    assert f"{prefix}chapters/04-handle-pod-additions/" in results[:3], results


def test_a_chinese_word_from_the_middle_of_a_title_finds_its_page(page, site_server):
    results = search(page, site_server.url + "zh/", "迭代")
    assert "zh/chapters/03-sync-loop-iteration/" in results[:3], results
    assert all(r.startswith("zh/") for r in results), results


def test_the_search_index_loads_when_the_reader_goes_to_search(page, site_server):
    page.goto(site_server.url + "chapters/01-big-picture/", wait_until="networkidle")
    page.wait_for_timeout(300)
    assert not [u for u in page.watch.requests if "search_index.json" in u], "loaded up front"
    page.locator("input.md-search__input").click()
    page.keyboard.type("merge")
    page.wait_for_selector(".md-search-result__item", timeout=20_000)
    assert [u for u in page.watch.requests if u.endswith("/search/search_index.json")]


# --- a view in source mode ------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wide_view_shows_both_panes_and_links_its_lines(fixture_view, lang):
    view = fixture_view(lang, DESKTOP)
    assert not view.locator(".mkl-sbs__panes").is_visible()
    assert visible_cells(view, "go") > 10 and visible_cells(view, "py") > 10
    links = view.locator("a.mkl-ln")
    assert links.count() > 10
    for i in range(links.count()):
        assert links.nth(i).get_attribute("target") == "_blank"
        assert links.nth(i).get_attribute("rel") == "noopener"
    assert view.locator(".mkl-hint-mouse").is_visible()
    assert not view.locator(".mkl-hint-touch").is_visible()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_phone_shows_one_pane_and_keeps_the_twin_lit_across_the_switch(page, fixture_view, lang):
    touch(page)
    view = fixture_view(lang, PHONE)
    hint = view.locator(".mkl-hint-touch")
    assert hint.is_visible() and not view.locator(".mkl-hint-mouse").is_visible()
    assert ("轻触" if lang == "zh" else "Tap") in hint.inner_text()
    switch = view.locator(".mkl-sbs__panes")
    assert switch.is_visible() and view.locator(".mkl-sbs__expand").is_visible()
    assert visible_cells(view, "go") > 10 and visible_cells(view, "py") == 0
    box = view.bounding_box()
    assert box["width"] <= PHONE[0]
    # Tap a Go block: it stays lit. Switch to Python: its twin is lit, and in sight.
    head = view.locator("td.mkl-go.mkl-head:not(.mkl-lnc)[data-b]").nth(3)
    block = head.get_attribute("data-b")
    head.click()  # a tap, as far as the page can tell (touch emulation is on)
    assert view.get_attribute("data-pinned") == block
    switch.locator('button[data-pane="py"]').click()
    assert visible_cells(view, "go") == 0 and visible_cells(view, "py") > 10
    assert switch.locator('button[data-pane="py"]').get_attribute("aria-pressed") == "true"
    twin = view.locator(f'td.mkl-py.mkl-head:not(.mkl-lnc)[data-bs~="{block}"]').first
    assert "mkl-pin" in twin.get_attribute("class")
    body = view.locator(".mkl-sbs__body").bounding_box()
    top = twin.bounding_box()["y"]
    assert body["y"] <= top <= body["y"] + body["height"], "the twin is out of sight"


def test_a_copy_button_copies_one_pane_and_a_selection_stays_on_its_side(
    page, browser, fixture_view
):
    view = fixture_view("en", DESKTOP)
    origin = re.match(r"^https?://[^/]+", page.url).group(0)
    browser.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    view.locator('.mkl-sbs__copy[data-copy="go"]').click()
    go = page.evaluate("navigator.clipboard.readText()")
    assert go.startswith("func (kl *Kubelet) syncLoopIteration(") and "def " not in go
    assert view.locator('.mkl-sbs__copy[data-copy="go"]').inner_text() == "Copied"
    view.locator('.mkl-sbs__copy[data-copy="py"]').click()
    py = page.evaluate("navigator.clipboard.readText()")
    assert py.lstrip().startswith("def sync_loop_iteration(") and "func (kl" not in py
    assert "# Go: case" not in py, "anchor comments are not part of the Python shown"
    # A selection started in the Go pane cannot take Python lines with it.
    view.locator("td.mkl-go:not(.mkl-lnc)").nth(2).dispatch_event("pointerdown")
    assert view.get_attribute("data-select") == "go"
    py_cell = view.locator("td.s-py").nth(2)
    assert py_cell.evaluate("td => getComputedStyle(td).userSelect") == "none"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_full_screen_says_how_to_leave_it(page, fixture_view, lang):
    view = fixture_view(lang, DESKTOP)
    button = view.locator(".mkl-sbs__expand")
    off, on = ("全屏", "退出全屏") if lang == "zh" else ("Full screen", "Exit full screen")
    assert button.inner_text() == off
    button.click()
    assert button.inner_text() == on and button.get_attribute("aria-pressed") == "true"
    assert "100vmax" in view.evaluate("v => v.style.boxShadow || ''") or (
        "rgba(0, 0, 0, 0.55)" in view.evaluate("v => getComputedStyle(v).boxShadow")
    ), "no backdrop over the page"
    assert page.evaluate("document.documentElement.classList.contains('mkl-sbs-open')")
    page.keyboard.press("Escape")
    assert button.inner_text() == off and button.get_attribute("aria-pressed") == "false"
