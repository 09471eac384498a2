"""The trace players on the built site, in headless Chromium with every other host blocked:
play, step, keys, scrub, deep links, both languages, a phone's width."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.site.nav import chapter_pages
from walkthrough.catalog import PACKAGE_DIR, discover

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CHAPTER_3 = "chapters/03-sync-loop-iteration/"
DOCS = PACKAGE_DIR.parent / "docs"


def player(page, site_server, path: str, trace_id: str):
    """Open ``path``, scroll to the player ``trace_id`` and wait until its data is in."""
    page.goto(site_server.url + path)
    root = page.locator(f"#trace-{trace_id}")
    root.scroll_into_view_if_needed()
    page.wait_for_selector(f"#trace-{trace_id}.mkl-trace--loaded", timeout=20_000)
    return root


def step(root) -> int:
    return int(root.get_attribute("data-step"))


def say(root) -> str:
    return root.locator(".mkl-trace__say").inner_text()


def clean(page) -> None:
    assert not page.watch.errors, page.watch.errors
    assert not page.watch.foreign(), page.watch.foreign()


def test_chapter_3_shows_the_select_choose_among_ready_channels(page, site_server):
    root = player(page, site_server, CHAPTER_3, "seed-0")
    assert step(root) == 1
    assert say(root).startswith(
        "select: 3 cases ready (configCh, syncCh, housekeepingCh); chose syncCh"
    )
    # The cases as chips: three ready, one of them chosen.
    assert root.locator(".mkl-trace__case.mkl-is-chosen").inner_text().endswith("syncCh")
    ready = root.locator(".mkl-trace__case.mkl-is-ready").all_inner_texts()
    assert ready == ["configCh", "housekeepingCh"]
    # The chosen case is lit in the Go and in the Python (their lines in view).
    go_case = root.locator(".mkl-trace__pane--go .mkl-is-chosen")
    py_case = root.locator(".mkl-trace__pane--py .mkl-is-chosen")
    assert "<-syncCh" in go_case.inner_text()
    assert "# Go: case <-syncCh:" in py_case.inner_text()
    assert go_case.is_visible() and py_case.is_visible()
    assert root.locator(".mkl-trace__pane--py .mkl-trace__fn").inner_text() == (
        "Kubelet.sync_loop_iteration"
    )
    # The channels' contents: the ADD and the housekeeping tick still wait; syncCh was emptied.
    chans = root.locator(".mkl-trace__chan")
    assert "ADD file [default/nginx-minikubelet" in chans.filter(has_text="configCh").inner_text()
    assert "tick 2s" in chans.filter(has_text="housekeepingCh").inner_text()
    assert "0/1" in root.locator('.mkl-trace__chan[data-chan="syncCh"]').inner_text()
    clean(page)


def test_play_pause_and_the_buttons(page, site_server):
    root = player(page, site_server, CHAPTER_3, "seed-0")
    first = say(root)
    root.locator("[data-act=next]").click()
    assert step(root) == 2 and say(root) != first
    root.locator("[data-act=prev]").click()
    assert step(root) == 1 and say(root) == first
    root.locator("[data-act=speed]").select_option("4")
    root.locator("[data-act=play]").click()
    assert root.locator("[data-act=play]").get_attribute("aria-pressed") == "true"
    page.wait_for_function(
        "() => +document.querySelector('#trace-seed-0').dataset.step >= 4", timeout=10_000
    )
    root.locator("[data-act=play]").click()
    assert root.locator("[data-act=play]").get_attribute("aria-pressed") == "false"
    paused = step(root)
    page.wait_for_timeout(600)
    assert step(root) == paused >= 4
    root.locator("[data-act=last]").click()
    last = step(root)
    assert last == int(root.locator(".mkl-trace__range").get_attribute("max")) > 10
    root.locator("[data-act=first]").click()
    assert step(root) == 1
    clean(page)


def test_keys_step_and_play(page, site_server):
    root = player(page, site_server, CHAPTER_3, "seed-1")
    root.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step(root) == 3
    page.keyboard.press("ArrowLeft")
    assert step(root) == 2
    page.keyboard.press("End")
    last = step(root)
    page.keyboard.press("Home")
    assert step(root) == 1 and last > 10
    page.keyboard.press(" ")
    page.wait_for_function(
        "() => +document.querySelector('#trace-seed-1').dataset.step >= 2", timeout=10_000
    )
    page.keyboard.press(" ")
    assert root.locator("[data-act=play]").get_attribute("aria-pressed") == "false"
    clean(page)


def test_scrubbing_the_timeline(page, site_server):
    root = player(page, site_server, CHAPTER_3, "seed-0")
    marks = root.locator(".mkl-trace__mark")
    assert marks.count() > 5
    assert root.locator(".mkl-trace__mark--choice").count() >= 2  # the choices at 6.3 s
    scrub = root.locator(".mkl-trace__range")
    scrub.focus()
    page.keyboard.press("End")
    last = step(root)
    assert last == int(scrub.get_attribute("max"))
    box = scrub.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] / 2)
    middle = step(root)
    assert 1 < middle < last
    assert root.locator(".mkl-trace__n").inner_text() == str(middle)
    clean(page)


def test_a_deep_link_opens_the_step(page, site_server):
    page.goto(site_server.url + CHAPTER_3 + "#trace-seed-1-step-5")
    page.wait_for_selector("#trace-seed-1.mkl-trace--loaded", timeout=20_000)
    root = page.locator("#trace-seed-1")
    page.wait_for_function("() => document.querySelector('#trace-seed-1').dataset.step === '5'")
    assert root.locator(".mkl-trace__pos").get_attribute("href") == "#trace-seed-1-step-5"
    assert root.is_visible()
    # The other player on the page is not moved.
    other = page.locator("#trace-seed-0")
    assert other.get_attribute("data-step") in (None, "1")
    # A link followed on the same page moves the player too.
    page.evaluate("location.hash = '#trace-seed-1-step-2'")
    page.wait_for_function("() => document.querySelector('#trace-seed-1').dataset.step === '2'")
    clean(page)


def test_a_players_data_comes_with_the_player_not_with_the_page(page, site_server, built_site):
    html = (built_site / CHAPTER_3 / "index.html").read_text(encoding="utf-8")
    assert '"steps"' not in html, "the players' data is not in the page's first load"
    page.goto(site_server.url + CHAPTER_3, wait_until="networkidle")
    root = page.locator("#trace-seed-1")
    screens = root.evaluate("e => e.getBoundingClientRect().top / innerHeight")
    assert screens > 3, "the player starts well below the first screens"
    fetched = [u for u in page.watch.requests if "/trace-" in u]
    assert not fetched and "mkl-trace--loaded" not in root.get_attribute("class"), fetched
    root.scroll_into_view_if_needed()
    page.wait_for_selector("#trace-seed-1.mkl-trace--loaded", timeout=20_000)
    assert any(u.endswith(CHAPTER_3 + "trace-seed-1.js") for u in page.watch.requests)
    assert say(root).startswith("select: 3 cases ready")
    clean(page)


def test_a_player_works_from_the_built_files_without_a_server(browser, built_site):
    tab = browser.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        tab.goto((built_site / CHAPTER_3 / "index.html").as_uri())
        root = tab.locator("#trace-seed-0")
        root.scroll_into_view_if_needed()
        tab.wait_for_selector("#trace-seed-0.mkl-trace--loaded", timeout=20_000)
        root.locator("[data-act=next]").click()
        assert step(root) == 2
        # mkdocs-material's search cannot run from file:// and says so; nothing else may fail.
        assert not [e for e in errors if "search/search_index" not in e], errors
    finally:
        tab.close()


def test_the_chinese_page_speaks_chinese(page, site_server):
    root = player(page, site_server, "zh/" + CHAPTER_3, "seed-1")
    assert say(root).startswith(
        "select：3 个 case 就绪（configCh、syncCh、housekeepingCh），随机选中 configCh"
    )
    assert root.locator(".mkl-trace__play-label").inner_text() == "播放"
    assert root.locator(".mkl-trace__pos").inner_text().startswith("第 1 步")
    root.locator("[data-act=next]").click()
    assert "就绪" in say(root) or "阻塞" in say(root) or "日志" in say(root)
    assert "通道" in root.locator(".mkl-trace__state").inner_text()
    clean(page)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_390_px_one_pane_at_a_time(page, site_server, lang):
    page.set_viewport_size({"width": 390, "height": 844})
    prefix = "zh/" if lang == "zh" else ""
    root = player(page, site_server, prefix + CHAPTER_3, "seed-0")
    panes = {p: root.locator(f".mkl-trace__pane--{p}") for p in ("go", "py", "state")}
    tabs = root.locator(".mkl-trace__tabs")
    assert tabs.is_visible()
    assert [p for p, loc in panes.items() if loc.is_visible()] == ["go"]
    for name in ("py", "state", "go"):
        tabs.locator(f"[data-pane={name}]").click()
        assert [p for p, loc in panes.items() if loc.is_visible()] == [name]
    tabs.locator("[data-pane=py]").click()
    assert root.locator(".mkl-trace__pane--py .mkl-is-chosen").is_visible()
    # Nothing sticks out of the page: the code scrolls inside its pane.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    box = root.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    root.locator("[data-act=next]").click()
    assert step(root) == 2
    clean(page)


@pytest.mark.parametrize(
    ("path", "trace_id", "expected"),
    [
        (
            "chapters/01-big-picture/",
            "merge",
            [
                "receive SET api [shop/db shop/web] from config source 'api'",
                "send ADD api [shop/db shop/web] on configCh",
                "send UPDATE api [shop/web] on configCh",
                "send REMOVE api [shop/db] on configCh",
            ],
        ),
        ("chapters/02-sync-loop/", "backoff", ["sleep 100ms", "sleep 1.6s", "sleep 3.2s"]),
        (
            "chapters/04-handle-pod-additions/",
            "admission",
            [
                "send create shop/big on podUpdates big",
                'log: "Predicate failed on Pod"',
                "status of shop/small: Failed OutOfpods",
            ],
        ),
        (
            "chapters/05-pod-workers/",
            "busy-worker",
            [
                "is busy: the update waits in lastUndeliveredWorkUpdate (sync default/web)",
                "this update replaces the one waiting in lastUndeliveredWorkUpdate "
                "(update default/web)",
                "finished a sync and takes the update that was waiting",
                "send update default/web on podUpdates web",
            ],
        ),
        (
            "chapters/06-sync-pod/",
            "deadline",
            [
                "status of default/batch-minikubelet: Failed DeadlineExceeded",
                "container runtime: StopContainer work for default/batch-minikubelet",
                "container runtime: StopPodSandbox for default/batch-minikubelet",
            ],
        ),
        (
            "chapters/07-compute-pod-actions/",
            "init",
            [
                "NextInitContainerToStart:&Container{Name:wait-for-db,",
                "NextInitContainerToStart:&Container{Name:migrate,",
                "StartContainer web for default/migrate-then-serve-minikubelet",
            ],
        ),
        (
            "chapters/08-start-container/",
            "crash-loop",
            ["back-off 10s", "back-off 20s", "back-off 2m40s", "app waiting:CrashLoopBackOff"],
        ),
        (
            "chapters/09-pleg/",
            "relist",
            [
                'log: "GenericPLEG"',
                "the send to g.eventChannel can proceed: it sends ContainerStarted",
                "select wakes up: plegCh is ready",
            ],
        ),
        (
            "chapters/10-status-and-probes/",
            "phases",
            [
                "status of jobs/once-ok: Succeeded",
                "status of jobs/once-bad: Failed",
                "status of jobs/crashloop: Running (app waiting:CrashLoopBackOff)",
            ],
        ),
        (
            "chapters/11-end-of-a-pod/",
            "deletion",
            [
                'log: "Running preStop hook"',
                "StopContainer app for shop/web",
                'log: "Killing unwanted pod"',
            ],
        ),
    ],
)
def test_each_chapters_trace_shows_its_idea(page, site_server, path, trace_id, expected):
    root = player(page, site_server, path, trace_id)
    last = int(root.locator(".mkl-trace__range").get_attribute("max"))
    root.focus()
    said = [say(root)]
    for _ in range(last - 1):
        page.keyboard.press("ArrowRight")
        said.append(say(root))
    assert step(root) == last
    for text in expected:
        assert any(text in s for s in said), (text, said)
    clean(page)


@pytest.mark.parametrize("lang", ["", "zh/"])
def test_every_chapter_that_runs_the_port_has_a_player(built_site, lang):
    # A chapter with an example runs the port, and its page plays a trace of it. Chapter 12
    # compares v1.21 with later releases, which the port does not run: no example, no trace.
    chapters = discover()
    pages = chapter_pages(DOCS, chapters)
    runs = {Path(pages[c.number]).stem for c in chapters if c.example and c.number in pages}
    built = sorted((built_site / lang / "chapters").glob("[0-9][0-9]-*/index.html"))
    with_player = {c.parent.name for c in built if 'class="mkl-trace' in c.read_text()}
    assert len(built) == len(pages) >= 12 and "12-from-v1-21-to-today" not in runs
    assert with_player == runs


@pytest.mark.parametrize("lang", ["", "zh/"])
def test_at_390_px_no_step_sticks_out_of_the_page(page, site_server, lang):
    # Chapter 11's steps go through functions with long Go names (executePreStopHook's method).
    page.set_viewport_size({"width": 390, "height": 844})
    root = player(page, site_server, lang + "chapters/11-end-of-a-pod/", "deletion")
    last = int(root.locator(".mkl-trace__range").get_attribute("max"))
    root.focus()
    wide = {}
    for n in range(1, last + 1):
        for pane in ("go", "py", "state"):
            root.locator(f".mkl-trace__tabs [data-pane={pane}]").click()
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                wide[(n, pane)] = width
        root.focus()
        page.keyboard.press("ArrowRight")
    assert not wide, wide
    clean(page)
