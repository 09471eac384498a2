"""Where the Kubernetes Go source comes from, checked before use.

In order:

1. ``K8S_SRC`` (or ``--src``): a git checkout, read at the tag (``git cat-file``, the work
   tree is not looked at), or a plain directory laid out as the repository root.  What a
   directory holds is *identified*, not taken on trust: the git blob id of every mapped file is
   compared with the one the lock recorded, and the directory is called by the release the lock
   read those files from (an exact copy of v1.21.4 is "v1.21.4", whatever it claims).
   ``K8S_SRC_VERSION`` / ``--source-version`` names the release of a directory the lock cannot
   identify (and, for a git checkout, the tag to read).
2. The download cache, ``.cache/xref/src/<tag>/`` (laid out as the repository root, so it can
   also be used as ``K8S_SRC``), with ``<tag>.manifest.json`` beside it recording the sha256 of
   every file when it was fetched.  A cached file whose content no longer matches the manifest,
   or the lock's sha256 read off the tag, is not used and is fetched again; a manifest that
   does not parse is discarded.
3. A download of just the files the port maps, at the release commit (`tools.xref.download`).
   When the lock records a file as read from the tag itself, the download must have that
   sha256 or it is refused.  No network fails fast.

Nothing found: link-only mode (permalinks come from the lock), unless ``--require-source``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cache import clear_way, write_file
from .download import DEFAULT_TIMEOUT, FetchResult, download_archive, download_raw, safe_rel
from .hashes import git_blob_sha, sha256
from .lock import Lock
from .paths import ARCHIVE_URL, COMMIT, RAW_BASE, TAG
from .progress import Progress

UNKNOWN = "unknown"  # the release of a directory that nothing identifies


class SourceError(Exception):
    """The source named by the user cannot be used (with a message saying why and what to do)."""


class Source:
    """Files of the Kubernetes repository at one release."""

    kind = "?"

    def __init__(self, version: str, where: str):
        self.version, self.where = version, where
        self.identity = ""  # how we know the release, for people
        self.warning = ""  # when it is not what the user said it is

    @property
    def key(self) -> str:
        """Identity for the index cache."""
        return f"{self.kind}:{self.where}@{self.version}"

    def read_many(self, paths) -> dict[str, bytes]:
        """The files that exist among `paths` (repository-relative, posix)."""
        raise NotImplementedError

    def describe(self) -> str:
        how = f": {self.identity}" if self.identity else ""
        return f"{self.kind} {self.where} ({self.version}{how})"


class DirSource(Source):
    kind = "dir"

    def __init__(self, root: Path, version: str):
        super().__init__(version, str(Path(root).resolve()))
        self.root = Path(root)

    def read_many(self, paths) -> dict[str, bytes]:
        out = {}
        for p in paths:
            f = self.root / p
            with contextlib.suppress(OSError):
                if f.is_file():
                    out[p] = f.read_bytes()
        return out


class GitSource(Source):
    """A git checkout, read at a tag with ``git cat-file --batch`` (the work tree is ignored)."""

    kind = "git"

    def __init__(self, repo: Path, tag: str):
        super().__init__(tag, str(Path(repo).resolve()))
        self.repo = Path(repo)
        self.identity = f"read at tag {tag}"

    def read_many(self, paths) -> dict[str, bytes]:
        paths = sorted(paths)
        if not paths:
            return {}
        query = "".join(f"{self.version}:{p}\n" for p in paths).encode()
        res = subprocess.run(
            ["git", "-C", str(self.repo), "cat-file", "--batch"],
            input=query,
            capture_output=True,
            check=True,
        )
        out, buf, pos = {}, res.stdout, 0
        for p in paths:
            nl = buf.index(b"\n", pos)
            header = buf[pos:nl].split()
            pos = nl + 1
            if len(header) == 3 and header[1] == b"blob":
                size = int(header[2])
                out[p] = buf[pos : pos + size]
                pos += size + 1
            elif len(header) == 3:  # a tree or other object: skip its body
                pos += int(header[2]) + 1
        return out


@dataclass
class Identity:
    """What a directory holds, judged by its files' git blob ids against the lock."""

    version: str
    how: str
    warning: str = ""  # said when the directory is not what K8S_SRC_VERSION claims


