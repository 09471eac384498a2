"""mkdocs hooks of the minikubelet site (named in ``mkdocs.yml`` under ``hooks:``).

What they do, per build (mkdocs-static-i18n builds once per language, in one process):

- ``on_startup`` and ``on_config``: under ``mkdocs serve``, answer on its address with a page
  that says the site is being built until the first build is done (`tools.site.building`).

- ``on_config``: index the port with `tools.xref` (once per version of the port and source:
  the second language reuses it), fail when ``MINIKUBELET_REQUIRE_SOURCE=1`` and there is no
  Go source, add the side-by-side CSS and JS (served from the site, never from another
  host), and point the pages' "edit this page" links at the repository
  (`tools.site.edit_link`).
- ``on_files``: add those assets (``tools/site/assets``) to the site as ``assets/minikubelet/``.
- ``on_page_markdown``: expand the directives (see `tools.site`).
- ``on_page_content``: put the rendered side-by-side views in place; on Chinese pages, give the
  headings' permalinks a Chinese title (Python-Markdown's ``toc`` has one setting for all).
- ``on_post_page``: put the side-by-side views in (after search indexed the page), write the
  trace players' data beside the page (`tools.site.trace`), make the language links
  relative, point a Chinese page's search at the Chinese index (``zh/search/``).
- ``on_post_template``: keep each language's 404 page (both builds write ``404.html`` at the
  site's root, the Chinese one last).
- ``on_post_build`` (last of all, after mkdocs-static-i18n has written the combined search
  index): split the search index by language (`tools.site.search`); put the English 404 page
  at the root and the Chinese one at ``zh/404.html``; give every language-alternate URL a
  ``sitemap.xml``.  mkdocs-static-i18n
  links each page to its twin (``<link rel="alternate" hreflang>``, which keeps the page when
  the language changes), and mkdocs-material's JS takes those links for site roots and fetches
  ``<link>/sitemap.xml`` from each: without a file there, every page would log two 404s.

The directive syntax and the two modes (source, link-only) are described in `tools.site`.
"""

from __future__ import annotations

import json
import logging
import os
import posixpath
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # mkdocs loads this file by path: make `tools` importable
    sys.path.insert(0, str(ROOT))

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402
from mkdocs.structure.files import File, Files  # noqa: E402
from mkdocs.utils import get_relative_url  # noqa: E402

from tools.site.book import links_directive as book_links  # noqa: E402
from tools.site.breakpoints import pdb_directive  # noqa: E402
from tools.site.building import BuildingPage  # noqa: E402
from tools.site.chapter_list import chapters_directive  # noqa: E402
from tools.site.directives import Directive, DirectiveError, expand, find  # noqa: E402
from tools.site.edit_link import REPOSITORY_ENV, edit_uri  # noqa: E402
from tools.site.exercises import exercises_directive  # noqa: E402
from tools.site.kubelet_logs import kubelet_logs_table  # noqa: E402
from tools.site.oracle import oracle_directive  # noqa: E402
from tools.site.recipes import spots_table  # noqa: E402
from tools.site.render import render  # noqa: E402
from tools.site.runner import Runner, port_fingerprint, run_directive  # noqa: E402
from tools.site.search import split_index  # noqa: E402
from tools.site.sidebyside import (  # noqa: E402
    build_view,
    pick_mapping,
    reference_id,
    render_view,
)
from tools.site.trace import Traces  # noqa: E402
from tools.xref import LOCK_PATH, build_index  # noqa: E402
from tools.xref.index import Index  # noqa: E402

log = logging.getLogger("mkdocs.plugins.minikubelet")

ASSETS = Path(__file__).resolve().parent / "assets"
ASSET_DIR = "assets/minikubelet"
CSS = [
    f"{ASSET_DIR}/site.css",
    f"{ASSET_DIR}/sidebyside.css",
    f"{ASSET_DIR}/diagrams.css",
    f"{ASSET_DIR}/trace.css",
]
JS = [f"{ASSET_DIR}/sidebyside.js", f"{ASSET_DIR}/site.js", f"{ASSET_DIR}/trace.js"]
PERMALINK_TITLE = {"zh": "永久链接"}  # the heading anchors' title; English is toc's own
DEFAULT_LANGUAGE = "en"
REQUIRE_SOURCE = "MINIKUBELET_REQUIRE_SOURCE"
REFERENCE_PAGE = "reference.md"


