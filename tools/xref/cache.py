"""The content-hash cache of Go index records, under ``.cache/xref/`` (git-ignored).

A *snapshot* holds, for one tree (a directory, a git tag, the download cache), every file's
path → (size, mtime_ns, inode, sha256 of the content, marshal'd record).  A record is reused
when the file's content hash is unchanged.  Re-hashing a large tree costs more than indexing
it warm should, so, like git's index, an unchanged ``stat`` (size, mtime, inode) vouches for an
unchanged hash; files modified within two seconds of the snapshot being written are "racy" and
always re-hashed.  ``--rehash`` ignores the ``stat`` shortcut and hashes every file.

Snapshots are one file each, written atomically; a snapshot made by another record format or
grammar version is ignored (the key includes both).  Each file starts with a magic line and the
sha256 of what follows: a snapshot that does not verify (a flipped bit, a truncated write, bad
``marshal`` data, a wrong shape, a directory where the file should be) is discarded, with a note
saying so, and rebuilt; the cache never stops a run.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import shutil
import time
from pathlib import Path

from .go_index import RECORD_FORMAT, grammar_versions

SNAPSHOT_FORMAT = 2
MAGIC = b"minikubelet-xref-snapshot 2\n"
RACY_NS = 2_000_000_000

# path -> (size, mtime_ns, inode, sha256 hex, record bytes); size/mtime/inode are -1 when unknown
Entry = tuple[int, int, int, str, bytes]


def default_cache_dir(root: Path | None = None) -> Path:
    """``$XREF_CACHE_DIR`` or ``<repo>/.cache/xref``."""
    env = os.environ.get("XREF_CACHE_DIR")
    if env:
        return Path(env)
    from .paths import REPO_ROOT

    return (root or REPO_ROOT) / ".cache" / "xref"


def clear_way(path: Path, root: Path) -> None:
    """Make room for a regular file at `path` inside the cache `root`.

    What stands in the way inside `root` (a directory where the file goes, a file where one of
    its parent directories goes) is cache debris: it is removed.  Nothing outside `root` is.
    """
    path, root = Path(path), Path(root)
    if not path.is_relative_to(root):
        return
    here = root
    for part in path.relative_to(root).parts[:-1]:
        here = here / part
        if (here.is_symlink() or here.exists()) and not here.is_dir():
            here.unlink()
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)


def write_file(path: Path, data: bytes) -> None:
    """Write `path` atomically through a temporary file created anew (``O_EXCL``, ``O_NOFOLLOW``):
    a symbolic link planted at either name is never written through; one at `path` is refused
    (`OSError` saying so), one at the temporary name is removed (it is ours to make)."""
    path = Path(path)
    if path.is_symlink():
        raise OSError(f"{path} is a symbolic link: refusing to write through it")
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _valid_entry(entry) -> bool:
    return (
        isinstance(entry, tuple)
        and len(entry) == 5
        and all(type(x) is int for x in entry[:3])
        and isinstance(entry[3], str)
        and len(entry[3]) == 64
        and isinstance(entry[4], bytes)
    )


def decode(raw: bytes, key: str) -> dict[str, Entry]:
    """The entries of a snapshot file; `ValueError` saying why when it does not verify."""
    if not raw.startswith(MAGIC):
        raise ValueError("not a snapshot of this format")
    digest, payload = raw[len(MAGIC) : len(MAGIC) + 32], raw[len(MAGIC) + 32 :]
    if hashlib.sha256(payload).digest() != digest:
        raise ValueError("checksum mismatch (corrupted)")
    try:
        data = marshal.loads(payload)
    except (EOFError, ValueError, TypeError) as exc:
        raise ValueError(f"bad marshal data ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise ValueError("wrong shape")
    entries = data.get("entries")
    if data.get("key") != key or not isinstance(entries, dict):
        raise ValueError("wrong shape")
    if not all(isinstance(k, str) and _valid_entry(e) for k, e in entries.items()):
        raise ValueError("wrong shape (an entry)")
    return entries


def encode(entries: dict[str, Entry], key: str) -> bytes:
    payload = marshal.dumps({"format": SNAPSHOT_FORMAT, "key": key, "entries": entries})
    return MAGIC + hashlib.sha256(payload).digest() + payload


class Snapshot:
    """The cached records of one tree.

    `notes` says what was wrong with the cache (discarded, not writable); never raised.
    """

    def __init__(self, path: Path | None, entries: dict[str, Entry] | None = None):
        self.path = path
        self.entries: dict[str, Entry] = entries or {}
        self.dirty = False
        self.notes: list[str] = []

    @staticmethod
    def file_for(cache_dir: Path, key: str) -> Path:
        tag = f"{SNAPSHOT_FORMAT}|{RECORD_FORMAT}|{grammar_versions()}|{key}"
        return cache_dir / "go" / (hashlib.sha1(tag.encode()).hexdigest()[:20] + ".snap")

    @classmethod
    def load(cls, cache_dir: Path | None, key: str) -> Snapshot:
        """The snapshot for `key`, or an empty one (no cache dir, missing, unreadable)."""
        if cache_dir is None:
            return cls(None)
        path = cls.file_for(cache_dir, key)
        if not (path.exists() or path.is_symlink()):
            return cls(path)
        try:
            if not path.is_file():
                raise ValueError("not a regular file")
            return cls(path, decode(path.read_bytes(), key))
        except (OSError, ValueError) as exc:
            snap = cls(path)
            snap.discard(f"{exc}")
            return snap

    def discard(self, why: str) -> None:
        """Forget a snapshot that does not verify; the next `save` rebuilds it."""
        self.notes.append(f"cache: {self.path} did not verify ({why}): discarded, rebuilt")
        self.entries, self.dirty = {}, True

    def put(self, rel: str, entry: Entry) -> None:
        self.entries[rel] = entry
        self.dirty = True

    def by_sha(self) -> dict[str, bytes]:
        return {e[3]: e[4] for e in self.entries.values()}

    def save(self, key: str, keep: set[str] | None = None) -> None:
        """Write atomically; drop entries not in `keep`; forget ``stat`` of racy files."""
        if self.path is None or not self.dirty:
            return
        now = time.time_ns()
        entries = {}
        for rel, (size, mtime, ino, sha, blob) in self.entries.items():
            if keep is not None and rel not in keep:
                continue
            if mtime >= now - RACY_NS:
                size, mtime, ino = -1, -1, -1
            entries[rel] = (size, mtime, ino, sha, blob)
        try:
            clear_way(self.path, self.path.parent.parent)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_file(self.path, encode(entries, key))
        except OSError as exc:
            self.notes.append(f"cache: cannot write {self.path} ({exc}); continuing without it")
        self.dirty = False
