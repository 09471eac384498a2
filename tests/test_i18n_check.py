"""tools.i18n: the bilingual checker finds missing, misshapen and outdated translations."""

import subprocess
import sys

from tests.conftest import ROOT
from tools import i18n
from tools.i18n.typography import stray_spaces

EN = """# Title

## Get it running

```bash
make test
```

!!! note "Careful"
    text
"""

ZH = """# 标题

## 跑起来 {#get-it-running}

```bash
make test
```

!!! note "小心"
    文字
"""


def write(folder, name, text):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def run_check(folder):
    return subprocess.run(
        [sys.executable, "-m", "tools.i18n", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_matching_twins_pass(tmp_path):
    write(tmp_path, "page.md", EN)
    write(tmp_path, "page.zh.md", ZH)
    assert i18n.check(tmp_path) == ([], [])
    assert run_check(tmp_path).returncode == 0


def test_missing_twin_is_named(tmp_path):
    write(tmp_path, "page.md", EN)
    write(tmp_path, "alone.zh.md", ZH)
    result = run_check(tmp_path)
    assert result.returncode == 1
    assert "page.md: no translation, expected page.zh.md" in result.stderr
    assert "alone.zh.md: no translation, expected alone.md" in result.stderr


def test_heading_anchor_must_match(tmp_path):
    write(tmp_path, "page.md", EN)
    write(tmp_path, "page.zh.md", ZH.replace(" {#get-it-running}", ""))
    errors, _ = i18n.check(tmp_path)
    assert len(errors) == 1
    assert "h2 anchor differs: #get-it-running (en)" in errors[0]
    assert "{#get-it-running}" in errors[0]


def test_code_blocks_headings_and_admonitions_must_match(tmp_path):
    write(tmp_path, "page.md", EN)
    broken = ZH.replace("```bash", "```python").replace("!!! note", "!!! warning")
    write(tmp_path, "page.zh.md", broken + "\n### 多出来的标题 {#extra}\n")
    errors = "\n".join(i18n.check(tmp_path)[0])
    assert "code blocks differ: ['bash'] (en) vs ['python'] (zh)" in errors
    assert "admonitions differ: ['note'] (en) vs ['warning'] (zh)" in errors
    assert "heading levels differ: [1, 2] (en) vs [1, 2, 3] (zh)" in errors


def test_headings_inside_code_blocks_are_not_headings():
    shape = i18n.shape_of("# T\n\n```bash\n# a shell comment\n```\n")
    assert shape.heading_levels == [1]
    assert shape.code_blocks == ["bash"]


def test_translation_committed_before_its_source_is_outdated(tmp_path):
    def git(*args, when):
        env = {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=tmp_path,
            check=True,
            capture_output=True,
            env={**env, "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        )

    git("init", "-q", when="2026-01-01T00:00:00")
    write(tmp_path, "page.md", EN)
    write(tmp_path, "page.zh.md", ZH)
    git("add", ".", when="2026-01-01T00:00:00")
    git("commit", "-qm", "both", when="2026-01-01T00:00:00")
    assert i18n.check(tmp_path) == ([], [])

    write(tmp_path, "page.md", EN + "\nMore English.\n")
    git("commit", "-qam", "English only", when="2026-01-02T00:00:00")
    errors, outdated = i18n.check(tmp_path)
    assert errors == []
    assert outdated == [f"{tmp_path}/page.zh.md: outdated, page.md was committed after it"]
    result = subprocess.run(
        [sys.executable, "-m", "tools.i18n", str(tmp_path), "--fail-outdated"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "outdated" in result.stderr


def test_the_project_docs_pass():
    result = run_check(ROOT / "docs")
    assert result.returncode == 0, result.stderr


WRAPPED = """---
search:
  boost: 0.2
---

# 标题

这是一段被硬换行的中文，换行落在两个汉字
之间，渲染出来就多了一个空格。**粗体
之后**也算。引号“也
算”。Latin words at the end
继续也好。

- 列表项的文字
  接着写。

??? question "问题"
    回答的正文
    接着写。

| 表头 | 第二列 |
|---|---|
| 单元格 | 内容 |

```bash
# 代码块里的
# 换行不动
```

{{ run("minikubelet run") }}

::: minikubelet
    options:
      show_submodules: true
"""


def test_a_line_break_between_chinese_characters_is_found_and_unwrapped(tmp_path):
    from tools.i18n.typography import stray_breaks, unwrap

    assert stray_breaks(WRAPPED) == [8, 9, 10, 14, 18]
    flat = unwrap(WRAPPED)
    assert stray_breaks(flat) == []
    assert "落在两个汉字之间，渲染出来就多了一个空格。**粗体之后**也算。引号“也算”。" in flat
    assert "Latin words at the end 继续也好。" in flat
    assert "- 列表项的文字接着写。" in flat
    assert '??? question "问题"\n    回答的正文接着写。' in flat
    for kept in ("| 单元格 | 内容 |", "# 代码块里的\n# 换行不动", "    options:\n      show_sub"):
        assert kept in flat, kept
    assert flat.startswith("---\nsearch:\n  boost: 0.2\n---\n")
    assert unwrap(flat) == flat


def test_the_check_fails_on_a_hard_wrapped_chinese_page(tmp_path):
    write(tmp_path, "page.md", EN)
    write(
        tmp_path,
        "page.zh.md",
        ZH.replace("跑起来 {#get-it-running}", "跑起来 {#get-it-running}\n\n第一行\n第二行"),
    )
    result = run_check(tmp_path)
    assert result.returncode == 1
    assert "page.zh.md:5: a line break between two Chinese characters renders as a space" in (
        result.stderr
    )
    fixed = subprocess.run(
        [sys.executable, "-m", "tools.i18n", "--unwrap", str(tmp_path / "page.zh.md")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert fixed.returncode == 0 and "unwrapped" in fixed.stdout
    assert "第一行第二行" in (tmp_path / "page.zh.md").read_text(encoding="utf-8")
    assert run_check(tmp_path).returncode == 0


def test_a_space_after_full_width_punctuation_is_found_outside_code() -> None:
    text = "\n".join(
        [
            "改了清单， UID 也变了。",  # 1: stray
            "| 一 | 二 |",  # a table's cell border
            "### 为什么？ {#why}",  # a heading's anchor
            "运行 `a， b` 就行。",  # inside code
            "```",
            "一， 二",  # a code block
            "```",
            "退避：100、 200 毫秒",  # 8: stray
        ]
    )
    assert stray_spaces(text) == [1, 8]
