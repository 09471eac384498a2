"""Page weight: what a first visit to a page downloads, gzipped, measured in Chromium.

Run: ``python bench/bench_page_weight.py [--site DIR] [PAGE ...]``, where DIR is a built site
(default: build one now into a temporary folder with ``mkdocs build``; set ``K8S_SRC`` to build
with the Go panes) and each PAGE a path under it (default: every chapter page, both languages,
and the home pages).  Prints, per page, each request of a cold load (empty cache, no service
worker) with its size as served and gzipped (level 6, as a static host compresses text), and
the total.  Asserts nothing.

Goal (issue 15): a chapter page's first load under 150 KB gzipped, search working.
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.site.serve import served  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".xml", "/")


def build(out: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    cmd = [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(out)]
    subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True)


def default_pages(site: Path) -> list[str]:
    pages = sorted(
        p.parent.relative_to(site).as_posix() + "/"
        for p in (site / "chapters").glob("*/index.html")
    )
    return ["", "zh/", *pages, *("zh/" + p for p in pages)]


def served_file(site: Path, url: str) -> Path | None:
    path = unquote(urlsplit(url).path).lstrip("/")
    f = site / path
    if f.is_dir():
        f = f / "index.html"
    return f if f.is_file() else None


def weigh(site: Path, base: str, page: str, browser, search: bool = False):
    """(path, bytes, gzipped bytes) of every request a cold load of `page` makes (then, with
    `search`, of going to the search box and finding something)."""
    context = browser.new_context(service_workers="block", viewport={"width": 1440, "height": 900})
    tab = context.new_page()
    urls: list[str] = []
    tab.on("request", lambda r: urls.append(r.url))
    tab.goto(base + page, wait_until="networkidle")
    tab.wait_for_timeout(500)
    if search:
        tab.locator("input.md-search__input").click()
        tab.keyboard.type("pod")
        tab.wait_for_selector(".md-search-result__item", timeout=20_000)
    context.close()
    out = []
    for url in dict.fromkeys(urls):
        f = served_file(site, url)
        if f is None or not url.startswith(base):
            continue
        data = f.read_bytes()
        text = f.suffix in COMPRESSED or f.name == "index.html"
        zipped = len(gzip.compress(data, 6)) if text else len(data)
        out.append((urlsplit(url).path, len(data), zipped))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, help="a built site (default: build one)")
    ap.add_argument("--detail", action="store_true", help="list every request")
    ap.add_argument("pages", nargs="*")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or Path(tmp) / "site"
        if args.site is None:
            print(f"building the site into {site} …", flush=True)
            build(site)
        with served(site) as base, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            print(
                f"{'page':44} {'requests':>8} {'first load':>11} {'gzipped':>9}"
                f" {'+ search, gzipped':>18}"
            )
            for page in args.pages or default_pages(site):
                rows = weigh(site, base, page, browser)
                raw, zipped = sum(r[1] for r in rows), sum(r[2] for r in rows)
                searched = sum(r[2] for r in weigh(site, base, page, browser, search=True))
                print(
                    f"/{page:43} {len(rows):8} {raw / 1024:8.1f} KB {zipped / 1024:6.1f} KB"
                    f" {searched / 1024:15.1f} KB"
                )
                if args.detail:
                    for path, n, z in sorted(rows, key=lambda r: -r[2]):
                        print(f"    {path:62} {n / 1024:8.1f} KB {z / 1024:7.1f} KB")
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
