"""Running ``minikubelet`` for the pages: the real output of the exact command shown.

The CLI runs in-process (``minikubelet.sim.cli.main``) under its virtual clock and seed, so a run is
repeatable and takes a fraction of a second.  If the port's files changed since they were
imported (``mkdocs serve`` while editing), the command runs in a fresh interpreter instead, so
that a page never shows the output of stale code.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .directives import DirectiveError
from .render import render

PROMPT = "$ "


def port_fingerprint(root: Path) -> tuple:
    """Names, sizes and modification times of the port's files: changes when the port does."""
    out = []
    for path in sorted((root / "minikubelet").rglob("*.py")):
        st = path.stat()
        out.append((path.relative_to(root).as_posix(), st.st_size, st.st_mtime_ns))
    return tuple(out)


@contextlib.contextmanager
def working_directory(path: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


class Runner:
    """Runs ``minikubelet`` commands from the repository root, each once per port version."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache: dict[tuple, Result] = {}
        self.imported: tuple | None = None

    def _in_process(self, argv: list[str]) -> Result:
        from minikubelet.sim import cli

        out, err = io.StringIO(), io.StringIO()
        code: list[int] = []

        def main() -> None:
            try:
                code.append(cli.main(argv, out=out) or 0)
            except SystemExit as exc:  # argparse errors
                code.append(exc.code if isinstance(exc.code, int) else 2)

        with working_directory(self.root), contextlib.redirect_stderr(err):
            if _loop_running():
                # The port runs its own event loop; a thread has none running yet.
                thread = threading.Thread(target=main, name="minikubelet run")
                thread.start()
                thread.join()
            else:
                main()
        if not code:
            raise RuntimeError(f"minikubelet {' '.join(argv)} raised:\n{err.getvalue()}")
        return Result(code[0], out.getvalue(), err.getvalue())

    def _subprocess(self, argv: list[str]) -> Result:
        env = {**os.environ, "PYTHONPATH": str(self.root)}
        done = subprocess.run(
            [sys.executable, "-m", "minikubelet.sim.cli", *argv],
            cwd=self.root,
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            check=False,
        )
        return Result(done.returncode, done.stdout, done.stderr)

    def run(self, argv: list[str]) -> Result:
        """Run ``minikubelet <argv>``; the same arguments on the same port give the cached run."""
        fingerprint = port_fingerprint(self.root)
        key = (tuple(argv), fingerprint)
        if key not in self.cache:
            if self.imported is None:
                self.imported = fingerprint
            if fingerprint == self.imported:
                self.cache[key] = self._in_process(argv)
            else:
                self.cache[key] = self._subprocess(argv)
        return self.cache[key]


def fence_for(lines: list[str]) -> str:
    """Backticks enough to fence ``lines`` (longer than any run of backticks in them)."""
    longest = max((len(m) for line in lines for m in re.findall(r"`+", line)), default=0)
    return "`" * max(3, longest + 1)


def console_block(lines: list[str], lang: str = "console") -> str:
    return render("console.md.j2", fence=fence_for(lines), lang=lang, lines=lines)


def run_directive(
    runner: Runner,
    command: str,
    *,
    lang: str = "en",
    grep: str | None = None,
    head: int | None = None,
    tail: int | None = None,
) -> str:
    """The Markdown of a ``run`` directive: the command (as a pipeline) and its real output."""
    argv = shlex.split(command)
    if not argv or argv[0] != "minikubelet":
        raise DirectiveError(f"run: only minikubelet commands can be run, not {command!r}")
    args = argv[1:]
    if lang == "zh" and "--lang" not in args:
        args = [*args, "--lang", "zh"]
    result = runner.run(args)
    shown = shlex.join(["minikubelet", *args])
    if result.returncode != 0 or result.stderr.strip():
        raise DirectiveError(
            f"run: {shown!r} exited with {result.returncode}:\n{result.stderr.strip()}"
        )
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    if grep is not None:
        try:
            pattern = re.compile(grep)
        except re.error as exc:
            raise DirectiveError(f"run: bad grep pattern {grep!r}: {exc}") from None
        lines = [line for line in lines if pattern.search(line)]
        shown += f" | grep -E {shlex.quote(grep)}"
    if head is not None:
        lines = lines[: int(head)]
        shown += f" | head -n {int(head)}"
    if tail is not None:
        lines = lines[-int(tail) :] if int(tail) else []
        shown += f" | tail -n {int(tail)}"
    if not lines:
        raise DirectiveError(f"run: {shown!r} printed nothing: the page would show an empty run")
    return console_block([PROMPT + shown, *lines])