def identify(files: dict[str, bytes], lock: Lock | None, claimed: str | None) -> Identity:
    """The release `files` (path → content) are, by the lock's blob ids; `claimed` otherwise."""
    known = {p: f for p, f in (lock.files.items() if lock else ()) if p in files}
    if not known:
        why = "no lock to compare with" if lock is None else "no mapped file in it"
        if claimed:
            return Identity(claimed, f"as K8S_SRC_VERSION says; not checked ({why})")
        return Identity(UNKNOWN, f"not identified ({why}); set K8S_SRC_VERSION")
    same = {
        p
        for p, f in known.items()
        if (git_blob_sha(files[p]) if f.git_blob else sha256(files[p])) == (f.git_blob or f.sha256)
    }
    releases = sorted({known[p].read_from for p in same})
    if len(same) == len(known) and len(releases) == 1:
        release = releases[0]
        how = f"the git blob ids of all {len(known)} mapped files match the lock's {release}"
        warning = ""
        if claimed and claimed != release:
            warning = (
                f"K8S_SRC_VERSION={claimed}, but the files are exactly those the lock read from "
                f"{release}: calling them {release}"
            )
        return Identity(release, how, warning)
    differ = sorted(set(known) - same)
    lock_releases = sorted({known[p].read_from for p in differ})
    detail = f"{len(differ)} of {len(known)} mapped files differ from the lock ({differ[0]}…)"
    if not differ:
        detail = f"its files match the lock's {' and '.join(releases)}"
    if not claimed:
        return Identity(UNKNOWN, f"not identified: {detail}; set K8S_SRC_VERSION")
    if claimed in lock_releases:
        # Taken at its word, so that `check` reports every drift from the lock's facts.
        warning = f"K8S_SRC_VERSION={claimed}, but {detail} read from {claimed}"
        return Identity(claimed, f"as K8S_SRC_VERSION says, but {detail}", warning)
    return Identity(claimed, f"as K8S_SRC_VERSION says; {detail}")


