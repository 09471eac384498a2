"""The chapters drive the site's navigation, the home page's list of chapters, the debugger
configurations and the exercise list.

The last test follows the contributor notes' recipe "add a chapter in one folder": a throw-away
chapter in a copy of the chapters appears in all four, its part in both languages.
"""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
import yaml

from tests.conftest import mkdocs_build
from tests.walkthrough.conftest import copy_chapters
from tools.site import nav
from tools.site.chapter_list import chapter_list
from tools.site.nav import NavError, chapter_pages, chapters_nav, fill_nav
from walkthrough.__main__ import main as walkthrough_main
from walkthrough.catalog import PACKAGE_DIR, CatalogError, Part, discover
from walkthrough.vscode import launch_json

ROOT = PACKAGE_DIR.parent
DOCS = ROOT / "docs"
PART_IV = {
    "number": 4,
    "title": {"en": "What syncPod waits for", "zh": "syncPod 在等什么"},
}


def write_yaml(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def add_chapter(root: Path, number: int, **meta) -> Path:
    """A chapter folder with a chapter.yaml (title in both languages, and ``meta``)."""
    folder = root / f"ch{number:02d}"
    title = {"en": f"Chapter {number} in English", "zh": f"第 {number} 章的中文标题"}
    write_yaml(folder / "chapter.yaml", {"title": title, **meta})
    return folder


def stub_pages(docs: Path, chapters) -> None:
    """A home page and one page per chapter, in both languages (headings only)."""
    docs.mkdir(parents=True, exist_ok=True)
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    (docs / "index.zh.md").write_text("# 首页\n", encoding="utf-8")
    for c in chapters:
        page = docs / "chapters" / f"{c.number:02d}-chapter-{c.number}.md"
        page.parent.mkdir(exist_ok=True)
        page.write_text(f"# Chapter {c.number}: {c.title['en']}\n", encoding="utf-8")
        page.with_suffix(".zh.md").write_text(f"# 第 {c.number} 章：{c.title['zh']}\n", "utf-8")


def test_the_site_lists_every_chapter_page_in_order() -> None:
    chapters = discover()
    pages = chapter_pages(DOCS, chapters)
    english = sorted(p.name for p in (DOCS / "chapters").glob("[0-9][0-9]-*.md"))
    assert sorted(pages.values()) == [f"chapters/{n}" for n in english if ".zh." not in n]
    entries = chapters_nav(chapters, pages, "en")
    flat = [e for e in entries if isinstance(e, str)]
    assert flat[:2] == ["chapters/01-big-picture.md", "chapters/02-sync-loop.md"]
    assert "chapters/12-from-v1-21-to-today.md" in flat


def test_a_part_groups_its_chapters_under_its_title_in_each_language(tmp_path: Path) -> None:
    root = tmp_path / "walkthrough"
    for n in (1, 2):
        add_chapter(root, n)
    for n in (3, 4):
        add_chapter(root, n, part=PART_IV)
    add_chapter(root, 5, part={**PART_IV, "number": 5})
    chapters = discover(root)
    stub_pages(tmp_path / "docs", chapters)
    pages = chapter_pages(tmp_path / "docs", chapters)
    assert chapters_nav(chapters, pages, "en") == [
        "chapters/01-chapter-1.md",
        "chapters/02-chapter-2.md",
        {
            "Part IV: What syncPod waits for": [
                "chapters/03-chapter-3.md",
                "chapters/04-chapter-4.md",
            ]
        },
        {"Part V: What syncPod waits for": ["chapters/05-chapter-5.md"]},
    ]
    assert chapters_nav(chapters, pages, "zh")[2] == {
        "第四部分：syncPod 在等什么": ["chapters/03-chapter-3.md", "chapters/04-chapter-4.md"]
    }
    config_nav = [{"Home": "index.md"}, {"Chapters": []}, {"Glossary": "glossary.md"}]
    fill_nav(config_nav, ["chapters/01-chapter-1.md"])
    assert config_nav[1] == {"Chapters": ["chapters/01-chapter-1.md"]}
    with pytest.raises(NavError, match="no section 'Chapters'"):
        fill_nav([{"Home": "index.md"}], [])


@pytest.mark.parametrize(
    ("parts", "error"),
    [
        ([PART_IV, None, PART_IV], "on both sides of another"),
        ([PART_IV, {**PART_IV, "title": {"en": "Other", "zh": "其他"}}], "title differs"),
        ([{**PART_IV, "number": 5}, PART_IV], "comes after a later part"),
        ([{**PART_IV, "number": 11}], "not between 1 and 10"),
        ([{"title": PART_IV["title"]}], "number: the part's number"),
        ([{**PART_IV, "title": {"en": "No Chinese"}}], "needs an English (en) and a Chinese"),
    ],
)
def test_a_part_that_cannot_be_shown_is_refused(tmp_path: Path, parts, error: str) -> None:
    for n, part in enumerate(parts, 13):
        add_chapter(tmp_path, n, **({} if part is None else {"part": part}))
    with pytest.raises(CatalogError, match=re.escape(error)):
        discover(tmp_path)


@pytest.mark.parametrize(
    ("meta", "example", "error"),
    [
        ({"exercise": ["x"]}, False, "unknown key 'exercise'"),
        ({}, True, "example: shows: the lines ch13/example.py prints"),
        ({"example": {"shows": ["a line"]}}, False, "there is no ch13/example.py"),
        ({"example": {"shows": []}}, True, "shows: a list of lines it prints"),
        ({"example": ["a line"]}, True, "a mapping with shows"),
        ({"summary": {"en": "No Chinese"}}, False, "summary: needs an English (en) and a Chinese"),
    ],
)
def test_a_chapter_yaml_that_says_too_little_or_too_much_is_refused(
    tmp_path: Path, meta: dict, example: bool, error: str
) -> None:
    folder = add_chapter(tmp_path, 13, **meta)
    if example:
        (folder / "example.py").write_text("")
    with pytest.raises(CatalogError, match=re.escape(error)) as refused:
        discover(tmp_path)
    assert "ch13/chapter.yaml" in str(refused.value)


def test_a_page_and_a_chapter_must_find_each_other(tmp_path: Path) -> None:
    root = tmp_path / "walkthrough"
    chapters = [discover(add_chapter(root, 1).parent)[0]]
    stub_pages(tmp_path / "docs", chapters)
    extra = tmp_path / "docs" / "chapters" / "02-stray.md"
    extra.write_text("# Stray\n")
    with pytest.raises(NavError, match=r"02-stray\.md: no walkthrough/ch02/chapter\.yaml"):
        chapter_pages(tmp_path / "docs", chapters)
    extra.rename(extra.with_name("01-twin.md"))
    with pytest.raises(NavError, match="one page a chapter"):
        chapter_pages(tmp_path / "docs", chapters)
    (tmp_path / "docs" / "chapters" / "01-twin.md").unlink()


def test_a_chapter_whose_pages_are_not_written_yet_is_left_out(tmp_path: Path) -> None:
    root = tmp_path / "walkthrough"
    add_chapter(root, 12)
    for n in (13, 14, 15):
        add_chapter(root, n, part=PART_IV)
    chapters = discover(root)
    stub_pages(tmp_path / "docs", [c for c in chapters if c.number in (12, 15)])
    pages = chapter_pages(tmp_path / "docs", chapters)
    assert chapters_nav(chapters, pages, "en") == [
        "chapters/12-chapter-12.md",
        {"Part IV: What syncPod waits for": ["chapters/15-chapter-15.md"]},
    ]
    stub_pages(tmp_path / "docs", [c for c in chapters if c.number == 12])
    (tmp_path / "docs" / "chapters" / "15-chapter-15.md").unlink()
    (tmp_path / "docs" / "chapters" / "15-chapter-15.zh.md").unlink()
    pages = chapter_pages(tmp_path / "docs", chapters)
    assert chapters_nav(chapters, pages, "zh") == ["chapters/12-chapter-12.md"]  # no empty part


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_home_page_lists_every_chapter_page_with_its_summary(lang: str) -> None:
    """docs/index.md's path is the chapters' list: each page, in order, under its heading."""
    suffix = "" if lang == "en" else f".{lang}"
    assert "{{ chapters() }}" in (DOCS / f"index{suffix}.md").read_text(encoding="utf-8")
    chapters = discover()
    pages = chapter_pages(DOCS, chapters)
    listed = chapter_list(DOCS, chapters, lang)
    items = re.findall(r"^- \*\*\[(.+?)\]\((chapters/[^)]+)\)\*\*(.*)$", listed, re.M)
    assert [page for _, page, _ in items] == [
        pages[c.number] for c in chapters if c.number in pages
    ]
    for (heading, page, rest), chapter in zip(
        items, [c for c in chapters if c.number in pages], strict=True
    ):
        text = (DOCS / page.replace(".md", f"{suffix}.md")).read_text(encoding="utf-8")
        assert text.startswith(f"# {heading}\n")
        assert chapter.summary is not None, f"{chapter.slug}: chapter.yaml has no summary"
        assert rest == ("：" if lang == "zh" else ": ") + chapter.summary[lang]
    part_iv = (
        "**第四部分：syncPod 在等什么**" if lang == "zh" else "**Part IV: What syncPod waits for**"
    )
    assert listed.index("chapters/12-") < listed.index(part_iv) < listed.index("chapters/14-")


def test_part_labels_read_naturally() -> None:
    part = Part(number=4, title=PART_IV["title"])
    assert part.label("en") == "Part IV: What syncPod waits for"
    assert part.label("zh") == "第四部分：syncPod 在等什么"


MKDOCS_YML = """\
site_name: throw-away
docs_dir: docs
theme:
  name: material
  language: en
  font: false
plugins:
  - i18n:
      docs_structure: suffix
      fallback_to_default: false
      reconfigure_material: true
      languages:
        - locale: en
          name: English
          default: true
          build: true
        - locale: zh
          name: 中文
          build: true
          nav_translations:
            Chapters: 章节
nav:
  - Home: index.md
  - Chapters: []
hooks:
  - {hook}
"""


def test_a_new_chapter_is_one_folder_plus_its_pages(tmp_path: Path) -> None:
    """The recipe of the contributor notes, on a copy: folder, chapter.yaml, pages; nothing else."""
    ws = copy_chapters(tmp_path)
    # The throw-away chapter 13 opens part IV and takes ch03's sync-tick exercise (moved, so that
    # exercise names stay unique), with an example that the debugger can run.
    folder = add_chapter(
        ws.root,
        13,
        part=PART_IV,
        example={"shows": ["a line"]},
        exercises=["sync-tick"],
    )
    shutil.move(ws.root / "ch03" / "exercises" / "sync-tick", folder / "exercises" / "sync-tick")
    ch03 = yaml.safe_load((ws.root / "ch03" / "chapter.yaml").read_text())
    ch03["exercises"].remove("sync-tick")
    write_yaml(ws.root / "ch03" / "chapter.yaml", ch03)
    (folder / "example.py").write_text('"""Chapter 13\'s example."""\n')
    chapters = discover(ws.root)
    stub_pages(tmp_path / "docs", chapters)

    # The exercise list.
    out = io.StringIO()
    code = walkthrough_main(["list", "--lang", "en"], out, ws)
    listed = out.getvalue()
    assert code == 0
    assert listed.index("ch13  Chapter 13 in English") < listed.index("· sync-tick")
    assert "ch12" not in listed  # no exercises (yet): not in the list

    # The debugger configurations.
    assert '"program": "${workspaceFolder}/walkthrough/ch13/example.py"' in launch_json(chapters)
    assert "walkthrough/ch12/" not in launch_json(chapters)

    # The home page's list: the new chapter under its part, its heading alone (no summary).
    listed = chapter_list(tmp_path / "docs", chapters, "zh")
    assert listed.index("chapters/12-chapter-12.md") < listed.index(
        "**第四部分：syncPod 在等什么**"
    )
    assert "- **[第 13 章：第 13 章的中文标题](chapters/13-chapter-13.md)**\n" in listed

    # The site's navigation, in both languages: a real build with the hook.
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML.format(hook=Path(nav.__file__).resolve()))
    built = mkdocs_build(tmp_path, tmp_path / "site")
    assert built.returncode == 0, built.stderr
    home = {
        lang: (tmp_path / "site" / prefix / "index.html").read_text(encoding="utf-8")
        for lang, prefix in (("en", ""), ("zh", "zh"))
    }
    assert "Part IV: What syncPod waits for" in home["en"]
    assert "第四部分：syncPod 在等什么" in home["zh"] and "章节" in home["zh"]
    for lang in ("en", "zh"):
        assert 'href="chapters/13-chapter-13/"' in home[lang]
        assert home[lang].index("chapters/12-chapter-12/") < home[lang].index("chapters/13-")
