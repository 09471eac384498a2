"""Indexing many Go files: a whole tree on disk, or a set of files held in memory.

Cold, files are parsed by a process pool using every core (each worker reads, hashes and
parses a batch of files and sends back the marshal'd records).  Warm, the content-hash cache
(`tools.xref.cache`) answers for every unchanged file and nothing is parsed.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .cache import Snapshot, default_cache_dir
from .go_index import GoFile, parse_record
from .progress import Progress, null

POOL_MIN_BYTES = 4_000_000  # below this, parsing in this process beats starting a pool
BATCH_BYTES = 256_000


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def scan(root: Path, suffix: str = ".go") -> list[tuple[str, str, int, int, int]]:
    """(relative path, absolute path, size, mtime_ns, inode) of every regular `suffix` file.

    Hidden directories (``.git``…) are skipped; symbolic links to files are followed, to
    directories not (no cycles).
    """
    out = []
    stack = [(str(root), "")]
    while stack:
        top, prefix = stack.pop()
        try:
            it = os.scandir(top)
        except OSError:
            continue
        with it:
            for e in it:
                name = e.name
                if e.is_dir(follow_symlinks=False):
                    if not name.startswith("."):
                        stack.append((e.path, prefix + name + "/"))
                elif name.endswith(suffix):
                    try:
                        if not e.is_file():
                            continue
                        st = e.stat()
                    except OSError:
                        continue
                    out.append((prefix + name, e.path, st.st_size, st.st_mtime_ns, st.st_ino))
    out.sort()
    return out


def _read(path: str, size: int = -1) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        if size < 0:
            size = os.fstat(fd).st_size
        chunks = [os.read(fd, size + 1)]
        while chunks[-1]:  # the file grew since it was stat'ed
            chunks.append(os.read(fd, 1 << 20))
        return b"".join(chunks)
    finally:
        os.close(fd)


def _digest(path: str, size: int) -> str:
    try:
        return hashlib.sha256(_read(path, size)).hexdigest()
    except OSError:
        return ""


def _parse_batch(batch: list[tuple[str, str, str]]) -> list[tuple[str, str, bytes | None]]:
    """Worker: read, hash and (unless the hash is the cached one) parse each file."""
    out: list[tuple[str, str, bytes | None]] = []
    for rel, path, old_sha in batch:
        try:
            data = _read(path)
        except OSError:
            out.append((rel, "", None))
            continue
        sha = hashlib.sha256(data).hexdigest()
        out.append((rel, sha, None if sha == old_sha else marshal.dumps(parse_record(data))))
    return out


def _raw_batch(batch: list[tuple[str, str, str]]) -> int:
    """Worker for the benchmark's baseline: read and parse, nothing else."""
    from .go_index import _go

    parser = _go()[0]
    n = 0
    for _rel, path, _ in batch:
        with open(path, "rb") as f:
            parser.parse(f.read())
        n += 1
    return n


def _batches(items: list[tuple[str, str, str]], sizes: dict[str, int]) -> list[list]:
    """Largest files first (good balance), grouped to about BATCH_BYTES per batch."""
    items = sorted(items, key=lambda t: -sizes[t[0]])
    out: list[list] = []
    cur: list = []
    acc = 0
    for it in items:
        cur.append(it)
        acc += sizes[it[0]]
        if acc >= BATCH_BYTES:
            out.append(cur)
            cur, acc = [], 0
    if cur:
        out.append(cur)
    return out


def _pool(jobs: int):
    import multiprocessing as mp

    from .go_index import _go

    _go()  # import tree-sitter and compile the queries once, before forking: workers inherit them

    methods = mp.get_all_start_methods()
    ctx = mp.get_context("fork" if "fork" in methods else None)
    return ctx.Pool(jobs)


def _run(worker, batches: list[list], jobs: int, task=None) -> Iterable:
    """Yield each batch's result, in a pool when it is worth it."""
    if jobs > 1 and len(batches) > 1:
        with _pool(jobs) as pool:
            for res in pool.imap_unordered(worker, batches):
                if task is not None:
                    task.advance(len(res) if isinstance(res, list) else res)
                yield res
    else:
        for b in batches:
            res = worker(b)
            if task is not None:
                task.advance(len(b))
            yield res


@dataclass
class GoTree:
    """The index of a tree of Go files."""

    root: Path
    files: dict[str, GoFile]
    stats: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what was wrong with the cache

    def __len__(self) -> int:
        return len(self.files)