class _State:
    """What the hooks keep between events and between the builds of one process."""

    index: Index | None = None
    index_key: tuple | None = None
    runner: Runner | None = None
    traces: Traces | None = None
    pending: ClassVar[dict[str, dict[str, tuple]]] = {}  # page URL → slot id → (mapping, doc)
    views: ClassVar[dict[str, dict[str, str]]] = {}  # page URL → placeholder → the view's HTML
    not_found: ClassVar[dict[str, str]] = {}  # language → its 404 page
    beside: ClassVar[dict[str, dict[str, bytes]]] = {}  # page URL → file name → its content
    serving = False  # mkdocs serve (not build)
    waiting: BuildingPage | None = None  # the address's page during serve's first build


state = _State()


def _truthy(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _index_key() -> tuple:
    lock = LOCK_PATH.stat().st_mtime_ns if LOCK_PATH.exists() else 0
    env = tuple(os.environ.get(v, "") for v in ("K8S_SRC", "K8S_SRC_VERSION", "XREF_CACHE_DIR"))
    return (port_fingerprint(ROOT), lock, env)


def get_index():
    """The cross-reference, built once per version of the port, lock and source."""
    key = _index_key()
    if state.index is None or state.index_key != key:
        index = build_index(ROOT, offline=True, require_source=_truthy(REQUIRE_SOURCE))
        state.index, state.index_key = index, key
        if index.source is not None:
            log.info(f"minikubelet: Go source: {index.source.describe()}")
        else:
            log.info("minikubelet: no Go source, link-only build: " + " ".join(index.notes))
    return state.index


def on_startup(command: str, dirty: bool) -> None:
    state.serving = command == "serve"


def on_config(config):
    if state.serving and state.waiting is None:
        state.waiting = BuildingPage()  # once: the first build only
        host, port = config.dev_addr
        if state.waiting.start(host, port):
            log.info(f"minikubelet: http://{host}:{port}/ says the site is being built, meanwhile")
    index = get_index()
    if _truthy(REQUIRE_SOURCE) and index.mode != "source":
        raise PluginError(
            f"{REQUIRE_SOURCE}=1 but there is no Go source: "
            + " ".join(index.notes)
            + " (set K8S_SRC, or run 'python -m tools.xref fetch' first)"
        )
    for problem in index.errors:
        log.warning(f"minikubelet: xref: {problem}")
    if not config.edit_uri:
        config.edit_uri = edit_uri(ROOT)
        if config.edit_uri is None and state.runner is None:  # said once, not per language
            log.info(
                f"minikubelet: no edit links: set {REPOSITORY_ENV}=https://github.com/OWNER/NAME "
                "(or clone from GitHub, whose origin is used)"
            )
    for path in CSS:
        if path not in config.extra_css:
            config.extra_css.append(path)
    scripts = [str(s) for s in config.extra_javascript]
    for path in JS:
        if path not in scripts:
            config.extra_javascript.append(path)
    if state.runner is None:
        state.runner = Runner(ROOT)
    if state.traces is None:
        state.traces = Traces(ROOT)
    return config


def on_files(files: Files, config) -> Files:
    for asset in sorted(ASSETS.iterdir()):
        uri = f"{ASSET_DIR}/{asset.name}"
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(asset)))
    return files


def _language(page, config) -> str:
    return getattr(page.file, "locale", None) or config.theme.get("language") or "en"


def _reference_url(files: Files, lang: str) -> str | None:
    """The URL of the API reference page in ``lang``."""
    for f in files.documentation_pages():
        stem = f.src_uri.removesuffix(".md").removesuffix(f".{lang}")
        if stem + ".md" == REFERENCE_PAGE and getattr(f, "locale", lang) == lang:
            return f.url
    return None


