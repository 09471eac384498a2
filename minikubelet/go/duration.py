"""Durations written as Go writes them: ``300ms``, ``1.5s``, ``2m30s``.

Go: package ``time`` (``time.ParseDuration``, ``time.Duration.String``). A duration here is a
float number of seconds (see [`minikubelet.go.clock`][minikubelet.go.clock]).
"""

from __future__ import annotations

import re

_UNITS = {
    "ns": 1e-9,
    "us": 1e-6,
    "µs": 1e-6,
    "μs": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "m": 60.0,
    "h": 3600.0,
}
_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)")


def parse_duration(text: str) -> float:
    """Seconds in a Go duration string. Go: ``time.ParseDuration``.

    ``"0"`` is allowed without a unit, as in Go; anything else needs one per number. Raises
    ValueError naming the text, with Go's wording (``time: invalid duration "5x"``).
    """
    s = text.strip()
    sign = 1.0
    if s[:1] in "+-" and s:
        sign = -1.0 if s[0] == "-" else 1.0
        s = s[1:]
    if s == "0":
        return 0.0
    if not s:
        raise ValueError(f'time: invalid duration "{text}"')
    total = 0.0
    pos = 0
    while pos < len(s):
        m = _PART.match(s, pos)
        if m is None:
            if re.match(r"\d+(?:\.\d*)?$", s[pos:]):
                raise ValueError(f'time: missing unit in duration "{text}"')
            raise ValueError(f'time: invalid duration "{text}"')
        total += float(m.group(1)) * _UNITS[m.group(2)]
        pos = m.end()
    return sign * total


def format_duration(d: float) -> str:
    """A duration as Go prints it: ``1m30s``, ``1.5s``, ``300ms``. Go: ``time.Duration.String``."""
    # Go's durations are whole nanoseconds: a float difference of times 1e-16 short of 1 s
    # is 1 s.
    d = round(d * 1e9) / 1e9
    if d == 0:
        return "0s"
    sign = "-" if d < 0 else ""
    d = abs(d)
    if d < 1:
        for unit, size in (("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
            if d >= size:
                return f"{sign}{_trim(d / size)}{unit}"
    hours, rest = divmod(d, 3600)
    minutes, seconds = divmod(rest, 60)
    out = sign
    if hours:
        out += f"{int(hours)}h"
    if hours or minutes:
        out += f"{int(minutes)}m"
    return out + f"{_trim(seconds)}s"


def _trim(x: float) -> str:
    text = f"{x:.9f}".rstrip("0").rstrip(".")
    return text or "0"
