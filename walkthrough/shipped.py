"""The shipped exercise file is made from the reference solution: one source, no git needed.

An exercise's ``solution.py`` is the complete code, with two kinds of marker comments:

* ``# SOLUTION BEGIN`` … ``# SOLUTION END``: these lines (markers included) are the learner's
  work; they are left out of the exercise;
* ``# exercise: TEXT``: a line that only the exercise has, as ``TEXT`` at the same indentation
  (a ``# TODO`` comment telling what to write, or a stub such as ``pass`` that keeps the file
  valid Python). In the solution it is a comment.

``exercise.py`` as committed is exactly :func:`shipped_text` of the solution (a test checks it),
and ``python -m walkthrough reset`` writes it again from the solution.
"""

from __future__ import annotations

BEGIN = "# SOLUTION BEGIN"
END = "# SOLUTION END"
EXERCISE = "# exercise:"


class MarkerError(ValueError):
    """A solution whose markers do not pair up."""


def shipped_text(solution: str, name: str = "solution.py") -> str:
    """The exercise file as shipped, made from the text of its solution."""
    out: list[str] = []
    inside: int | None = None
    for number, line in enumerate(solution.splitlines(keepends=True), start=1):
        stripped = line.strip()
        if stripped.startswith(BEGIN):
            if inside is not None:
                raise MarkerError(f"{name}:{number}: {BEGIN} inside the region opened on {inside}")
            inside = number
            continue
        if stripped.startswith(END):
            if inside is None:
                raise MarkerError(f"{name}:{number}: {END} without {BEGIN}")
            inside = None
            continue
        if inside is not None:
            continue
        if stripped.startswith(EXERCISE):
            indent = line[: len(line) - len(line.lstrip())]
            rest = stripped[len(EXERCISE) :]
            rest = rest[1:] if rest.startswith(" ") else rest
            out.append(f"{indent}{rest}\n" if rest else "\n")
            continue
        out.append(line)
    if inside is not None:
        raise MarkerError(f"{name}:{inside}: {BEGIN} never ends")
    return "".join(out)
