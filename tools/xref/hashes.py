"""Content hashes: sha256 (the lock, the cache) and git's blob id (to recognise a release)."""

from __future__ import annotations

import hashlib


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def git_blob_sha(data: bytes) -> str:
    """The id git gives a file with this content (to recognise the same text elsewhere)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
