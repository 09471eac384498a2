"""``python -m tools.site.book --site SITE [--out DIR] [--lang en zh] [--site-url URL]``.

Prints the built site ``SITE`` (``mkdocs build``) as one PDF per language, where the home
pages link them (``SITE/pdf/minikubelet-en.pdf``, ``SITE/zh/pdf/minikubelet-zh.pdf``), or
into ``DIR`` with ``--out``. Chromium is Debian's (``$CHROMIUM``,
default ``/usr/bin/chromium``), driven by Playwright. Exit status 2, with one line saying why,
when the site or the browser is missing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from tools.site.book import CHROMIUM_ARGS, LANGUAGES, BookError, book_file, make_book
from tools.site.serve import served


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.site.book", description=__doc__)
    parser.add_argument("--site", type=Path, required=True, help="a built site (mkdocs build)")
    parser.add_argument("--out", type=Path, help="where the PDFs go (default: in the site)")
    parser.add_argument("--lang", nargs="+", choices=sorted(LANGUAGES), default=["en", "zh"])
    parser.add_argument("--site-url", default="", help="the published site, for links out")
    args = parser.parse_args(argv)
    site = args.site.resolve()
    if not (site / "index.html").is_file():
        print(f"book: {site} is not a built site (no index.html): run mkdocs build first")
        return 2
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        print(f"book: no Chromium at {chromium} (apt-get install chromium, or set CHROMIUM)")
        return 2
    from playwright.sync_api import sync_playwright

    site_url = args.site_url.rstrip("/") + "/" if args.site_url else ""
    with served(site) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            for lang in args.lang:
                start = time.perf_counter()
                pdf = make_book(browser, base, lang, site_url=site_url)
                target = site / book_file(lang)
                if args.out:
                    target = args.out.resolve() / target.name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(pdf)
                seconds = time.perf_counter() - start
                print(f"book: {target} ({len(pdf) / 1024:,.0f} KiB, {seconds:.0f} s)")
        except BookError as err:
            print(f"book: {err}")
            return 2
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