def index_tree(
    root: Path | str,
    *,
    cache_dir: Path | bool | None = True,
    rehash: bool = False,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> GoTree:
    """Index every ``*.go`` file under `root`.

    `cache_dir` True means the default cache (``.cache/xref``), False/None no cache.
    `rehash` hashes every file's content instead of trusting an unchanged ``stat``.
    """
    t0 = time.perf_counter()
    root = Path(root).resolve()
    if cache_dir is True:
        cache_dir = default_cache_dir()
    cache_dir = cache_dir or None
    jobs = jobs or cpu_count()
    progress = progress or null()
    key = f"tree:{root}"
    found = scan(root)
    snap = Snapshot.load(cache_dir, key)
    old = snap.entries
    stats: dict[str, float] = {"files": len(found), "stat_hits": 0, "hash_hits": 0, "parsed": 0}
    files: dict[str, GoFile] = {}
    todo: list[tuple[str, str, str]] = []  # (rel, path, sha of the cached record or "")
    sizes: dict[str, int] = {}
    check: list[tuple[str, str, int, int, int]] = []
    for item in found:
        rel, path, size, mtime, ino = item
        e = old.get(rel)
        if e is None:
            todo.append((rel, path, ""))
            sizes[rel] = size
        elif not rehash and e[0] == size and e[1] == mtime and e[2] == ino:
            files[rel] = GoFile(rel, e[3], blob=e[4])
        else:
            check.append(item)
    stats["stat_hits"] = len(files)

    if check:  # cached, but the stat changed or --rehash: hash the content
        shas = [_digest(item[1], item[2]) for item in check]
        for (rel, path, size, mtime, ino), sha in zip(check, shas, strict=True):
            e = old[rel]
            if sha and sha == e[3]:
                files[rel] = GoFile(rel, sha, blob=e[4])
                stats["hash_hits"] += 1
                if (e[0], e[1], e[2]) != (size, mtime, ino):
                    snap.put(rel, (size, mtime, ino, sha, e[4]))
            else:
                todo.append((rel, path, ""))
                sizes[rel] = size

    if todo:
        stat_of = {f[0]: f[2:] for f in found}
        total = sum(sizes.values())
        use = jobs if total >= POOL_MIN_BYTES else 1
        batches = _batches(todo, sizes)
        task = progress.task(f"indexing {root.name}", total=len(todo))
        for res in _run(_parse_batch, batches, use, task):
            for rel, sha, blob in res:
                if not sha:  # vanished or unreadable since the scan
                    continue
                size, mtime, ino = stat_of[rel]
                files[rel] = GoFile(rel, sha, blob=blob)
                snap.put(rel, (size, mtime, ino, sha, blob))
                stats["parsed"] += 1
    if snap.dirty or len(old) != len(found):
        snap.dirty = True
        snap.save(key, keep=set(files))
    stats["seconds"] = time.perf_counter() - t0
    return GoTree(root, dict(sorted(files.items())), stats, snap.notes)


def raw_parse_tree(root: Path | str, jobs: int | None = None) -> tuple[int, int]:
    """Benchmark baseline: read and parse every ``*.go`` file with all cores; (files, bytes)."""
    found = scan(Path(root))
    sizes = {f[0]: f[2] for f in found}
    batches = _batches([(f[0], f[1], "") for f in found], sizes)
    n = sum(_run(_raw_batch, batches, jobs or cpu_count()))
    return n, sum(sizes.values())


def index_blobs(
    files: dict[str, bytes],
    *,
    key: str,
    cache_dir: Path | bool | None = True,
    notes: list[str] | None = None,
) -> dict[str, GoFile]:
    """Index files held in memory (read from a git tag, a download…), through the cache.

    What was wrong with the cache (see `tools.xref.cache`) is appended to `notes`.
    """
    if cache_dir is True:
        cache_dir = default_cache_dir()
    snap = Snapshot.load(cache_dir or None, key)
    known = snap.by_sha()
    out: dict[str, GoFile] = {}
    for rel, data in files.items():
        sha = hashlib.sha256(data).hexdigest()
        blob = known.get(sha)
        if blob is None:
            blob = marshal.dumps(parse_record(data))
            snap.put(rel, (-1, -1, -1, sha, blob))
        elif rel not in snap.entries or snap.entries[rel][3] != sha:
            snap.put(rel, (-1, -1, -1, sha, blob))
        out[rel] = GoFile(rel, sha, blob=blob)
    snap.save(key)
    if notes is not None:
        notes.extend(snap.notes)
    return out
