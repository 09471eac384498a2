"""Chinese Markdown is not hard-wrapped: a line break inside a paragraph renders as a space, and
a space between two Chinese characters is a typo a reader sees.

`stray_spaces` finds a space typed after full-width punctuation, which carries its own.
`stray_breaks` finds the line breaks between two Chinese characters (or full-width punctuation)
inside one paragraph, list item or admonition body; `unwrap` joins every paragraph onto one line
(no space between two Chinese characters, one space where Latin text meets a line break).
Code blocks, tables, headings, directives, HTML and the options of ``:::`` blocks are left as
they are.
"""

from __future__ import annotations

import re

# Chinese characters and punctuation (the curly quotes and dashes Chinese text uses included).
CJK = re.compile(
    r"[\u2014\u2018\u2019\u201c\u201d\u2026\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff"
    r"\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]"
)
EMPHASIS = "*_~"  # Markdown marks around text: what matters is the character inside them
# Full-width punctuation carries its own space: none is added after these or before those.
CLOSING = "，。：；！？、）」』》】”’…"
OPENING = "（「『《【“‘"
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
# A line that starts a block of its own (after its indentation): it never continues the line
# above, and only the marker lines of lists and blockquotes may be continued.
STARTS_BLOCK = re.compile(
    r"^(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|\||!!!|\?\?\?|\{\{|<|>|:::|\*\[|\[\^|---|===|:\s)"
)
NO_CONTINUATION = re.compile(r"^(?:#{1,6}\s|\||!!!|\?\?\?|\{\{|<|:::|\*\[|---|===)")


def _pairs(text: str):
    """(index of line A, index of line B) for each line B that continues line A's paragraph."""
    lines = text.split("\n")
    fence: str | None = None
    verbatim = False  # the indented options under a ':::' line, up to a blank line
    front = lines[0].strip() == "---"
    for i, line in enumerate(lines):
        stripped = line.strip()
        if front:
            front = not (i > 0 and stripped == "---")
            continue
        opened = FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1).startswith(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)[0] * 3
            continue
        if not stripped:
            verbatim = False
            continue
        if stripped.startswith(":::"):
            verbatim = True
        if verbatim or i == 0:
            continue
        above = lines[i - 1].strip()
        if not above or FENCE.match(lines[i - 1]) or NO_CONTINUATION.match(above):
            continue
        if STARTS_BLOCK.match(stripped) or line.endswith("  ") or above.endswith("\\"):
            continue
        yield i - 1, i


def _chinese_on_both_sides(before: str, after: str) -> bool:
    last = before.rstrip().rstrip(EMPHASIS)[-1:]
    first = after.strip().lstrip(EMPHASIS)[:1]
    return bool(CJK.match(last or " ") and CJK.match(first or " "))


def stray_breaks(text: str) -> list[int]:
    """1-based numbers of the lines that end a Chinese character the next line continues."""
    lines = text.split("\n")
    return [a + 1 for a, b in _pairs(text) if _chinese_on_both_sides(lines[a], lines[b])]


# A space after full-width punctuation (not before a table's "|" or a heading's "{#anchor}").
SPACE_AFTER = re.compile(r"[，。：；！？、（] +(?=[^|{\s])")


def stray_spaces(text: str) -> list[int]:
    """1-based numbers of the lines with a space after full-width punctuation (outside code)."""
    found = []
    fence: str | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        opened = FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1).startswith(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)[0] * 3
            continue
        if SPACE_AFTER.search(re.sub(r"`[^`]*`", "``", line)):
            found.append(number)
    return found


def unwrap(text: str) -> str:
    """`text` with each paragraph on one line (see the module docstring)."""
    lines = text.split("\n")
    joined = {b: a for a, b in _pairs(text)}
    out: list[str] = []
    for i, line in enumerate(lines):
        if i in joined:
            prev, nxt = out[-1].rstrip(), line.strip()
            tight = (
                _chinese_on_both_sides(prev, nxt)
                or prev.rstrip(EMPHASIS)[-1:] in CLOSING
                or nxt.lstrip(EMPHASIS)[:1] in OPENING
            )
            out[-1] = prev + ("" if tight else " ") + nxt
        else:
            out.append(line)
    return "\n".join(out)
