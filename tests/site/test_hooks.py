"""The mkdocs hook: strict source mode, optional pages, assets, and the alternates' sitemaps."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from tests.conftest import ROOT, mkdocs_build
from tools.site import hooks


def test_mkdocs_yml_names_the_hook_and_the_jieba_dictionary():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    assert config["hooks"] == ["tools/site/hooks.py", "tools/site/nav.py"]
    search = next(p["search"] for p in config["plugins"] if isinstance(p, dict) and "search" in p)
    assert (ROOT / search["jieba_dict_user"]).is_file()


def test_require_source_without_a_source_fails_the_build(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("K8S_SRC", "K8S_SRC_VERSION")}
    env.update(
        MINIKUBELET_REQUIRE_SOURCE="1",
        XREF_CACHE_DIR=str(tmp_path / "empty-cache"),
    )
    done = mkdocs_build(ROOT, tmp_path / "s", env)
    assert done.returncode != 0
    assert "MINIKUBELET_REQUIRE_SOURCE=1 but there is no Go source" in done.stderr
    assert not (tmp_path / "s" / "index.html").exists()


def test_assets_are_local_files_of_the_site():
    names = {p.name for p in hooks.ASSETS.iterdir()}
    linked = {Path(u).name for u in hooks.CSS + hooks.JS}
    assert {"sidebyside.css", "sidebyside.js", "diagrams.css"} <= names
    assert linked <= names, "a page links an asset that is not there"
    for path in hooks.ASSETS.iterdir():
        text = path.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text, path
        assert "@import" not in text and "fetch(" not in text, path


def _page(path: Path, *alternates: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    links = "".join(f'<link rel="alternate" href="{a}" hreflang="x">' for a in alternates)
    path.write_text(f"<html><head>{links}</head><body></body></html>", encoding="utf-8")


@pytest.mark.parametrize("site_url", [None, "https://example.org/minikubelet/"])
def test_every_alternate_gets_a_sitemap(tmp_path, site_url):
    base = "/minikubelet" if site_url else ""
    _page(tmp_path / "index.html", f"{base}/", f"{base}/zh/")
    _page(tmp_path / "zh" / "index.html", f"{base}/", f"{base}/zh/")
    _page(tmp_path / "a" / "index.html", "./", "../zh/a/", "https://elsewhere.org/")
    _page(tmp_path / "zh" / "a" / "index.html", "../../a/", "./", "../../../../etc/")
    (tmp_path / "sitemap.xml").write_text("the real one")
    hooks.on_post_build(SimpleNamespace(site_dir=str(tmp_path), site_url=site_url, plugins={}))
    made = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("sitemap.xml"))
    assert made == ["a/sitemap.xml", "sitemap.xml", "zh/a/sitemap.xml", "zh/sitemap.xml"]
    assert (tmp_path / "sitemap.xml").read_text() == "the real one"
    assert "<urlset" in (tmp_path / "zh" / "sitemap.xml").read_text()


@pytest.mark.parametrize("site_url", [None, "https://example.github.io/minikubelet/"])
def test_language_links_work_under_any_sub_path(site_url):
    config = SimpleNamespace(site_url=site_url)
    base = "/minikubelet" if site_url else ""
    page = (
        f'<link rel="alternate" href="{base}/" hreflang="en">'
        f'<a href="{base}/zh/chapters/01-big-picture/" hreflang="zh" class="md-select__link">'
    )
    out = hooks._relative_alternates(page, "chapters/01-big-picture/", config)
    assert 'href="../../" hreflang="en"' in out
    assert 'href="../../zh/chapters/01-big-picture/" hreflang="zh"' in out
    home = hooks._relative_alternates(page.replace("chapters/01-big-picture/", ""), "", config)
    assert 'href="./" hreflang="en"' in home and 'href="zh/" hreflang="zh"' in home
    # A 404 page is served at any depth: its links go to each language's home.
    lost = hooks._404_alternates(page, config)
    assert f'href="{base}/" hreflang="en"' in lost and f'href="{base}/zh/" hreflang="zh"' in lost


def test_no_sitemap_of_none_urls_without_a_site_url(tmp_path):
    (tmp_path / "zh").mkdir()
    for folder in (tmp_path, tmp_path / "zh"):
        (folder / "sitemap.xml").write_text("<urlset><url><loc>None</loc></url></urlset>")
        (folder / "sitemap.xml.gz").write_bytes(b"gz")
    hooks._no_sitemap_without_a_site_url(tmp_path)
    for folder in (tmp_path, tmp_path / "zh"):
        assert "None" not in (folder / "sitemap.xml").read_text()
        assert not (folder / "sitemap.xml.gz").exists()
