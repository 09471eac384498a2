"""`build_index`: the whole cross-reference, for the CLI and for the site build."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cache import default_cache_dir
from .comments import GoUnits, check_comments_in, go_units
from .go_tree import index_blobs
from .lock import Lock, LockError, load_lock
from .paths import LOCK_PATH, PACKAGE, REPO_ROOT, TAG
from .problems import ERROR, WARNING, Problem
from .progress import Progress
from .py_index import PyIndex, index_package
from .resolve import Fidelity, LockLookup, Mapping, SourceLookup, drift, resolve
from .source import Acquired, Source, SourceError, acquire


@dataclass
class Index:
    """The port's cross-reference to Kubernetes ``v1.21.3``.

    `mappings`: one per ``Go:`` docstring line, with Python and Go lines, permalinks, blocks
    (anchored cases) and, when the source is at hand, the Go declaration's text.
    `fidelity`: per mapped Go function, each select/switch case and its status.
    `problems`: everything that failed (errors), or deserves a look (warnings, notes).
    `mode`: ``source`` (facts read from the source) or ``link-only`` (from the lock).
    """

    tag: str
    mode: str
    source: Source | None
    notes: list[str]
    py: PyIndex
    mappings: list[Mapping]
    fidelity: list[Fidelity]
    problems: list[Problem]
    lock: Lock | None
    lookup: SourceLookup | LockLookup | None = None
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def ok(self) -> bool:
        return not self.errors

    def go_source(self, path: str) -> str | None:
        """The whole text of a Go file, when the source is at hand (for side-by-side views)."""
        if isinstance(self.lookup, SourceLookup) and path in self.lookup.files:
            return self.lookup.files[path][1].decode("utf-8", "replace")
        return None

    def to_json(self, text: bool = False) -> dict:
        return {
            "tag": self.tag,
            "mode": self.mode,
            "source": None
            if self.source is None
            else {
                "kind": self.source.kind,
                "where": self.source.where,
                "version": self.source.version,
            },
            "notes": self.notes,
            "modules": [
                {"file": m.file, "go_files": [{"line": n, "path": p} for n, p in m.go_files]}
                for m in self.py.modules
                if m.go_files or m.defs
            ],
            "mappings": [m.to_json(text) for m in self.mappings],
            "fidelity": [f.to_json() for f in self.fidelity],
            "problems": [p.to_json() for p in self.problems],
            "ok": self.ok,
        }


def build_index(
    root: Path | str = REPO_ROOT,
    *,
    package: str | Path = PACKAGE,
    src: str | Path | None = None,
    source_version: str | None = None,
    lock_path: Path | str | None = LOCK_PATH,
    cache_dir: Path | bool | None = True,
    offline: bool = False,
    require_source: bool = False,
    strict_fidelity: bool = True,
    check_lock: bool = True,
    check_comments: bool = False,
    via: str = "raw",
    base_url: str | None = None,
    archive_url: str | None = None,
    progress: Progress | None = None,
) -> Index:
    """Index the port under `root`/`package`, read the Go source (or the lock), resolve.

    `src`/`source_version` default to ``$K8S_SRC``/``$K8S_SRC_VERSION``.  Without a source the
    index is link-only (facts from the lock); with `require_source` that is an error.  With
    `check_comments`, every line of our text under `root` that repeats a comment of the mapped Go
    files word for word is an error (`tools.xref.comments`).  Never raises for problems in the
    annotations: they are in ``Index.problems``.
    """
    t0 = time.perf_counter()
    root = Path(root)
    if cache_dir is True:
        cache_dir = default_cache_dir(root)
    cache_dir = cache_dir or None
    package_dir = Path(package) if Path(package).is_absolute() else root / package
    py = index_package(package_dir, root)
    timings = {"python": time.perf_counter() - t0}
    problems: list[Problem] = list(py.problems)
    lock, lock_name = _read_lock(lock_path, root, problems)
    need = py.go_paths() | (lock.paths() if lock else set())
    got = _acquire(
        need,
        problems,
        src=src,
        version=source_version,
        cache_dir=cache_dir,
        offline=offline,
        via=via,
        base_url=base_url,
        archive_url=archive_url,
        lock=lock,
        progress=progress,
    )
    timings["source"] = time.perf_counter() - t0 - sum(timings.values())
    lookup: SourceLookup | LockLookup
    if got.source is not None:
        data = got.source.read_many(need)
        gofiles = index_blobs(data, key=got.source.key, cache_dir=cache_dir, notes=got.notes)
        lookup = SourceLookup(
            {p: (gofiles[p], data[p]) for p in data},
            got.source.version,
            f"{got.source.kind} source {got.source.version}",
        )
        mode = "source"
    else:
        lookup = LockLookup(lock, f"the lock file {lock_name} (link-only mode: no source)")
        mode = "link-only"
        if require_source and need:
            problems.append(
                Problem(ERROR, "no-source", "K8S_SRC", 0, " ".join(got.notes) or "no source")
            )
    timings["go"] = time.perf_counter() - t0 - sum(timings.values())
    mappings, fidelity, found = resolve(py, lookup, strict_fidelity=strict_fidelity)
    problems.extend(found)
    if isinstance(lookup, SourceLookup) and check_lock:
        problems.extend(_lock_against_source(lock, lock_name, lock_path, lookup, mappings))
    if check_comments:
        skip = Path(got.source.where) if got.source is not None else None
        problems.extend(_copied_comments(root, lookup, lock, lock_name, skip))
    problems.sort(key=lambda p: (p.file, p.line, p.code))
    timings["resolve"] = time.perf_counter() - t0 - sum(timings.values())
    timings["total"] = time.perf_counter() - t0
    return Index(
        TAG, mode, got.source, got.notes, py, mappings, fidelity, problems, lock, lookup, timings
    )


def _read_lock(
    lock_path: Path | str | None, root: Path, problems: list[Problem]
) -> tuple[Lock | None, str]:
    """The lock (None when there is none or it is unreadable: a problem), and its name as
    problems cite it (relative to `root` when inside it)."""
    if lock_path is None:
        return None, "lock"
    lock_path = Path(lock_path)
    try:
        lock_name = lock_path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        lock_name = lock_path.as_posix()
    try:
        return load_lock(lock_path), lock_name
    except LockError as exc:
        problems.append(Problem(ERROR, "lock-unreadable", lock_name, 0, str(exc)))
        return None, lock_name


def _acquire(need: set[str], problems: list[Problem], **how: Any) -> Acquired:
    """The Go files `need`s, as `acquire` gets them (`how`: its options); what it could not
    get, or refused, becomes problems."""
    try:
        got = acquire(need, **how)
    except SourceError as exc:
        got = Acquired(None, [str(exc)])
        problems.append(Problem(ERROR, "source", "K8S_SRC", 0, str(exc)))
    if got.fetch is not None:
        for rel, why in sorted(got.fetch.refused.items()):
            problems.append(Problem(ERROR, "download-refused", rel, 0, f"download refused: {why}"))
        for name, why in got.fetch.rejected:
            problems.append(
                Problem(WARNING, "archive-member-rejected", name, 0, f"not extracted: {why}")
            )
    return got


def _lock_against_source(
    lock: Lock | None,
    lock_name: str,
    lock_path: Path | str | None,
    lookup: SourceLookup,
    mappings: list[Mapping],
) -> list[Problem]:
    """With the source at hand: how the lock drifted from it, or that there is no lock."""
    if lock is not None:
        return drift(lock, lookup, mappings, lock_name)
    if lock_path is None:
        return []
    return [
        Problem(
            ERROR,
            "lock-missing",
            lock_name,
            0,
            "there is no lock file: run 'python -m tools.xref lock' and commit it",
        )
    ]


def _copied_comments(
    root: Path, lookup, lock: Lock | None, lock_name: str, skip: Path | None
) -> list[Problem]:
    """Our text that repeats the comments of the Go files, hashed from the source or the lock."""
    if isinstance(lookup, SourceLookup):
        units = {p: go_units(data) for p, (_, data) in lookup.files.items()}
    else:
        files = lock.files.values() if lock else ()
        stale = sorted(f.path for f in files if f.comments is None)
        if lock is None or stale:
            what = f"{len(stale)} files" if stale else "no lock"
            return [
                Problem(
                    ERROR,
                    "lock-stale",
                    lock_name,
                    0,
                    f"cannot look for copied comments offline: {what} without current hashes "
                    "of their comments; run 'python -m tools.xref lock' with the source",
                )
            ]
        units = {f.path: f.comments for f in files if isinstance(f.comments, GoUnits)}
    return check_comments_in(root, units, skip=skip)
