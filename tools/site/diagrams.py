"""Diagrams: Graphviz sources we write, rendered to SVG that is committed beside the pages.

``python -m tools.site.diagrams`` renders every ``docs/diagrams/<name>.<lang>.dot`` (one source
per language, ``en`` and ``zh``) with Graphviz's ``dot`` into
``docs/assets/diagrams/<name>.<lang>.svg``.  ``--check`` renders nothing and fails (exit 1) when
an SVG is missing, was rendered from another version of its source, or has no source any more.
It needs no Graphviz: each SVG carries the sha256 of the source it was rendered from.

Why committed SVG: the site then needs no Graphviz to build and loads no diagram library (every
diagram is a static file of the site; no request leaves it).  Why a hash rather than comparing a
fresh rendering byte for byte: the text widths Graphviz computes depend on the fonts of the
machine that renders, so two correct renderings may differ; the hash says what matters, that the
picture shows the source as it is now.

What the tool adds to every source: the font family ``sans-serif`` for graphs, nodes and edges
(a source may still set its own), and a check that the SVG loads nothing (no ``<image>``, no
link: an SVG shown with ``<img>`` could not follow one anyway).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "docs" / "diagrams"
OUTPUT = ROOT / "docs" / "assets" / "diagrams"
LANGUAGES = ("en", "zh")
SOURCE_NAME = re.compile(r"^(?P<name>[a-z0-9][a-z0-9-]*)\.(?P<lang>[a-z]{2})\.dot$")
STAMP = re.compile(r"<!-- minikubelet diagram: (?P<src>\S+) sha256=(?P<sha>[0-9a-f]{64}) ")
DEFAULTS = ["-Gfontname=sans-serif", "-Nfontname=sans-serif", "-Efontname=sans-serif"]
TIMEOUT = 60  # seconds for one rendering; dot takes well under one for our graphs
# What an SVG shown in a page must not contain: anything that loads or links.
LOADS = re.compile(r"<image\b|<a\b|\b(?:xlink:)?href\s*=|@import|url\(", re.IGNORECASE)


class DiagramError(Exception):
    """A diagram cannot be rendered or checked; the message names the file and says why."""


@dataclass(frozen=True)
class Diagram:
    """One source and the SVG it renders to."""

    source: Path
    svg: Path


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def find(sources: Path = SOURCES, output: Path = OUTPUT) -> tuple[list[Diagram], list[str]]:
    """Every diagram source and its SVG; the problems of the sources' names (one per line)."""
    diagrams, problems = [], []
    langs: dict[str, set[str]] = {}
    for path in sorted(sources.glob("*.dot")) if sources.is_dir() else []:
        match = SOURCE_NAME.match(path.name)
        if not match or match["lang"] not in LANGUAGES:
            problems.append(
                f"{path}: a diagram source is named <name>.en.dot or <name>.zh.dot "
                "(lower-case letters, digits and '-')"
            )
            continue
        langs.setdefault(match["name"], set()).add(match["lang"])
        diagrams.append(Diagram(path, output / f"{match['name']}.{match['lang']}.svg"))
    for name, have in sorted(langs.items()):
        for lang in LANGUAGES:
            if lang not in have:
                problems.append(
                    f"{sources / f'{name}.{lang}.dot'}: missing (every diagram has both)"
                )
    return diagrams, problems


def dot_command() -> str:
    """The ``dot`` program (``$DOT`` or the one on PATH)."""
    dot = shutil.which(os.environ.get("DOT") or "dot")
    if dot is None:
        raise DiagramError(
            "Graphviz is not installed (no 'dot' on PATH): 'make diagrams' installs Debian's "
            "graphviz, or run 'apt-get install graphviz'"
        )
    return dot


