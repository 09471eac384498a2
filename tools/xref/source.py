"""Where the Kubernetes Go source comes from, checked before use.

In order:

1. ``K8S_SRC`` (or ``--src``): a git checkout, read at the tag (``git cat-file``, the work
   tree is not looked at), or a plain directory laid out as the repository root.  Which release
   a directory holds is said by ``K8S_SRC_VERSION`` / ``--source-version`` (default the tag,
   ``v1.21.3``); for a git checkout the same setting names the tag to read.
2. The download cache, ``.cache/xref/src/<tag>/`` (laid out as the repository root, so it can
   also be used as ``K8S_SRC``), with ``<tag>.manifest.json`` beside it recording the sha256 of
   every file when it was fetched.  A cached file whose content no longer matches is not used.
3. A download of just the files the port maps, over HTTPS: each file from the tag's raw URL
   (default), or the tag's source archive streamed through a safe extractor (``--via
   archive``).  When the lock records a file as read from the tag itself, the download must
   have that sha256 or it is refused.  No network fails fast.

Nothing found: link-only mode (permalinks come from the lock), unless ``--require-source``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .paths import ARCHIVE_URL, RAW_BASE, TAG
from .progress import Progress, null

DEFAULT_TIMEOUT = 20.0
MAX_MEMBER_BYTES = 64 << 20


class SourceError(Exception):
    """The source named by the user cannot be used (with a message saying why and what to do)."""


class Source:
    """Files of the Kubernetes repository at one release."""

    kind = "?"

    def __init__(self, version: str, where: str):
        self.version, self.where = version, where

    @property
    def key(self) -> str:
        """Identity for the index cache."""
        return f"{self.kind}:{self.where}@{self.version}"

    def read_many(self, paths) -> dict[str, bytes]:
        """The files that exist among `paths` (repository-relative, posix)."""
        raise NotImplementedError

    def describe(self) -> str:
        return f"{self.kind} {self.where} ({self.version})"


class DirSource(Source):
    kind = "dir"

    def __init__(self, root: Path, version: str):
        super().__init__(version, str(Path(root).resolve()))
        self.root = Path(root)

    def read_many(self, paths) -> dict[str, bytes]:
        out = {}
        for p in paths:
            f = self.root / p
            if f.is_file():
                out[p] = f.read_bytes()
        return out


class GitSource(Source):
    """A git checkout, read at a tag with ``git cat-file --batch`` (the work tree is ignored)."""

    kind = "git"

    def __init__(self, repo: Path, tag: str):
        super().__init__(tag, str(Path(repo).resolve()))
        self.repo = Path(repo)

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


def git_blob_sha(data: bytes) -> str:
    """The id git gives a file with this content (to recognise the same text elsewhere)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class CacheSource(Source):
    """Files downloaded earlier into the cache, each checked against the manifest's sha256."""

    kind = "cache"

    def __init__(self, cache_dir: Path, tag: str = TAG):
        self.dir = Path(cache_dir) / "src" / tag
        self.manifest_path = Path(cache_dir) / "src" / f"{tag}.manifest.json"
        super().__init__(tag, str(self.dir))
        self.bad: dict[str, str] = {}  # path -> why it was not used

    def manifest(self) -> dict[str, dict]:
        try:
            data = json.loads(self.manifest_path.read_text())
            return data.get("files", {}) if data.get("tag") == self.version else {}
        except (OSError, ValueError):
            return {}

    def record(self, entries: dict[str, dict]) -> None:
        files = self.manifest()
        files.update(entries)
        self.manifest_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.manifest_path.with_suffix(".tmp")
        tmp.write_text(
            json.dumps({"tag": self.version, "files": dict(sorted(files.items()))}, indent=1) + "\n"
        )
        os.replace(tmp, self.manifest_path)

    def read_many(self, paths) -> dict[str, bytes]:
        known = self.manifest()
        out = {}
        for p in paths:
            entry = known.get(p)
            f = self.dir / p
            if entry is None or entry.get("absent") or not f.is_file():
                continue
            data = f.read_bytes()
            if sha256(data) != entry.get("sha256"):
                self.bad[p] = "its content changed since it was fetched (sha256 differs)"
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


