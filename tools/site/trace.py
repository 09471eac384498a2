"""The ``trace`` directive: record a run of the port at build time and play it on the page.

``{{ trace("minikubelet run …", id="seed-0", kinds=[…], within=[…], focus=[…], start="1s",
end="5s", limit=400, channels=[…], grep="SyncLoop") }}`` records the command
(`tools.trace.record`, once per version of the port), keeps the steps the options ask for
(`tools.trace.player.Options`), and puts a player on the page.  Its data (`tools.trace.player`,
in the page's language) is a script of its own beside the page, ``trace-<id>.js``, which the
player loads when it first comes near the screen, is used, or a deep link names it: a chapter's
first load does not carry its traces (``bench/bench_page_weight.py``).  A script, not a
``fetch``: it loads from the site's own folder, offline and from ``file://`` too.  The build
fails when the data passes 200 KB.  Under each player, the two commands that show the same run
in a terminal (``--trace`` then ``minikubelet trace show``, `terminal`).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from minikubelet.sim.trace.replay import KINDS
from tools.trace import TraceError, record
from tools.trace.player import Options, build
from tools.xref import Index

from .directives import Directive, DirectiveError
from .render import render
from .runner import port_fingerprint

OPTIONS = {"id", "kinds", "within", "focus", "start", "end", "limit", "channels", "grep"}
ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
#: A player's data must stay small: the build fails above this (bytes of JSON).
MAX_BYTES = 200_000


def _seconds(value: Any, name: str) -> float:
    from minikubelet.go.duration import parse_duration

    try:
        return float(value) if isinstance(value, int | float) else parse_duration(str(value))
    except ValueError as exc:
        raise DirectiveError(f"{name}: {exc}") from None


def options(d: Directive) -> Options:
    """The player options of a directive (errors name the bad option)."""
    unknown = set(d.kwargs) - OPTIONS
    if unknown:
        raise DirectiveError(f"unknown options {sorted(unknown)} (known: {sorted(OPTIONS)})")
    opts = Options()
    if "kinds" in d.kwargs:
        kinds = tuple(d.kwargs["kinds"])
        bad = [k for k in kinds if k not in KINDS]
        if bad:
            raise DirectiveError(f"kinds: unknown {bad} (known: {list(KINDS)})")
        opts.kinds = kinds
    if "within" in d.kwargs:
        opts.within = tuple(d.kwargs["within"])
    if "focus" in d.kwargs:
        opts.focus = tuple(d.kwargs["focus"])
    if "channels" in d.kwargs:
        opts.channels = tuple(d.kwargs["channels"])
    if "start" in d.kwargs:
        opts.start = _seconds(d.kwargs["start"], "start")
    if "end" in d.kwargs:
        opts.end = _seconds(d.kwargs["end"], "end")
    if "limit" in d.kwargs:
        opts.limit = int(d.kwargs["limit"])
    if "grep" in d.kwargs:
        try:
            re.compile(d.kwargs["grep"])
        except re.error as exc:
            raise DirectiveError(f"grep: bad regular expression: {exc}") from None
        opts.grep = d.kwargs["grep"]
    return opts


def terminal(command: str, d: Directive) -> list[str]:
    """The two commands that show this run in a terminal: the run, recording its trace, and
    ``minikubelet trace show`` with the directive's kinds and times (its ``within``, ``focus``
    and ``grep`` have no flag there: the terminal shows more of the run)."""
    show = "minikubelet trace show trace.json"
    if "kinds" in d.kwargs:
        show += " --kind " + ",".join(d.kwargs["kinds"])
    for option, flag in (("start", "--since"), ("end", "--until")):
        if option in d.kwargs:
            show += f" {flag} {d.kwargs[option]}"
    return [f"{command} --trace trace.json", show]


class Traces:
    """Records traces, each command once per version of the port, and renders their players."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache: dict[tuple, dict[str, Any]] = {}
        self.imported: tuple | None = None

    def recorded(self, command: str, index: Index) -> dict[str, Any]:
        fingerprint = port_fingerprint(self.root)
        key = (command, fingerprint, index.mode)
        if key not in self.cache:
            if self.imported is None:
                self.imported = fingerprint
            try:
                if fingerprint == self.imported:
                    self.cache[key] = record(command, root=self.root, index=index)
                else:  # the port changed since it was imported (mkdocs serve): a fresh one
                    self.cache[key] = self._subprocess(command)
            except TraceError as exc:
                raise DirectiveError(str(exc)) from None
        return self.cache[key]

    def _subprocess(self, command: str) -> dict[str, Any]:
        env = {**os.environ, "PYTHONPATH": str(self.root)}
        done = subprocess.run(
            [sys.executable, "-m", "tools.trace", command],
            cwd=self.root,
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
            check=False,
        )
        if done.returncode != 0:
            raise TraceError(done.stderr.strip() or f"{command!r} failed")
        return json.loads(done.stdout)

    def directive(
        self, d: Directive, *, number: int, lang: str, index: Index
    ) -> tuple[str, str, bytes]:
        """One player (``number``: its place on the page): its HTML, and the name and content
        of its data's script, which goes beside the page."""
        if len(d.args) != 1 or not isinstance(d.args[0], str):
            raise DirectiveError('trace("minikubelet run …", id=…, kinds=[…], within=[…], …)')
        opts = options(d)
        trace_id = str(d.kwargs.get("id") or f"{number}")
        if not ID.match(trace_id):
            raise DirectiveError(f"id {trace_id!r}: use lower-case letters, digits and dashes")
        trace = self.recorded(d.args[0], index)
        player = build(trace, index, self.root, lang=lang, trace_id=trace_id, options=opts)
        if not player["steps"]:
            raise DirectiveError(f"{d.args[0]!r}: no step is left after the options")
        data = json.dumps(player, ensure_ascii=False, separators=(",", ":")).encode()
        if len(data) > MAX_BYTES:
            raise DirectiveError(
                f"the player's data is {len(data):,} bytes (at most {MAX_BYTES:,}): "
                "narrow it with kinds=, within=, start=/end= or limit="
            )
        script = data_script(trace_id, data)
        html = render(
            "trace.html.j2",
            terminal=terminal(trace["command"], d),
            id=trace_id,
            lang=lang,
            src=script_name(trace_id),
            command=trace["command"],
            steps=len(player["steps"]),
            total=player["total"],
            mode=player["mode"],
        )
        # Python-Markdown ends a raw HTML block at a blank line: there must be none.
        return "\n" + re.sub(r"\n\s*\n", "\n", html) + "\n", script_name(trace_id), script


def script_name(trace_id: str) -> str:
    """The file, beside the page, of the player ``trace_id``'s data."""
    return f"trace-{trace_id}.js"


def data_script(trace_id: str, data: bytes) -> bytes:
    """The player's data as a script that hands it to the player (assets/trace.js)."""
    # JSON is a JavaScript expression; \u2028 and \u2029 are escaped for older engines.
    text = data.decode().replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"window.mklTrace({json.dumps(trace_id)},{text});\n".encode()
