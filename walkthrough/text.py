"""Text for a terminal: wrapping English and Chinese, widths, paths as the learner sees them."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
import unicodedata
from pathlib import Path


def columns(s: str) -> int:
    """Columns ``s`` takes in a terminal (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


#: A word of Latin text, a run of spaces, or one CJK character (Chinese may break anywhere).
_TOKEN = re.compile(r"[^\s\u2e80-\uffef]+|\s+|[\u2e80-\uffef]")
#: Chinese punctuation that never starts a line: it stays with the character before it.
_NO_LINE_START = set("，。、：；！？）》」』”’…—")


def wrap(message: str, width: int = 92, indent: str = "    ") -> list[str]:
    """``message`` as lines of at most ``width`` columns; lines that start indented stay."""
    lines: list[str] = []
    for paragraph in message.splitlines():
        if paragraph.startswith(" ") or columns(indent + paragraph) <= width:
            lines.append((indent + paragraph).rstrip())
            continue
        current = ""
        for token in _TOKEN.findall(paragraph):
            too_wide = columns(indent + current + token.rstrip()) > width
            if current and too_wide and token not in _NO_LINE_START:
                lines.append(indent + current.rstrip())
                current = "" if token.isspace() else token
            else:
                current += token
        if current.strip():
            lines.append(indent + current.rstrip())
    return lines


def display_path(path: Path | str) -> str:
    """``path`` relative to the current folder when it is below it, else absolute."""
    try:
        resolved = Path(path).resolve()
        return os.path.relpath(resolved) if resolved.is_relative_to(Path.cwd()) else str(path)
    except (ValueError, OSError):
        return str(path)


def reader_has_gone(err: OSError) -> bool:
    """Whether ``err`` says the reader of our output has gone (``… | head`` closed the pipe, or
    the terminal of a ``watch`` hung up): then stdout is pointed at /dev/null, so that Python's
    flush at exit does not print "Exception ignored … BrokenPipeError", and the command may end
    quietly. Any other error is not ours to hide."""
    if not isinstance(err, BrokenPipeError) and err.errno != errno.EIO:
        return False
    with contextlib.suppress(OSError):
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    return True