@dataclass
class FetchResult:
    fetched: dict[str, str] = field(default_factory=dict)  # path -> sha256
    not_found: list[str] = field(default_factory=list)  # 404 at the tag
    refused: dict[str, str] = field(default_factory=dict)  # path -> why (hash mismatch…)
    rejected: list[tuple[str, str]] = field(default_factory=list)  # unsafe archive members
    network_error: str = ""  # set when the network is unusable (we stopped early)

    @property
    def ok(self) -> bool:
        return not (self.not_found or self.refused or self.network_error)


def _network_reason(exc: BaseException) -> str:
    reason = getattr(exc, "reason", exc)
    return f"{type(exc).__name__}: {reason}"


def _write(dest: Path, rel: str, data: bytes) -> None:
    target = dest / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".part")
    tmp.write_bytes(data)
    os.replace(tmp, target)


def _accept(
    rel: str, data: bytes, expected: dict[str, str], cache: CacheSource, res: FetchResult, url: str
) -> dict | None:
    digest = sha256(data)
    want = expected.get(rel)
    if want and want != digest:
        res.refused[rel] = f"sha256 {digest[:12]}… differs from the lock's {want[:12]}…"
        return None
    _write(cache.dir, rel, data)
    res.fetched[rel] = digest
    return {"sha256": digest, "git_blob": git_blob_sha(data), "url": url}