def render(diagram: Diagram, root: Path = ROOT) -> str:
    """The SVG text of one diagram, stamped with its source's hash; `DiagramError` on failure."""
    src = _rel(diagram.source, root)
    try:
        result = subprocess.run(
            [dot_command(), "-Tsvg", *DEFAULTS, str(diagram.source)],
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise DiagramError(f"{src}: dot took more than {TIMEOUT} s; nothing written") from None
    except OSError as exc:
        raise DiagramError(f"{src}: cannot run dot: {exc}") from None
    errors = result.stderr.decode("utf-8", "replace").strip()
    if result.returncode != 0 or not result.stdout:
        raise DiagramError(f"{src}: dot failed: {errors or f'exit {result.returncode}'}")
    svg = result.stdout.decode("utf-8")
    found = LOADS.search(svg)
    if found:
        raise DiagramError(
            f"{src}: the SVG would contain {found.group(0)!r}: a diagram links to nothing and "
            "loads nothing (no URL, href or image attribute)"
        )
    # The generator comment names Graphviz's version: drop it, so that the file changes only
    # when the picture does.
    svg = re.sub(r"<!-- Generated by graphviz[^>]*-->\n?", "", svg)
    stamp = (
        f"<!-- minikubelet diagram: {src} sha256={sha256(diagram.source)} "
        "(rendered by python -m tools.site.diagrams; edit the source, not this file) -->\n"
    )
    head, _, rest = svg.partition("<svg")
    return head + stamp + "<svg" + rest


def current(diagram: Diagram, root: Path = ROOT) -> bool:
    """Whether the SVG was rendered from the source as it is now (its stamp says so)."""
    if not diagram.svg.is_file():
        return False
    stamp = STAMP.search(diagram.svg.read_text(encoding="utf-8", errors="replace"))
    return (
        stamp is not None
        and stamp["src"] == _rel(diagram.source, root)
        and stamp["sha"] == sha256(diagram.source)
    )


def write_all(diagrams: list[Diagram], root: Path = ROOT, force: bool = False) -> list[Path]:
    """Render every diagram whose SVG is not current (every one with `force`), then write them
    (all or none); the SVGs written.  A current SVG is left alone: another machine's fonts would
    change its text widths, not what it shows."""
    rendered = [(d, render(d, root)) for d in diagrams if force or not current(d, root)]
    changed = []
    for d, svg in rendered:
        if d.svg.exists() and d.svg.read_text(encoding="utf-8") == svg:
            continue
        d.svg.parent.mkdir(parents=True, exist_ok=True)
        tmp = d.svg.with_name(d.svg.name + ".tmp")
        tmp.write_text(svg, encoding="utf-8")
        os.replace(tmp, d.svg)
        changed.append(d.svg)
    return changed


def stale(diagrams: list[Diagram], output: Path = OUTPUT, root: Path = ROOT) -> list[str]:
    """What is not current: missing SVGs, SVGs of another source version, SVGs without source."""
    problems = []
    wanted = set()
    for d in diagrams:
        wanted.add(d.svg.name)
        svg, src = _rel(d.svg, root), _rel(d.source, root)
        if not d.svg.is_file():
            problems.append(f"{svg}: missing; render {src} with 'python -m tools.site.diagrams'")
            continue
        stamp = STAMP.search(d.svg.read_text(encoding="utf-8", errors="replace"))
        if stamp is None or stamp["src"] != src:
            problems.append(f"{svg}: not rendered from {src} by python -m tools.site.diagrams")
        elif stamp["sha"] != sha256(d.source):
            problems.append(
                f"{svg}: out of date, {src} changed since it was rendered; run "
                "'python -m tools.site.diagrams'"
            )
    for orphan in sorted(output.glob("*.svg")) if output.is_dir() else []:
        if orphan.name not in wanted:
            problems.append(f"{_rel(orphan, root)}: no source in docs/diagrams/; delete it")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tools.site.diagrams",
        description="Render docs/diagrams/<name>.<lang>.dot to docs/assets/diagrams/*.svg.",
    )
    ap.add_argument(
        "--check", action="store_true", help="fail if an SVG is missing, stale or orphaned"
    )
    ap.add_argument("--force", action="store_true", help="render even the current SVGs again")
    args = ap.parse_args(argv)
    diagrams, problems = find(SOURCES, OUTPUT)
    if args.check:
        problems += stale(diagrams, OUTPUT, ROOT)
        for line in problems:
            print(f"diagrams: {line}", file=sys.stderr)
        if not problems:
            print(f"diagrams: {len(diagrams)} SVGs, each current with its source")
        return 1 if problems else 0
    if problems:
        for line in problems:
            print(f"diagrams: {line}", file=sys.stderr)
        return 1
    try:
        changed = write_all(diagrams, ROOT, force=args.force)
    except DiagramError as exc:
        print(f"diagrams: {exc}", file=sys.stderr)
        return 1
    for path in changed:
        print(f"diagrams: wrote {_rel(path, ROOT)}")
    print(f"diagrams: {len(diagrams)} diagrams, {len(changed)} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
