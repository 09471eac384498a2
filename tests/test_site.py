"""The bilingual site: builds strictly, has both languages, loads nothing from other hosts."""

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar
from urllib.parse import urljoin, urlparse

import jieba
import yaml

from tests.conftest import ROOT, TEST_REPOSITORY

DOCS = ROOT / "docs"


def english_pages() -> list[Path]:
    """Every English source page, relative to docs/."""
    return sorted(p.relative_to(DOCS) for p in DOCS.rglob("*.md") if not p.name.endswith(".zh.md"))


def built_path(page: Path, lang: str) -> Path:
    """Where mkdocs writes a source page (``use_directory_urls``), under the language's folder."""
    stem = page.with_suffix("")
    rel = stem.parent / "index.html" if stem.name == "index" else stem / "index.html"
    return (Path("zh") / rel) if lang == "zh" else rel


class Links(HTMLParser):
    """Collects what a page *loads* (scripts, styles, images, frames…) and its alternates."""

    LOADING_RELS: ClassVar = {
        "stylesheet",
        "icon",
        "preload",
        "modulepreload",
        "prefetch",
        "manifest",
    }
    CONNECT_RELS: ClassVar = {"preconnect", "dns-prefetch"}

    def __init__(self) -> None:
        super().__init__()
        self.loaded: list[str] = []
        self.alternates: dict[str, str] = {}
        self.html_lang: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.html_lang = a.get("lang")
        for name in ("src", "data", "poster"):
            if a.get(name):
                self.loaded.append(a[name])
        if a.get("srcset"):
            self.loaded.extend(part.split()[0] for part in a["srcset"].split(","))
        if tag == "link" and a.get("href"):
            rels = set((a.get("rel") or "").split())
            if rels & (self.LOADING_RELS | self.CONNECT_RELS):
                self.loaded.append(a["href"])
            if "alternate" in rels and a.get("hreflang"):
                self.alternates[a["hreflang"]] = a["href"]
        if a.get("style"):
            self.loaded.extend(re.findall(r"url\(\s*['\"]?([^'\")]+)", a["style"]))


def parse(html_file: Path) -> Links:
    links = Links()
    links.feed(html_file.read_text(encoding="utf-8"))
    return links


def is_other_host(url: str) -> bool:
    """True when loading ``url`` would contact a host other than the one serving the site."""
    parsed = urlparse(url.strip())
    return bool(parsed.netloc) or parsed.scheme in ("http", "https")


def test_both_languages_are_built(built_site):
    for page in english_pages():
        en, zh = built_site / built_path(page, "en"), built_site / built_path(page, "zh")
        assert en.is_file(), f"{page}: English page not built at {en}"
        assert zh.is_file(), f"{page}: Chinese page not built at {zh}"
        assert parse(en).html_lang == "en", en
        assert parse(zh).html_lang == "zh", zh
        assert re.search(r"[\u4e00-\u9fff]", zh.read_text(encoding="utf-8")), f"{zh} has no Chinese"


def test_every_page_has_its_twin():
    for page in english_pages():
        twin = DOCS / page.with_name(page.stem + ".zh.md")
        assert twin.is_file(), f"docs/{page} has no Chinese twin docs/{twin.relative_to(DOCS)}"
    for zh in DOCS.rglob("*.zh.md"):
        assert zh.with_name(zh.name.removesuffix(".zh.md") + ".md").is_file(), zh


def test_language_switch_keeps_the_page(built_site):
    for page in english_pages():
        for lang, other in (("en", "zh"), ("zh", "en")):
            here = built_path(page, lang)
            target = parse(built_site / here).alternates.get(other)
            assert target, f"{here}: no link to the {other} version"
            resolved = urlparse(urljoin(f"http://site/{here.as_posix()}", target)).path
            expected = "/" + built_path(page, other).as_posix()
            assert resolved in (expected, expected.removesuffix("index.html")), (
                f"{here}: the {other} switch goes to {resolved}, not to the same page {expected}"
            )


def test_no_asset_is_loaded_from_another_host(built_site):
    offenders = []
    for html_file in built_site.rglob("*.html"):
        offenders += [(html_file, u) for u in parse(html_file).loaded if is_other_host(u)]
    for css in built_site.rglob("*.css"):
        text = css.read_text(encoding="utf-8")
        urls = re.findall(r"url\(\s*['\"]?([^'\")]+)", text)
        urls += re.findall(r"@import\s+['\"]([^'\"]+)", text)
        offenders += [(css, u) for u in urls if is_other_host(u)]
    assert not offenders, "assets loaded from other hosts:\n" + "\n".join(
        f"{f.relative_to(built_site)}: {u}" for f, u in offenders
    )