def download_raw(
    paths,
    cache: CacheSource,
    *,
    base_url: str = RAW_BASE,
    expected: dict[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    progress: Progress | None = None,
) -> FetchResult:
    """Fetch each file from ``<base_url>/<path>`` into the cache; stop at the first network error.

    `expected` maps paths to a sha256 the download must have (facts the lock read off the tag).
    """
    expected = expected or {}
    res = FetchResult()
    entries = {}
    paths = sorted(paths)
    task = (progress or null()).task(f"downloading {len(paths)} Go files", total=len(paths))
    for rel in paths:
        url = f"{base_url.rstrip('/')}/{rel}"
        try:
            with urllib.request.urlopen(url, timeout=timeout) as resp:
                data = resp.read()
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                res.not_found.append(rel)
                entries[rel] = {"absent": True, "url": url}
                task.advance()
                continue
            res.network_error = f"{url}: HTTP {exc.code}"
            break
        except (urllib.error.URLError, OSError) as exc:
            res.network_error = f"{url}: {_network_reason(exc)}"
            break
        entry = _accept(rel, data, expected, cache, res, url)
        if entry:
            entries[rel] = entry
        task.advance()
    if entries:
        cache.record(entries)
    return res


class _Counting:
    """A file object that reports bytes read to a progress task."""

    def __init__(self, raw, task):
        self.raw, self.task = raw, task

    def read(self, n: int = -1) -> bytes:
        data = self.raw.read(n)
        self.task.advance(len(data))
        return data


def _member_problem(name: str, member: tarfile.TarInfo) -> str:
    if not name or name.startswith("/") or "\\" in name or (len(name) > 1 and name[1] == ":"):
        return "absolute or non-posix path"
    if ".." in PurePosixPath(name).parts:
        return "'..' in path"
    if member.issym() or member.islnk():
        return "link"
    if not (member.isfile() or member.isdir()):
        return "not a regular file"
    if member.size > MAX_MEMBER_BYTES:
        return "too large"
    return ""


def safe_extract(
    fileobj,
    dest: Path,
    wanted: set[str] | None = None,
    *,
    strip: int = 1,
    mode: str = "r|gz",
) -> tuple[dict[str, bytes], list[tuple[str, str]]]:
    """Read a tar stream; return the wanted regular files (path → bytes) and rejected members.

    Never uses ``tarfile.extract``: each member is checked (no absolute paths, no ``..``, no
    links or devices, bounded size), its first `strip` components dropped, and its target
    must lie inside `dest`.  Nothing is written here; the caller writes what it accepts.
    """
    dest_root = Path(dest).resolve()
    files: dict[str, bytes] = {}
    rejected: list[tuple[str, str]] = []
    with tarfile.open(fileobj=fileobj, mode=mode) as tf:
        for member in tf:
            name = member.name
            why = _member_problem(name, member)
            if why:
                rejected.append((name, why))
                continue
            parts = PurePosixPath(name).parts
            if member.isdir() or len(parts) <= strip:
                continue
            rel = "/".join(parts[strip:])
            if wanted is not None and rel not in wanted:
                continue
            target = (dest_root / rel).resolve()
            if not target.is_relative_to(dest_root):
                rejected.append((name, "escapes the destination"))
                continue
            f = tf.extractfile(member)
            if f is not None:
                files[rel] = f.read()
    return files, rejected


def download_archive(
    paths,
    cache: CacheSource,
    *,
    url: str = ARCHIVE_URL,
    expected: dict[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    progress: Progress | None = None,
) -> FetchResult:
    """Stream the tag's source archive, keeping only `paths` (checked as in `safe_extract`)."""
    expected = expected or {}
    res = FetchResult()
    wanted = set(paths)
    try:
        resp = urllib.request.urlopen(url, timeout=timeout)
    except urllib.error.HTTPError as exc:
        res.network_error = f"{url}: HTTP {exc.code}"
        return res
    except (urllib.error.URLError, OSError) as exc:
        res.network_error = f"{url}: {_network_reason(exc)}"
        return res
    with resp:
        total = resp.headers.get("Content-Length")
        task = (progress or null()).task(
            "downloading source archive", total=int(total) if total else None, unit="bytes"
        )
        try:
            files, res.rejected = safe_extract(_Counting(resp, task), cache.dir, wanted)
        except (tarfile.TarError, EOFError, OSError) as exc:
            res.network_error = f"{url}: broken archive ({exc})"
            return res
    entries = {}
    for rel in sorted(wanted):
        if rel not in files:
            res.not_found.append(rel)
            entries[rel] = {"absent": True, "url": url}
            continue
        entry = _accept(rel, files[rel], expected, cache, res, url)
        if entry:
            entries[rel] = entry
    if entries:
        cache.record(entries)
    return res


def is_git_checkout(path: Path) -> bool:
    return (Path(path) / ".git").exists()


def open_explicit(src: str | Path, version: str | None = None) -> Source:
    """The source named by ``K8S_SRC``/``--src`` (a git checkout read at the tag, or a dir)."""
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
    return DirSource(path, version or TAG)


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
    expected: dict[str, str] | None = None,
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
        source = open_explicit(src, version)
        return Acquired(source, [f"reading {source.describe()}"])
    if not need:
        return Acquired(None, ["no Go file is mapped yet: there is nothing to read"])
    if cache_dir is None:
        return Acquired(None, [_link_only(["K8S_SRC is not set", "no cache (--no-cache)"])])
    cache = CacheSource(cache_dir)
    missing = set(need) if force else cache.missing(need)
    notes = []
    if cache.bad:
        notes += [f"cache: {p}: {why}; fetching it again" for p, why in sorted(cache.bad.items())]
    result = None
    if missing and not offline:
        base_url = base_url or os.environ.get("XREF_RAW_BASE") or RAW_BASE
        archive_url = archive_url or os.environ.get("XREF_ARCHIVE_URL") or ARCHIVE_URL
        timeout = timeout or float(os.environ.get("XREF_TIMEOUT", DEFAULT_TIMEOUT))
        options = {"expected": expected, "timeout": timeout, "progress": progress}
        if via == "archive":
            result = download_archive(missing, cache, url=archive_url, **options)
        else:
            result = download_raw(missing, cache, base_url=base_url, **options)
        if result.fetched:
            notes.append(f"downloaded {len(result.fetched)} files into {cache.dir}")
        for rel, why in sorted(result.refused.items()):
            notes.append(f"refused {rel}: {why}")
        for name, why in result.rejected:
            notes.append(f"archive member rejected: {name!r} ({why})")
        missing = cache.missing(need)
    have = set(need) - missing - cache.absent()
    network_down = result is not None and result.network_error
    if have and not (missing and (network_down or offline)):
        notes.insert(0, f"reading {cache.describe()}")
        return Acquired(cache, notes, result)
    why = ["K8S_SRC is not set"]
    if missing:
        why.append(f"the cache {cache.dir} lacks {len(missing)} of {len(need)} files")
    if offline:
        why.append("downloads are off (--offline)")
    elif network_down:
        why.append(f"downloading failed ({result.network_error})")
    notes.append(_link_only(why))
    return Acquired(None, notes, result)


def _link_only(why: list[str]) -> str:
    return (
        "no Kubernetes source: "
        + "; ".join(why)
        + ". Link-only mode: permalinks come from the lock file. To read the source, set "
        f"K8S_SRC to a kubernetes checkout (tag {TAG}) or a directory holding it, or run "
        "'python -m tools.xref fetch' with network."
    )