class CacheSource(Source):
    """Files downloaded earlier into the cache, each checked against the manifest's sha256
    (and against the lock's, for files the lock read off the tag)."""

    kind = "cache"

    def __init__(
        self,
        cache_dir: Path,
        tag: str = TAG,
        expected: dict[str, str] | None = None,
        known: dict[str, tuple[str, str]] | None = None,
    ):
        self.root = Path(cache_dir)
        self.dir = self.root / "src" / tag
        self.manifest_path = self.root / "src" / f"{tag}.manifest.json"
        super().__init__(tag, str(self.dir))
        self.identity = f"fetched at commit {COMMIT[:12]}" if tag == TAG else ""
        self.expected = expected or {}
        self.known = known or {}  # path -> (git blob id, release): Lock.known_blobs
        self.bad: dict[str, str] = {}  # path -> why it was not used
        self.notes: list[str] = []  # what was wrong with the cache itself

    def manifest(self) -> dict[str, dict]:
        """path → {"sha256", "git_blob", "url"} or {"absent": True}; what does not parse is
        left out (and said once in `notes`)."""
        try:
            if not self.manifest_path.exists():
                return {}
            data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            self._note(f"{self.manifest_path} is unreadable ({exc}): discarded")
            return {}
        files = data.get("files") if isinstance(data, dict) else None
        if not isinstance(files, dict) or data.get("tag") != self.version:
            self._note(f"{self.manifest_path} has the wrong shape: discarded")
            return {}
        good = {
            p: e
            for p, e in files.items()
            if isinstance(p, str)
            and safe_rel(p)
            and isinstance(e, dict)
            and (e.get("absent") is True or isinstance(e.get("sha256"), str))
        }
        if len(good) != len(files):
            self._note(f"{self.manifest_path}: {len(files) - len(good)} malformed entries ignored")
        return good

    def _note(self, text: str) -> None:
        text = f"cache: {text}"
        if text not in self.notes:
            self.notes.append(text)

    def store(self, res: FetchResult, url_of) -> list[str]:
        """Write what a download accepted, then record it in the manifest; the problems."""
        entries, problems = {}, []
        for rel, data in sorted(res.files.items()):
            target = self.dir / rel
            try:
                clear_way(target, self.root)
                target.parent.mkdir(parents=True, exist_ok=True)
                write_file(target, data)
            except OSError as exc:
                problems.append(f"cannot write {target}: {exc}")
                continue
            entries[rel] = {
                "sha256": sha256(data),
                "git_blob": git_blob_sha(data),
                "url": url_of(rel),
            }
        for rel in res.not_found:
            entries[rel] = {"absent": True, "url": url_of(rel)}
        if entries:
            try:
                self._record(entries)
            except OSError as exc:
                problems.append(f"cannot write {self.manifest_path}: {exc}")
        return problems

    def _record(self, entries: dict[str, dict]) -> None:
        files = self.manifest()
        files.update(entries)
        clear_way(self.manifest_path, self.root)
        self.manifest_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.manifest_path.with_suffix(".tmp")
        tmp.write_text(
            json.dumps({"tag": self.version, "files": dict(sorted(files.items()))}, indent=1)
            + "\n",
            encoding="utf-8",
        )
        os.replace(tmp, self.manifest_path)

    def read_many(self, paths) -> dict[str, bytes]:
        known = self.manifest()
        out = {}
        for p in paths:
            entry = known.get(p)
            f = self.dir / p
            if entry is None or entry.get("absent"):
                continue
            try:
                data = f.read_bytes() if f.is_file() else None
            except OSError:
                data = None
            if data is None:
                continue
            digest = sha256(data)
            if digest != entry.get("sha256"):
                self.bad[p] = "its content changed since it was fetched (sha256 differs)"
                continue
            if self.expected.get(p, digest) != digest:
                self.bad[p] = f"it is not the text the lock read from {self.version}"
                continue
            blob, release = self.known.get(p, ("", ""))
            if blob and git_blob_sha(data) != blob:
                self.bad[p] = f"it is not the text the lock read from {release} (git blob id)"
                continue
            out[p] = data
        return out

    def absent(self) -> set[str]:
        """Paths known not to exist at the tag (a download of them found nothing)."""
        return {p for p, e in self.manifest().items() if e.get("absent")}

    def missing(self, paths) -> set[str]:
        """Paths neither in the cache (verified) nor known to be absent at the tag."""
        have = self.read_many(paths)
        return set(paths) - set(have) - self.absent()


def fetch_into(
    cache: CacheSource,
    paths,
    *,
    via: str = "raw",
    base_url: str | None = None,
    archive_url: str | None = None,
    timeout: float | None = None,
    progress: Progress | None = None,
) -> tuple[FetchResult, list[str]]:
    """Download `paths` at the release commit into `cache` (checked against `cache.expected`);
    the result and what could not be written."""
    base_url = base_url or os.environ.get("XREF_RAW_BASE") or RAW_BASE
    archive_url = archive_url or os.environ.get("XREF_ARCHIVE_URL") or ARCHIVE_URL
    timeout = timeout or float(os.environ.get("XREF_TIMEOUT", DEFAULT_TIMEOUT))
    options: dict[str, Any] = {
        "expected": cache.expected,
        "known": cache.known,
        "timeout": timeout,
        "progress": progress,
    }
    if via == "archive":
        # A mirror (XREF_ARCHIVE_URL) may serve any archive: the commit it holds is checked.
        res = download_archive(paths, archive_url, commit=COMMIT, **options)
        return res, cache.store(res, lambda rel: archive_url)
    res = download_raw(paths, base_url, **options)
    return res, cache.store(res, lambda rel: f"{base_url.rstrip('/')}/{rel}")


def is_git_checkout(path: Path) -> bool:
    return (Path(path) / ".git").exists()