def on_page_markdown(markdown: str, page, config, files: Files) -> str:
    if state.waiting is not None:
        state.waiting.page_done()
    lang = _language(page, config)
    src = page.file.src_uri
    runner, traces = state.runner, state.traces
    assert runner is not None and traces is not None  # on_config made them
    slots: dict[str, tuple] = {}
    counter = 0

    def sidebyside(d: Directive) -> str:
        nonlocal counter
        if len(d.args) != 2:
            raise DirectiveError("sidebyside(go_path, go_symbol, py=None, doc=False)")
        unknown = set(d.kwargs) - {"py", "doc"}
        if unknown:
            raise DirectiveError(f"sidebyside: unknown options {sorted(unknown)}")
        mapping = pick_mapping(get_index(), d.args[0], d.args[1], d.kwargs.get("py"))
        counter += 1
        slot = f"sbs-{counter}"
        slots[slot] = (mapping, bool(d.kwargs.get("doc", False)))
        # Blank lines around: a raw HTML block of its own, never part of a paragraph.
        return "\n" + render("slot.html.j2", slot=slot) + "\n"

    def run(d: Directive) -> str:
        if len(d.args) != 1:
            raise DirectiveError('run("minikubelet …", grep=None, head=None, tail=None)')
        unknown = set(d.kwargs) - {"grep", "head", "tail"}
        if unknown:
            raise DirectiveError(f"run: unknown options {sorted(unknown)}")
        return run_directive(runner, d.args[0], lang=lang, **d.kwargs)

    # Numbered in page order (directives are expanded from the last one up).
    trace_lines = [t.line for t in find(markdown) if t.name == "trace"]

    def trace(d: Directive) -> str:
        number = trace_lines.index(d.line) + 1
        html, name, script = traces.directive(d, number=number, lang=lang, index=get_index())
        state.beside.setdefault(page.file.url, {})[name] = script
        return html

    def pdb(d: Directive) -> str:
        unknown = set(d.kwargs) - {"then", "args"}
        if unknown:
            raise DirectiveError(f"pdb(script, target, …, then=None, args=''): unknown {unknown}")
        return pdb_directive(ROOT, *d.args, **d.kwargs)

    def kubelet_logs(d: Directive) -> str:
        if d.args or d.kwargs:
            raise DirectiveError("kubelet_logs() takes no arguments")
        return kubelet_logs_table(ROOT, lang)

    def spots(d: Directive) -> str:
        if d.args or d.kwargs:
            raise DirectiveError("spots() takes no arguments")
        return spots_table(lang)

    def book(d: Directive) -> str:
        if d.args or d.kwargs:
            raise DirectiveError("book() takes no arguments")
        return book_links(lang, page.url)

    def exercises(d: Directive) -> str:
        if d.kwargs or len(d.args) > 1:
            raise DirectiveError("exercises(chapter=None) takes at most a chapter number")
        return exercises_directive(src, lang, *d.args)

    def chapters(d: Directive) -> str:
        if d.args or d.kwargs:
            raise DirectiveError("chapters() takes no arguments")
        return chapters_directive(Path(config.docs_dir), lang)

    def oracle(d: Directive) -> str:
        if d.kwargs or len(d.args) > 1:
            raise DirectiveError("oracle(chapter=None) takes at most a chapter number")
        return oracle_directive(src, lang, *d.args)

    handlers = {
        "oracle": oracle,
        "sidebyside": sidebyside,
        "run": run,
        "pdb": pdb,
        "spots": spots,
        "kubelet_logs": kubelet_logs,
        "exercises": exercises,
        "trace": trace,
        "book": book,
        "chapters": chapters,
    }
    try:
        out = expand(markdown, handlers)
    except DirectiveError as exc:
        raise PluginError(f"docs/{src}: {exc}") from None
    state.pending[page.file.url] = slots
    return out


def on_page_content(html: str, page, config, files: Files) -> str:
    lang = _language(page, config)
    if lang in PERMALINK_TITLE:
        html = html.replace('title="Permanent link"', f'title="{PERMALINK_TITLE[lang]}"')
    slots = state.pending.pop(page.file.url, {})
    if not slots:
        return html
    index = get_index()
    reference = _reference_url(files, lang)
    for slot, (mapping, doc) in slots.items():
        href = None
        ref_id = reference_id(mapping.py_file, mapping.py_qualname)
        if reference is not None and ref_id is not None:
            href = get_relative_url(reference, page.url) + "#" + ref_id
        view = build_view(
            index, mapping, ROOT, lang=lang, view_id=slot, doc=doc, reference_href=href
        )
        placeholder = render("slot.html.j2", slot=slot)
        if placeholder not in html:
            raise PluginError(f"docs/{page.file.src_uri}: the view {slot} got lost in Markdown")
        # Put in by on_post_page, once the search plugin has read the page: the index holds the
        # prose and headings, not thousands of numbered code lines and the views' buttons.
        state.views.setdefault(page.file.url, {})[placeholder] = render_view(view)
    return html


