"""The lock file: facts about the Go source, committed so that link-only builds link correctly.

It holds **facts only**, never Go code: for each Go file the port maps, its path, sha256, git
blob id, line count and the hashes of its comment units (`tools.xref.comments`); for each
mapped symbol, its path, name, kind, 1-based line range, the sha256 of its text, the header
text and lines of its select/switch cases, and the lines of the statements the port's ``# Go:
<statement>`` anchors name (short strings that the port's comments repeat anyway: the lock
records the anchor's text, not the Go statement) or, for a struct, of the fields the port links
(by their names).  Every entry says
which release it was read from (``read_from``): entries read from another release than the tag
(v1.21.4 while v1.21.3 is not at hand) are re-checked by the deploy build, which reads the tag
and fails on drift.  Written by ``python -m tools.xref lock``; never edited by hand.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from .comments import UNITS_FORMAT, GoUnits
from .go_index import GoCase, GoStmt
from .paths import TAG, UPSTREAM_REPO

LOCK_FORMAT = 1


class LockError(Exception):
    """The lock file cannot be read."""


@dataclass
class LockFile:
    path: str
    sha256: str
    git_blob: str
    lines: int
    read_from: str
    # hashes of the file's comment units (`tools.xref.comments`); None when the lock has none
    comments: GoUnits | None = None


@dataclass
class LockSymbol:
    path: str
    symbol: str
    kind: str
    start: int
    end: int
    sha256: str
    read_from: str
    cases: tuple[GoCase, ...] = ()
    # the statements the port's ``# Go: <statement>`` anchors name; a struct's linked fields
    blocks: tuple[GoStmt, ...] = ()


@dataclass
class Lock:
    tag: str = TAG
    files: dict[str, LockFile] = field(default_factory=dict)
    symbols: dict[tuple[str, str], LockSymbol] = field(default_factory=dict)

    def expected_hashes(self, version: str) -> dict[str, str]:
        """sha256 of the files read from `version` itself: a download of it must match."""
        return {p: f.sha256 for p, f in self.files.items() if f.read_from == version}

    def known_blobs(self) -> dict[str, tuple[str, str]]:
        """path → (git blob id, the release it was read from): what a fetched file is verified
        by, whichever release the lock was read from (``K8S-SOURCE.md``: v1.21.4's ids)."""
        return {p: (f.git_blob, f.read_from) for p, f in self.files.items() if f.git_blob}

    def paths(self) -> set[str]:
        return set(self.files) | {p for p, _ in self.symbols}

    def to_json(self) -> dict:
        return {
            "comment": (
                f"Facts about {UPSTREAM_REPO} at {self.tag} (paths, line ranges, hashes, "
                "symbol names, case headers), never its code. Written by "
                "'python -m tools.xref lock'; do not edit. read_from says which release each "
                "fact was read from."
            ),
            "format": LOCK_FORMAT,
            "comments_format": UNITS_FORMAT,
            "repo": UPSTREAM_REPO,
            "tag": self.tag,
            "files": [
                {
                    "path": f.path,
                    "sha256": f.sha256,
                    "git_blob": f.git_blob,
                    "lines": f.lines,
                    "read_from": f.read_from,
                    **({"comment_units": f.comments.to_json()} if f.comments else {}),
                }
                for f in sorted(self.files.values(), key=lambda f: f.path)
            ],
            "symbols": [
                _symbol_json(s)
                for s in sorted(self.symbols.values(), key=lambda s: (s.path, s.start, s.symbol))
            ],
        }


def _symbol_json(s: LockSymbol) -> dict:
    out = {
        "path": s.path,
        "symbol": s.symbol,
        "kind": s.kind,
        "start": s.start,
        "end": s.end,
        "sha256": s.sha256,
        "read_from": s.read_from,
        "cases": [
            {"case": c.header, "kind": c.kind, "start": c.start, "end": c.end} for c in s.cases
        ],
    }
    if s.blocks:  # only where the port anchors statements or links fields
        out["blocks"] = [
            {"anchor": b.text, "lead": b.lead, "start": b.start, "end": b.end} for b in s.blocks
        ]
    return out


def load_lock(path: Path) -> Lock | None:
    """The lock at `path`, None when there is none; `LockError` when it is malformed."""
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise LockError(f"{path}: cannot read the lock file: {exc}") from exc
    try:
        if data["format"] != LOCK_FORMAT:
            raise LockError(f"{path}: lock format {data['format']}, expected {LOCK_FORMAT}")
        lock = Lock(tag=data["tag"])
        units_current = data.get("comments_format") == UNITS_FORMAT
        for f in data["files"]:
            units = f.get("comment_units") if units_current else None
            lock.files[f["path"]] = LockFile(
                f["path"],
                f["sha256"],
                f.get("git_blob", ""),
                f["lines"],
                f["read_from"],
                GoUnits.from_json(units) if units is not None else None,
            )
        for s in data["symbols"]:
            cases = tuple(GoCase(c["case"], c["kind"], c["start"], c["end"]) for c in s["cases"])
            blocks = tuple(
                GoStmt(b["anchor"], b["lead"], b["start"], b["end"]) for b in s.get("blocks", [])
            )
            lock.symbols[(s["path"], s["symbol"])] = LockSymbol(
                s["path"],
                s["symbol"],
                s["kind"],
                s["start"],
                s["end"],
                s["sha256"],
                s["read_from"],
                cases,
                blocks,
            )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise LockError(f"{path}: malformed lock file ({exc!r})") from exc
    return lock


def write_lock(path: Path, lock: Lock) -> None:
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(lock.to_json(), indent=1, ensure_ascii=False) + "\n")
    os.replace(tmp, path)
