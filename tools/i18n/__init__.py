"""Check that every docs page exists in English and 中文 with the same shape.

``python -m tools.i18n docs`` fails (exit 1) when a page lacks its twin (``x.md`` ↔ ``x.zh.md``),
or when the twins differ in their headings (levels and anchors), in their explicit anchors, in
their fenced code blocks (count and language) or in their admonitions. Headings of level 2 and
below must resolve to the same anchor in both languages, so a Chinese heading carries the English
heading's anchor explicitly: ``## 跑起来 {#get-it-running}``.

A Chinese page must not be hard-wrapped between two Chinese characters: the line break renders
as a space (`tools.i18n.typography`; ``python -m tools.i18n --unwrap FILE…`` joins each
paragraph onto one line).

A translation is reported as *outdated* (a warning; an error with ``--fail-outdated``) when git
says its English source was committed after it.
"""

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from markdown.extensions.toc import slugify

from .typography import stray_breaks, stray_spaces, unwrap

ZH_SUFFIX = ".zh.md"
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
ATTR_ID = re.compile(r"\{[^}]*#([\w-]+)[^}]*\}\s*$")
ANCHOR = re.compile(r"\{[^}]*#([\w-]+)[^}]*\}")
ADMONITION = re.compile(r"^\s*(!!!|\?\?\?\+?)\s+(\w+)")


@dataclass
class Shape:
    """What must be the same in both languages of one page."""

    headings: list[tuple[int, str]] = field(default_factory=list)  # (level, anchor) for level ≥ 2
    heading_levels: list[int] = field(default_factory=list)
    anchors: list[str] = field(default_factory=list)
    code_blocks: list[str] = field(default_factory=list)  # language of each fenced block
    admonitions: list[str] = field(default_factory=list)  # kind of each admonition


def heading_anchor(title: str) -> str:
    """The anchor Python-Markdown's ``toc`` gives a heading: its ``{#id}`` or its slug."""
    explicit = ATTR_ID.search(title)
    if explicit:
        return explicit.group(1)
    return slugify(re.sub(r"`", "", title), "-")


def shape_of(text: str) -> Shape:
    """Read the headings, anchors, code blocks and admonitions of one Markdown page."""
    shape = Shape()
    fence: str | None = None
    for line in text.splitlines():
        match = FENCE.match(line)
        if fence is not None:
            if match and match.group(2).startswith(fence) and not match.group(3):
                fence = None
            continue
        if match:
            fence = match.group(2)
            shape.code_blocks.append(match.group(3) or "text")
            continue
        heading = HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            shape.heading_levels.append(level)
            if level >= 2:
                shape.headings.append((level, heading_anchor(heading.group(2))))
            continue
        admonition = ADMONITION.match(line)
        if admonition:
            shape.admonitions.append(admonition.group(2))
        shape.anchors.extend(ANCHOR.findall(line))
    return shape


def twin_of(path: Path) -> Path:
    """``x.md`` ↔ ``x.zh.md``."""
    name = path.name
    if name.endswith(ZH_SUFFIX):
        return path.with_name(name[: -len(ZH_SUFFIX)] + ".md")
    return path.with_name(name[: -len(".md")] + ZH_SUFFIX)


def compare(en: Path, zh: Path) -> list[str]:
    """The differences in shape between an English page and its Chinese twin."""
    a = shape_of(en.read_text(encoding="utf-8"))
    b = shape_of(zh.read_text(encoding="utf-8"))
    problems = []
    if a.heading_levels != b.heading_levels:
        problems.append(
            f"heading levels differ: {a.heading_levels} (en) vs {b.heading_levels} (zh)"
        )
    for (level, anchor_en), (_, anchor_zh) in zip(a.headings, b.headings, strict=False):
        if anchor_en != anchor_zh:
            problems.append(
                f"h{level} anchor differs: #{anchor_en} (en) vs #{anchor_zh} (zh); "
                f"give the Chinese heading {{#{anchor_en}}}"
            )
    if sorted(a.anchors) != sorted(b.anchors):
        problems.append(f"explicit anchors differ: {sorted(a.anchors)} vs {sorted(b.anchors)}")
    if a.code_blocks != b.code_blocks:
        problems.append(f"code blocks differ: {a.code_blocks} (en) vs {b.code_blocks} (zh)")
    if a.admonitions != b.admonitions:
        problems.append(f"admonitions differ: {a.admonitions} (en) vs {b.admonitions} (zh)")
    return problems


def last_commit_time(path: Path) -> int | None:
    """Seconds since the epoch of the last commit touching ``path``; None outside git."""
    try:
        out = subprocess.run(
            ["git", "log", "-1", "--format=%ct", "--", path.name],
            cwd=path.parent,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    except OSError:
        return None
    return int(out) if out else None


def check(docs: Path) -> tuple[list[str], list[str]]:
    """Check a docs tree; return (errors, outdated warnings), each a line naming the file."""
    errors: list[str] = []
    outdated: list[str] = []
    for page in sorted(docs.rglob("*.md")):
        if "includes" in page.relative_to(docs).parts:
            continue
        twin = twin_of(page)
        rel = page.relative_to(docs)
        if not twin.exists():
            errors.append(f"{docs / rel}: no translation, expected {twin.relative_to(docs)}")
            continue
        if page.name.endswith(ZH_SUFFIX):
            for line in stray_spaces(page.read_text(encoding="utf-8")):
                errors.append(
                    f"{docs / rel}:{line}: a space after full-width punctuation (，。：；！？、（ "
                    "carry their own): remove it"
                )
            for line in stray_breaks(page.read_text(encoding="utf-8")):
                errors.append(
                    f"{docs / rel}:{line}: a line break between two Chinese characters renders "
                    "as a space: put the paragraph on one line (python -m tools.i18n --unwrap "
                    f"{docs / rel})"
                )
            continue
        errors.extend(f"{docs / rel} ↔ {twin.name}: {p}" for p in compare(page, twin))
        en_time, zh_time = last_commit_time(page), last_commit_time(twin)
        if en_time is not None and zh_time is not None and en_time > zh_time:
            outdated.append(
                f"{docs / twin.relative_to(docs)}: outdated, {rel} was committed after it"
            )
    return errors, outdated


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m tools.i18n DOCS_DIR [--fail-outdated]``."""
    parser = argparse.ArgumentParser(prog="python -m tools.i18n", description=__doc__)
    parser.add_argument("docs", type=Path, nargs="?", default=Path("docs"))
    parser.add_argument("--fail-outdated", action="store_true")
    parser.add_argument(
        "--unwrap",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="rewrite these Chinese pages with each paragraph on one line, then exit",
    )
    args = parser.parse_args(argv)
    if args.unwrap:
        for path in args.unwrap:
            text = path.read_text(encoding="utf-8")
            if unwrap(text) != text:
                path.write_text(unwrap(text), encoding="utf-8")
                print(f"tools.i18n: unwrapped {path}")
        return 0
    if not args.docs.is_dir():
        print(f"tools.i18n: {args.docs}: not a directory", file=sys.stderr)
        return 2
    errors, outdated = check(args.docs)
    for line in errors:
        print(f"error: {line}", file=sys.stderr)
    for line in outdated:
        print(f"warning: {line}", file=sys.stderr)
    if errors or (outdated and args.fail_outdated):
        return 1
    pages = len([p for p in args.docs.rglob("*.md") if not p.name.endswith(ZH_SUFFIX)])
    print(f"tools.i18n: {pages} pages, each in English and 中文, same shape")
    return 0
