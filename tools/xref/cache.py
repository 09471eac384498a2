"""The content-hash cache of Go index records, under ``.cache/xref/`` (git-ignored).

A *snapshot* holds, for one tree (a directory, a git tag, the download cache), every file's
path → (size, mtime_ns, inode, sha256 of the content, marshal'd record).  A record is reused
when the file's content hash is unchanged.  Re-hashing a large tree costs more than indexing
it warm should, so, like git's index, an unchanged ``stat`` (size, mtime, inode) vouches for an
unchanged hash; files modified within two seconds of the snapshot being written are "racy" and
always re-hashed.  ``--rehash`` ignores the ``stat`` shortcut and hashes every file.

Snapshots are one file each, written atomically; a snapshot made by another record format or
grammar version is ignored (the key includes both).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import time
from pathlib import Path

from .go_index import RECORD_FORMAT, grammar_versions

SNAPSHOT_FORMAT = 1
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


class Snapshot:
    """The cached records of one tree."""

    def __init__(self, path: Path | None, entries: dict[str, Entry] | None = None):
        self.path = path
        self.entries: dict[str, Entry] = entries or {}
        self.dirty = False

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
        try:
            data = marshal.loads(path.read_bytes())
            if data.get("key") != key or data.get("format") != SNAPSHOT_FORMAT:
                return cls(path)
            return cls(path, data["entries"])
        except (OSError, EOFError, ValueError, TypeError, KeyError, AttributeError):
            return cls(path)

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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps({"format": SNAPSHOT_FORMAT, "key": key, "entries": entries}))
        os.replace(tmp, self.path)
        self.dirty = False