def open_explicit(
    src: str | Path, version: str | None = None, *, lock: Lock | None = None, need=()
) -> Source:
    """The source named by ``K8S_SRC``/``--src``: a git checkout read at the tag, or a
    directory identified by the files of `need` against the `lock`."""
    path = Path(src).expanduser()
    if not path.is_dir():
        raise SourceError(f"K8S_SRC={src} is not a directory")
    if is_git_checkout(path):
        tag = version or TAG
        if shutil.which("git") is None:
            raise SourceError(f"K8S_SRC={src} is a git checkout but git is not installed")
        ok = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "--verify", "--quiet", f"{tag}^{{commit}}"],
            capture_output=True,
            check=False,
        )
        if ok.returncode != 0:
            raise SourceError(
                f"K8S_SRC={src} is a git checkout without tag {tag}: run "
                f"'git -C {src} fetch --depth 1 origin tag {tag}', or point K8S_SRC at a plain "
                "directory and say which release it holds with K8S_SRC_VERSION"
            )
        return GitSource(path, tag)
    source = DirSource(path, version or UNKNOWN)
    found = identify(source.read_many(need), lock, version)
    source.version, source.identity = found.version, found.how
    source.warning = found.warning
    return source


@dataclass
class Acquired:
    source: Source | None
    notes: list[str] = field(default_factory=list)
    fetch: FetchResult | None = None


def acquire(
    need: set[str],
    *,
    src: str | Path | None = None,
    version: str | None = None,
    cache_dir: Path | None = None,
    offline: bool = False,
    via: str = "raw",
    base_url: str | None = None,
    archive_url: str | None = None,
    lock: Lock | None = None,
    timeout: float | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> Acquired:
    """Find the source for the files in `need` (see the module docstring for the order).

    Returns ``Acquired(source=None, notes=[why])`` for link-only mode.  Raises `SourceError`
    only when the user named a source that cannot be used.
    """
    src = src or os.environ.get("K8S_SRC") or None
    version = version or os.environ.get("K8S_SRC_VERSION") or None
    if src:
        source = open_explicit(src, version, lock=lock, need=need)
        notes = [f"reading {source.describe()}"]
        if source.warning:
            notes.append(f"warning: {source.warning}")
        return Acquired(source, notes)
    if not need:
        return Acquired(None, ["no Go file is mapped yet: there is nothing to read"])
    if cache_dir is None:
        return Acquired(None, [link_only(["K8S_SRC is not set", "no cache (--no-cache)"])])
    cache = CacheSource(
        cache_dir,
        expected=lock.expected_hashes(TAG) if lock else None,
        known=lock.known_blobs() if lock else None,
    )
    missing = set(need) if force else cache.missing(need)
    notes = list(cache.notes)
    notes += [f"cache: {p}: {why}; fetching it again" for p, why in sorted(cache.bad.items())]
    result = None
    if missing and not offline:
        result, unwritable = fetch_into(
            cache,
            missing,
            via=via,
            base_url=base_url,
            archive_url=archive_url,
            timeout=timeout,
            progress=progress,
        )
        notes += [f"cache: {p}" for p in unwritable]
        if result.files:
            notes.append(f"downloaded {len(result.files)} files into {cache.dir}")
        for rel, why in sorted(result.refused.items()):
            notes.append(f"refused {rel}: {why}")
        for name, why in result.rejected:
            notes.append(f"archive member skipped: {name!r} ({why})")
        missing = cache.missing(need)
    have = set(need) - missing - cache.absent()
    if have and not missing:
        notes.insert(0, f"reading {cache.describe()}")
        return Acquired(cache, notes, result)
    reasons = ["K8S_SRC is not set"]
    if missing:
        reasons.append(f"the cache holds {len(need) - len(missing)} of the {len(need)} files")
    if offline:
        reasons.append("downloads are off here")
    elif result is not None and result.network_error:
        reasons.append(f"the download failed ({result.network_error})")
    elif result is not None and result.refused:
        reasons.append(f"downloads refused: {len(result.refused)}")
    notes.append(link_only(reasons))
    return Acquired(None, notes, result)


def link_only(why: list[str]) -> str:
    return (
        "no Kubernetes source: "
        + "; ".join(why)
        + ". Link-only mode: Go panes link to GitHub. To show the Go, run "
        "'python -m tools.xref fetch' with network, or set K8S_SRC to a kubernetes checkout "
        f"(tag {TAG}) or a directory holding it."
    )
