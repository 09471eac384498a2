"""Every debugger recipe the pages print runs as printed: where it stops, what each ``p`` prints.

A page prints recipes three ways: a spot's text (``--break NAME``, then the commands in
backticks; the Debugging page's table and ``--breakpoints`` print it), a ``{{ pdb(…) }}``
session, and commands in the prose. The prose may only repeat a command one of the first two
runs, on the same page's chapter or anywhere in the book.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from tools.site.breakpoints import locate
from tools.site.directives import find
from tools.site.recipes import (
    PROMPT,
    errors,
    example_module,
    expand_spots,
    pdb_commands,
    run_session,
    spot_location,
)
from walkthrough.catalog import PACKAGE_DIR, discover

ROOT = PACKAGE_DIR.parent
EXAMPLES = [c.slug for c in discover() if c.example is not None]
PAGES = sorted(
    [p for p in (ROOT / "docs").rglob("*.md")]
    + [p for p in PACKAGE_DIR.rglob("README*.md")]
    + [ROOT / "README.md", ROOT / "README.zh.md"]
)
STOP = re.compile(r"^> (.+?)\((\d+)\)(<?\w+>?)\(\)(?:->.*)?$")
#: Moves that stay in the function they start from (``n`` over a line, ``r`` to its return).
STAYS = {"n", "next", "r", "return"}
#: Commands whose arguments a page could get wrong (``n`` or ``r`` alone cannot be).
WITH_ARGUMENTS = {"p", "pp", "condition", "break", "b", "until"}
FENCED = re.compile(r"^(`{3,}|~{3,}).*?^\1", re.MULTILINE | re.DOTALL)

SPOTS = [
    (chapter, spot)
    for chapter in EXAMPLES
    for spot in example_module(f"walkthrough/{chapter}/example.py").SPOTS
]


def _stops(lines: list[str]) -> list[tuple[str, int, str]]:
    found = []
    for line in lines:
        m = STOP.match(line)
        if m:
            found.append((m.group(1), int(m.group(2)), m.group(3)))
    return found


def _break(chapter: str, name: str, commands: list[str]) -> list[tuple[str, list[str]]]:
    """``python walkthrough/chNN/example.py --break NAME``, typing ``commands``: (command, output)."""
    done = subprocess.run(
        [sys.executable, f"walkthrough/{chapter}/example.py", "--break", name, "-v", "0"],
        input="\n".join([*commands, "quit"]) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "MINIKUBELET_LANG": "en"},
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    chunks = done.stdout.split(PROMPT)
    assert len(chunks) == len(commands) + 2, (commands, done.stdout[-2000:])
    return list(zip(["", *commands, "quit"], [c.splitlines() for c in chunks], strict=True))


@pytest.mark.parametrize(("chapter", "spot"), SPOTS, ids=[f"{c}-{s.name}" for c, s in SPOTS])
def test_each_spot_recipe_runs_as_printed(chapter: str, spot) -> None:
    commands = pdb_commands(spot.en)
    assert commands == pdb_commands(spot.zh), "the two languages print other commands"
    steps = _break(chapter, spot.name, commands)
    file, line = spot.location()
    first = _stops(steps[0][1])
    assert first and first[0][:2] == (file, line), f"{spot.name} stops at {first}, not {line}"
    where = first[0][2]
    for command, output in steps[1:]:
        bad = [row for row in output if row.startswith(("***", "Traceback"))]
        assert not bad, f"{chapter} {spot.name}: {command!r} printed {bad}"
        stops = _stops(output)
        word = command.split()[0] if command else ""
        if word in STAYS:
            assert stops and stops[-1][2] == where, f"{command!r} left {where} for {stops}"
        if stops:
            where = stops[-1][2]


def _sessions() -> list[tuple[str, object]]:
    found = []
    for page in PAGES:
        for d in find(page.read_text(encoding="utf-8")):
            if d.name == "pdb":
                found.append((page.relative_to(ROOT).as_posix(), d))
    return found


SESSIONS = _sessions()


@cache
def _run(script: str, commands: tuple[str, ...], args: str):
    return run_session(ROOT, script, list(commands), args.split())


@pytest.mark.parametrize(("page", "d"), SESSIONS, ids=[f"{p}:{d.line}" for p, d in SESSIONS])
def test_each_pdb_session_on_each_page_runs(page: str, d) -> None:
    script, *targets = d.args
    breaks = []
    for target in targets:
        path, line = locate(ROOT, target) if "." in target else spot_location(ROOT, script, target)
        breaks.append((f"break {path}:{line}", path, line))
    then = [expand_spots(ROOT, script, c) for c in d.kwargs.get("then", [])]
    steps = _run(script, (*(b for b, _, _ in breaks), "continue", *then), d.kwargs.get("args", ""))
    assert not errors(steps), errors(steps)
    stop = _stops(steps[len(breaks) + 1].output)
    lines = {(f"/…/{path}", line) for _, path, line in breaks}
    assert stop and stop[0][:2] in lines, f"{page}: the first continue stops at {stop}"


def _tested_commands() -> set[str]:
    tested = {c for _, spot in SPOTS for c in pdb_commands(spot.en)}
    for _, d in SESSIONS:
        tested.update(d.kwargs.get("then", []))
    return tested


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_printed_pdb_command_is_a_tested_recipe(page: Path) -> None:
    prose = FENCED.sub("", page.read_text(encoding="utf-8"))
    tested = _tested_commands()
    untested = [
        c
        for c in pdb_commands(prose)
        if " " in c and c.split()[0] in WITH_ARGUMENTS and c not in tested
    ]
    assert not untested, f"{page.name} prints pdb commands no recipe runs: {untested}"


def test_spot_texts_mark_their_commands() -> None:
    """A spot's text that mentions pdb commands puts them in backticks (that is what runs)."""
    bare = re.compile(r"(?:^|[:;,，；：]\s*)(?:p|n|r|c) [a-z_\[(]")
    for _, spot in SPOTS:
        for text in (spot.en, spot.zh):
            stripped = re.sub(r"`[^`]*`", "", text)
            assert not bare.search(stripped), f"{spot.name}: commands outside backticks: {text}"