def test_config_enables_no_feature_that_calls_a_third_party():
    """Material's JS contacts other hosts only for these settings, which the scan cannot see."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    assert config["theme"]["font"] == "false", "theme.font must be false (no Google Fonts)"
    assert "repo_url" not in config, "repo_url makes every page fetch facts from the host's API"
    assert "analytics" not in config.get("extra", {}), "no analytics"
    fences = json.dumps(config["markdown_extensions"])
    assert "mermaid" not in fences, "mermaid diagrams load their library from a CDN"


def tokens(text: str, separator: str) -> list[str]:
    """Split an indexed field as lunr does with material's ``separator``."""
    return [t for t in re.split(separator, text.lower()) if t]


def load_jieba_user_dict() -> None:
    """Segment as the build does: with the search plugin's ``jieba_dict_user``, if any."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and (plugin.get("search") or {}).get("jieba_dict_user"):
            jieba.load_userdict(str(ROOT / plugin["search"]["jieba_dict_user"]))


def test_search_finds_a_word_from_the_middle_of_a_title_in_both_languages(built_site):
    load_jieba_user_dict()
    for lang in ("en", "zh"):
        # One index per language (tools/site/search.py): the zh site searches zh/search/.
        folder = built_site / ("zh/search" if lang == "zh" else "search")
        index = json.loads((folder / "search_index.json").read_text(encoding="utf-8"))
        separator = index["config"]["separator"]
        assert re.split(separator, "a\u200bb") == ["a", "b"], "the separator must split on \\u200b"
        assert lang in index["config"]["lang"], f"{lang} is not among its index's languages"
        titles = {d["location"]: d["title"] for d in index["docs"] if "#" not in d["location"]}
        for page in english_pages():
            # Locations are relative to the language's own root (zh/ for Chinese).
            location = built_path(page, "en").parent.as_posix().removeprefix(".")
            location = f"{location}/" if location else ""
            assert location in titles, f"{lang} page {page} is not in the search index"
            title = re.sub(r"<[^>]+>", "", titles[location]).replace("\u200b", "")
            words = [w for w in jieba.cut(title) if re.match(r"\w", w)]
            middle = words[len(words) // 2].lower()
            # Material's search completes the word typed (a trailing wildcard): "runtime" finds
            # "runtime's".
            assert any(tok.startswith(middle) for tok in tokens(titles[location], separator)), (
                f"searching {middle!r} would not find the {lang} page {page} ({title!r})"
            )


#: What readers search for, per language; each query's best results must be prose.
COMMON_QUERIES = {
    "en": ["syncLoop", "pod worker", "PLEG", "CrashLoopBackOff", "grace period", "probe",
           "admission", "sandbox", "status manager", "image pull"],
    "zh": ["主循环", "pod worker", "PLEG", "重启退避", "宽限期", "探针", "准入", "沙箱",
           "状态管理器", "拉取镜像"],
}  # fmt: skip
#: Text only a side-by-side view has: its buttons and its hint (both languages).
VIEW_ONLY = ("Copy GoPython", "Full screen", "Point at a block", "复制 Go", "全屏", "指向一个")


def _score(doc: dict, words: list[str]) -> int:
    title, text = doc["title"].lower(), doc["text"].lower()
    return sum(10 * title.count(w) + text.count(w) for w in words)


def test_search_results_for_common_queries_are_prose_sections(built_site):
    load_jieba_user_dict()
    for lang, queries in COMMON_QUERIES.items():
        folder = built_site / ("zh/search" if lang == "zh" else "search")
        docs = json.loads((folder / "search_index.json").read_text(encoding="utf-8"))["docs"]
        views = [d["location"] for d in docs if any(v in d["text"] for v in VIEW_ONLY)]
        assert not views, f"{lang}: the index holds side-by-side views: {views[:5]}"
        for query in queries:
            words = [w.lower() for w in jieba.cut(query) if w.strip()]
            ranked = sorted(docs, key=lambda d: -_score(d, words))[:5]
            assert ranked and _score(ranked[0], words) > 0, f"{lang}: {query!r} finds nothing"
            for doc in ranked:
                # A view's lines come out as "702<code>…</code>": its line number, then the code.
                numbered = re.findall(r"\d+<code>", doc["text"])
                assert len(numbered) < 3, f"{lang}: {query!r} finds code lines in {doc['location']}"
                assert "<p>" in doc["text"] or doc["title"], f"{lang}: {query!r}: {doc['location']}"


class EditLink(HTMLParser):
    """The page's "edit this page" link (material's ``rel="edit"``)."""

    def __init__(self) -> None:
        super().__init__()
        self.href: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("rel") == "edit":
            self.href = a.get("href")


def test_every_page_links_to_its_own_source_for_editing(built_site):
    """Each page, in each language, opens its own file: ``x.md`` or ``x.zh.md``."""
    edit = f"{TEST_REPOSITORY}/edit/main/docs/"
    for page in english_pages():
        for lang in ("en", "zh"):
            finder = EditLink()
            finder.feed((built_site / built_path(page, lang)).read_text(encoding="utf-8"))
            source = page.with_suffix(".zh.md") if lang == "zh" else page
            assert finder.href == edit + source.as_posix(), f"{lang} {page}: {finder.href}"
            assert (DOCS / source).is_file()
