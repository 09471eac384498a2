"""``{{ oracle() }}``: what real kubelet v1.21.4 made of a chapter's scenarios, and the port.

At build time the port runs every scenario of tests/oracle/scenarios/ tagged with the chapter, at
each level it has steps for (the runtime level, the Kubelet level), and is judged against its
golden trace (tools.oracle.compare), so the page says what the goldens say now: matched, matched
with named accepted differences, or differs, with the count at each level. On a page outside
docs/chapters/, every scenario is listed. The verdicts are made once per build process.
"""

from __future__ import annotations

from functools import cache

from tools.oracle.compare import LEVELS, RULES, Verdict, scenario_names, verdict

from .directives import DirectiveError
from .exercises import CHAPTER_PAGE
from .render import render


@cache
def _verdicts() -> tuple[Verdict, ...]:
    return tuple(verdict(name, level) for level in LEVELS for name in scenario_names(level))


def oracle_directive(page_src: str, lang: str, chapter: int | None = None) -> str:
    """The Markdown of the replay of `chapter` (default: the page's own; off a chapter: all)."""
    if chapter is None:
        found = CHAPTER_PAGE.search(page_src.removesuffix(".md").removesuffix(".zh") + ".md")
        chapter = int(found.group(1)) if found else None
    try:
        every = _verdicts()
    except (OSError, ValueError) as exc:
        raise DirectiveError(f"oracle: the scenarios or goldens cannot be read: {exc}") from None
    verdicts = [v for v in every if chapter is None or chapter in v.chapters]
    used = {name for v in verdicts for name in v.rules}
    rules = {r.name: (r.reason_zh if lang == "zh" else r.reason) for r in RULES if r.name in used}
    link = "../" * page_src.count("/") + "oracle.md"
    counts = {
        level: (
            sum(1 for v in verdicts if v.level == level),
            sum(1 for v in verdicts if v.level == level and v.differing),
        )
        for level in LEVELS
    }
    return (
        render("oracle.md.j2", verdicts=verdicts, rules=rules, lang=lang, link=link, counts=counts)
        + "\n"
    )