class _Alternates(HTMLParser):
    """The ``hreflang`` alternates a page declares in its head."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("rel") == "alternate" and a.get("hreflang") and a.get("href"):
            self.hrefs.append(a["href"])


CONFIG_SCRIPT = re.compile(
    r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S
)


def on_post_page(output: str, page, config) -> str:
    """The page's views in their slots; a Chinese page searches the Chinese index (material
    fetches ``<base>/search/…``)."""
    for placeholder, view in state.views.pop(page.file.url, {}).items():
        output = output.replace(placeholder, view, 1)
    for name, content in state.beside.pop(page.file.url, {}).items():
        target = Path(page.file.abs_dest_path).parent / name  # a trace player's data
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    output = _relative_alternates(output, page.url, config)
    lang = _language(page, config)
    if lang == DEFAULT_LANGUAGE:
        return output

    def rebase(m: re.Match) -> str:
        data = json.loads(m.group(2))
        data["base"] = data["base"].rstrip("/") + f"/{lang}/"  # a folder: ends with /
        return m.group(1) + json.dumps(data, ensure_ascii=False) + m.group(3)

    return CONFIG_SCRIPT.sub(rebase, output, count=1)


#: A language alternate (the language menu's links, the head's ``<link rel="alternate">``).
ALTERNATE = re.compile(r'(<(?:a|link)\b[^>]*?\bhref=")(/[^"]*)("[^>]*?\bhreflang="(\w+)")')


def _site_path(config) -> str:
    """The site's path on its host: ``/minikubelet`` on a project site, ``""`` at a root."""
    return urlsplit(config.site_url or "").path.rstrip("/")


def _relative_alternates(html: str, url: str, config) -> str:
    """Root-absolute alternates made relative to the page: they work under any sub-path."""
    base = _site_path(config)

    def one(m: re.Match) -> str:
        target = m.group(2).removeprefix(base).lstrip("/")
        relative = get_relative_url(target or ".", url)
        if m.group(2).endswith("/") and not relative.endswith("/"):
            relative += "/"  # a folder stays a folder: "../.." → "../../"
        return m.group(1) + relative + m.group(3)

    return ALTERNATE.sub(one, html)


def _404_alternates(html: str, config) -> str:
    """A 404 page is served at any depth: its language links go to each home page."""
    base = _site_path(config)

    def one(m: re.Match) -> str:
        home = f"{base}/" if m.group(4) == DEFAULT_LANGUAGE else f"{base}/{m.group(4)}/"
        return m.group(1) + home + m.group(3)

    return ALTERNATE.sub(one, html)


def on_post_template(output: str, template_name: str, config) -> str:
    if template_name == "404.html":
        state.not_found[config.theme.get("language") or "en"] = _404_alternates(output, config)
    return output


def _place_404_pages(site: Path) -> None:
    """English at the root (what a host serves for any missing URL), Chinese at zh/404.html."""
    for lang, html in state.not_found.items():
        target = site / "404.html" if lang == "en" else site / lang / "404.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")


def _no_sitemap_without_a_site_url(site: Path) -> None:
    """Without ``site_url`` mkdocs writes ``<loc>None</loc>``: a sitemap needs absolute URLs."""
    for sitemap in site.rglob("sitemap.xml"):
        if "<loc>None" in sitemap.read_text(encoding="utf-8"):
            sitemap.write_text(render("empty-sitemap.xml.j2") + "\n", encoding="utf-8")
            sitemap.with_suffix(".xml.gz").unlink(missing_ok=True)


@event_priority(-200)
def on_post_build(config) -> None:
    site = Path(config.site_dir).resolve()
    i18n = config.plugins.get("i18n")
    if state.waiting is not None and (i18n is None or not i18n.building):
        state.waiting.stop()  # the first build is done: mkdocs serve binds the address now
    if i18n is not None and not i18n.building and (site / "search" / "search_index.json").exists():
        # the outer build's last event: every language is built and the index is combined
        counts = split_index(site, DEFAULT_LANGUAGE)
        log.info(f"minikubelet: search index per language: {counts}")
    _place_404_pages(site)
    base = _site_path(config)
    if not config.site_url:
        _no_sitemap_without_a_site_url(site)
    wanted: set[str] = set()
    for page in site.rglob("*.html"):
        parser = _Alternates()
        parser.feed(page.read_text(encoding="utf-8"))
        here = page.parent.relative_to(site).as_posix()
        for href in parser.hrefs:
            url = urlsplit(href)
            if url.scheme or url.netloc:
                continue
            if url.path.startswith("/"):  # absolute: from the site's root
                target = url.path.removeprefix(base) if base else url.path
                target = posixpath.normpath("." + target)
            else:
                target = posixpath.normpath(posixpath.join(here, url.path))
            if not target.startswith(".."):
                wanted.add(target)
    for folder in sorted(wanted):
        sitemap = (site / folder / "sitemap.xml").resolve()
        if sitemap.parent.is_dir() and sitemap.is_relative_to(site) and not sitemap.exists():
            sitemap.write_text(render("empty-sitemap.xml.j2") + "\n", encoding="utf-8")
