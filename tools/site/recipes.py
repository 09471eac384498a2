"""Debugger recipes for the pages, computed from the code and run as printed.

A recipe is what a page tells the reader to type into pdb. Two kinds are printed:

- a chapter example's spots (``walkthrough/chNN/example.py``, ``SPOTS``): ``--break NAME`` stops
  there, and the spot's text names, in backticks, the commands to type next;
- a ``{{ pdb(script, target, …, then=[…]) }}`` session: the breakpoints (line numbers read from the
  source now), then the commands of ``then``, shown with what pdb really prints, because the
  session is run when the page is built.

``tests/site/test_recipes.py`` runs every one of them, on every page, in both languages.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .directives import DirectiveError
from .render import render
from .runner import port_fingerprint

#: The first word of a pdb command a page may print (in backticks) as a recipe.
_PDB_COMMANDS = (
    "p pp n next s step r return c cont continue w where u up d down "
    "condition break b disable enable until unt"
)
PDB_WORDS = frozenset(_PDB_COMMANDS.split())
CODE_SPAN = re.compile(r"`([^`\n]+)`")
SCRIPT = re.compile(r"^walkthrough/(ch\d\d)/example\.py$")
PROMPT = "(Pdb) "
#: A spot named in a ``then`` command: ``break {config-add}``.
SPOT_REF = re.compile(r"\{([a-z][a-z0-9-]*)\}")


def pdb_commands(text: str) -> list[str]:
    """The pdb commands a text prints in backticks, in order (``p x``, ``n``, ``condition …``)."""
    found = []
    for span in CODE_SPAN.findall(text):
        word = span.split(maxsplit=1)[0] if span.strip() else ""
        if word in PDB_WORDS:
            found.append(span.strip())
    return found


def example_module(script: str) -> Any:
    """``walkthrough/ch03/example.py`` → its module (for its ``SPOTS``)."""
    match = SCRIPT.match(script)
    if match is None:
        raise DirectiveError(f"pdb: {script!r} is not a walkthrough/chNN/example.py")
    return importlib.import_module(f"walkthrough.{match.group(1)}.example")


def spot_location(root: Path, script: str, name: str) -> tuple[str, int]:
    """(file relative to ``root``, line) of the spot ``name`` of ``script``'s example."""
    spots = {s.name: s for s in example_module(script).SPOTS}
    if name not in spots:
        raise DirectiveError(f"pdb: {script} has no spot {name!r} (it has {', '.join(spots)})")
    file, line = spots[name].location()
    return Path(file).resolve().relative_to(root.resolve()).as_posix(), line


def expand_spots(root: Path, script: str, command: str) -> str:
    """``break {config-add}`` → ``break minikubelet/kubelet.py:439``."""

    def one(m: re.Match) -> str:
        path, line = spot_location(root, script, m.group(1))
        return f"{path}:{line}"

    return SPOT_REF.sub(one, command)


@dataclass
class Step:
    """One command typed at the ``(Pdb)`` prompt and what pdb printed after it."""

    command: str
    output: list[str]


def run_session(root: Path, script: str, commands: list[str], args: list[str]) -> list[Step]:
    """Run ``python -m pdb script args`` from ``root``, typing ``commands``, then ``quit``.

    The first step is pdb's first stop (its command is empty). Paths under ``root`` are shown
    as ``/…/``, as the page prints them.
    """
    env = {**os.environ, "PYTHONPATH": str(root), "MINIKUBELET_LANG": "en"}
    done = subprocess.run(
        [sys.executable, "-m", "pdb", script, *args],
        input="\n".join([*commands, "quit"]) + "\n",
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
        timeout=300,
        check=False,
    )
    chunks = done.stdout.replace(str(root.resolve()) + "/", "/…/").split(PROMPT)
    typed = ["", *commands, "quit"]
    steps = []
    for command, chunk in zip(typed, chunks, strict=False):
        steps.append(Step(command, [line.rstrip() for line in chunk.splitlines()]))
    if done.returncode != 0 or len(chunks) < len(typed):
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        raise DirectiveError(
            f"pdb: {script} {' '.join(args)} ended after {len(chunks) - 1} of "
            f"{len(typed) - 1} commands (exit {done.returncode}): {tail}"
        )
    return steps


def errors(steps: list[Step]) -> list[str]:
    """What in a session is not what a recipe may print: pdb's errors, tracebacks."""
    bad = []
    for step in steps:
        for line in step.output:
            if line.startswith("***") or line.startswith("Traceback"):
                bad.append(f"{step.command!r}: {line}")
    return bad


def session_block(root: Path, script: str, commands: list[str], args: list[str]) -> list[str]:
    """The lines of a run session as a page shows them, from the first breakpoint on."""
    return _session_block(root, script, tuple(commands), tuple(args), port_fingerprint(root))


@cache
def _session_block(
    root: Path, script: str, commands: tuple[str, ...], args: tuple[str, ...], _port: tuple
) -> list[str]:
    steps = run_session(root, script, list(commands), list(args))
    bad = errors(steps)
    if bad:
        raise DirectiveError(f"pdb: the session prints errors: {'; '.join(bad)}")
    lines = []
    for step in steps[1:-1]:  # not pdb's stop on the script's first line, not the quit
        lines.append(PROMPT + step.command)
        lines.extend(line for line in step.output if line)
    return lines


def spots_table(lang: str) -> str:
    """Every chapter example's spots, where they are now and what to type there."""
    from walkthrough.catalog import PACKAGE_DIR, discover

    rows = []
    for chapter in discover():
        if chapter.example is None:
            continue
        module = importlib.import_module(f"walkthrough.{chapter.slug}.example")
        for spot in module.SPOTS:
            file, line = spot.location()
            relative = Path(file).resolve().relative_to(PACKAGE_DIR.parent.resolve()).as_posix()
            qualname = spot.target.partition(":")[2]
            rows.append(
                (
                    chapter.number,
                    spot.name,
                    f"`{qualname}`<br>`{relative}:{line}`",
                    spot.zh if lang == "zh" else spot.en,
                )
            )
    return render("spots.md.j2", rows=rows, lang=lang) + "\n"
