"""Fixed places and names: the repository root, the tag, the default lock file, permalinks."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "minikubelet"  # the port, indexed with tree-sitter-python

UPSTREAM_REPO = "kubernetes/kubernetes"
TAG = "v1.21.3"  # the release the port follows; every permalink points at it
# The commit the tag names (kubelet --version's gitCommit for v1.21.3). Downloads ask for the
# commit, not the tag: a tag can be moved, a commit id names one tree forever.
COMMIT = "ca643a4d1f7bfe34773c74f79527be4afd95bf39"
LOCK_PATH = Path(__file__).resolve().parent / "kubelet-v1.21.3.lock.json"

RAW_BASE = f"https://raw.githubusercontent.com/{UPSTREAM_REPO}/{COMMIT}"
ARCHIVE_URL = f"https://github.com/{UPSTREAM_REPO}/archive/{COMMIT}.tar.gz"


def permalink(path: str, start: int | None = None, end: int | None = None, tag: str = TAG) -> str:
    """``https://github.com/kubernetes/kubernetes/blob/<tag>/<path>#L<a>-L<b>``.

    Without lines, the link is to the file at the tag (still correct, just less precise).
    """
    url = f"https://github.com/{UPSTREAM_REPO}/blob/{tag}/{path}"
    if start is None:
        return url
    if end is None or end == start:
        return f"{url}#L{start}"
    return f"{url}#L{start}-L{end}"
