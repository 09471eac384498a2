"""Fixtures of the site tests: a local server for the built site, and headless Chromium.

The browser is Debian's Chromium (``/usr/bin/chromium``, or ``$CHROMIUM``) driven by Playwright,
which never downloads a browser of its own here. ``make test`` installs both and sets
``MINIKUBELET_BROWSER_TESTS=require``: then a missing browser fails the tests instead of skipping
them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tools.site.serve import served

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--disable-extensions",
]


@dataclass
class Server:
    root: Path
    url: str  # http://127.0.0.1:<port>/
    netloc: str


def serve(root: Path) -> Iterator[Server]:
    with served(root) as url:
        yield Server(root, url, urlsplit(url).netloc)


@pytest.fixture(scope="session")
def site_server(built_site) -> Iterator[Server]:
    """The built site, served on 127.0.0.1 on a free port."""
    yield from serve(built_site)


def _browser_missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A headless Chromium with a fresh profile, for one test module.

    Not for the whole session: while Playwright's sync API is active, an asyncio loop counts as
    running in this thread, and the port's own tests (which run theirs) would fail after it.
    """
    missing = _browser_missing()
    if missing:
        if os.environ.get("MINIKUBELET_BROWSER_TESTS") == "require":
            pytest.fail(f"browser tests required, but {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1440, "height": 900},
            locale="en-US",
            service_workers="block",
        )
        try:
            yield context
        finally:
            context.close()


@dataclass
class Watch:
    """What a page did: every request, console error and uncaught exception."""

    allowed: set[str]  # host:port of the local server(s)
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def is_local(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in ("data", "blob", "about") or parts.netloc in self.allowed

    def foreign(self) -> list[str]:
        """Requests to any host but the local server (data: and blob: URLs are local)."""
        return [url for url in self.requests if not self.is_local(url)]


@pytest.fixture
def page(browser, site_server):
    """A new tab. Every request is recorded; requests to other hosts are aborted."""
    tab = browser.new_page()
    watch = Watch({site_server.netloc})

    def route(r):
        watch.requests.append(r.request.url)
        if watch.is_local(r.request.url):
            r.continue_()
        else:
            r.abort()

    tab.route("**/*", route)
    tab.on("request", lambda req: watch.requests.append(req.url))
    tab.on(
        "console",
        lambda m: (
            watch.errors.append(f"console {m.type}: {m.text} ({m.location.get('url')})")
            if m.type == "error"
            else None
        ),
    )
    tab.on("pageerror", lambda exc: watch.errors.append(f"uncaught: {exc}"))
    tab.watch = watch
    try:
        yield tab
    finally:
        tab.close()


@pytest.fixture(scope="session")
def source_mode_page(tmp_path_factory) -> Path:
    """A page with a side-by-side view built in source mode from the xref test fixtures.

    The Go is the fixture's (written by us, shaped like kubelet), so this runs without the
    Kubernetes source; the view, CSS and JS are the site's.
    """
    from tests.xref.conftest import FIXTURES, K8S, KUBELET_GO
    from tools.site.hooks import ASSETS
    from tools.site.sidebyside import build_view, pick_mapping, render_view
    from tools.xref import build_index

    index = build_index(
        FIXTURES,
        package="port",
        src=K8S,
        source_version="v1.21.3",
        lock_path=None,
        cache_dir=False,
        offline=True,
    )
    assert index.mode == "source", index.notes
    mapping = pick_mapping(index, KUBELET_GO, "(*Kubelet).syncLoopIteration")
    out = tmp_path_factory.mktemp("source-mode")
    for asset in ASSETS.iterdir():
        shutil.copy(asset, out / asset.name)
    for lang, name in (("en", "view.html"), ("zh", "view.zh.html")):
        html = render_view(build_view(index, mapping, FIXTURES, view_id="sbs-1", lang=lang))
        (out / name).write_text(PAGE.format(body=html, lang=lang), encoding="utf-8")
    return out / "view.html"


# A bare page around one view (the site's own pages are tested in test_browser.py).
PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>view</title>
<link rel="stylesheet" href="sidebyside.css"></head>
<body><article class="md-typeset">{body}</article>
<script src="sidebyside.js"></script></body></html>
"""
