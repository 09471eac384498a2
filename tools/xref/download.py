"""Downloading the mapped Go files, and nothing but them, safely.

Where from: the release **commit** of v1.21.3 (`tools.xref.paths.COMMIT`), which, unlike a tag,
cannot be moved: each file from ``raw.githubusercontent.com/<repo>/<commit>/<path>`` (default),
or the commit's source archive (``--via archive``).  ``XREF_RAW_BASE`` / ``XREF_ARCHIVE_URL``
point elsewhere (a mirror, or the tests' local server).

What is refused, and how it is said:

- any URL that is not ``https`` (plain ``http`` only to this machine: 127.0.0.1, ::1,
  localhost), and any redirect that leaves those rules;
- a file larger than `Limits.file` (4 MiB; the largest mapped file is under 1 MiB), an archive
  larger than `Limits.archive` compressed or `Limits.unpacked` unpacked, a fetch that takes
  longer than `Limits.deadline` in all: one deadline for every file of it, response headers
  included (a timer closes the connection; a server that trickles bytes cannot hold a build);
- in an archive: a gzip stream whose CRC or length does not verify, that is truncated or has
  data after its end; a member path met twice once normalised (``./top/x``, ``top//x`` and
  ``other/x`` are all ``x`` below the top directory: which copy would be the real one?); a NUL
  in a member's name, also in a short name's header field, which ``tarfile`` cuts at the NUL
  (git never writes one; a tool that stops the name there may read another member's path); the commit the archive says it holds (git's pax header) when it is not the
  one asked for — each refuses the whole archive, and nothing of it is written.  Members with
  absolute paths, ``..``, links and devices are skipped and listed;
- a file whose sha256 is not the one the lock recorded from the tag (`expected`), or whose git
  blob id is not the one the lock recorded for it (`known`), from whichever release: until the
  lock is read from v1.21.3 itself, its ids are v1.21.4's, and a v1.21.3 text that differs must
  be recorded from a verified source (a git checkout at the tag: ``K8S_SRC=… lock``), never
  taken on first use. In an archive, one such member refuses the whole archive (it names the
  right commit, yet holds other text). A file the lock has no id for is kept and counted
  *unverified* (`FetchResult.unverified`), never *verified*.

Nothing is written until it is accepted; each file is written atomically into the cache.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import tarfile
import threading
import time
import urllib.error
import urllib.request
import zlib
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from .hashes import git_blob_sha, sha256
from .progress import Progress, null

DEFAULT_TIMEOUT = 20.0
CHUNK = 1 << 16
LOCAL_HOSTS = {"localhost"}


@dataclass(frozen=True)
class Limits:
    """Size caps, in bytes, and the time one whole fetch may take, in seconds."""

    file: int = 4 << 20  # one raw file, or one wanted archive member
    archive: int = 128 << 20  # the compressed archive (v1.21.3's is about 35 MB)
    unpacked: int = 1 << 30  # everything the archive unpacks to (members we skip included)
    deadline: float = 300.0


class Refused(Exception):
    """A download that must not be used; the message says why."""


@dataclass
class FetchResult:
    files: dict[str, bytes] = field(default_factory=dict)  # accepted: path -> content
    not_found: list[str] = field(default_factory=list)  # 404 at the commit
    refused: dict[str, str] = field(default_factory=dict)  # path (or the archive) -> why
    verified: dict[str, str] = field(default_factory=dict)  # path -> release its blob id is of
    unverified: list[str] = field(default_factory=list)  # accepted, but no id to check it by
    rejected: list[tuple[str, str]] = field(default_factory=list)  # skipped archive members
    network_error: str = ""  # set when the network is unusable (we stopped early)

    @property
    def fetched(self) -> dict[str, str]:
        """path -> sha256 of what was accepted."""
        return {p: sha256(d) for p, d in sorted(self.files.items())}


def url_problem(url: str) -> str:
    """Why `url` may not be fetched ("" if it may): https, or plain http to this machine."""
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return ""
    if parts.scheme == "http" and parts.hostname:
        host = parts.hostname
        if host in LOCAL_HOSTS:
            return ""
        try:
            if ipaddress.ip_address(host).is_loopback:
                return ""
        except ValueError:
            pass
        return "plain http is only allowed to this machine (use https)"
    return f"only https URLs are fetched, not {parts.scheme or 'a relative'}: URLs"


class _CheckedRedirects(urllib.request.HTTPRedirectHandler):
    """Follow a redirect only to a URL that `url_problem` allows (no https → http)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        why = url_problem(newurl)
        if why:
            raise Refused(f"redirect to {newurl} refused: {why}")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class Deadline:
    """The end of a whole fetch (monotonic): each connection opened under it is shut when it
    passes, so that a server that trickles its headers or body ends the fetch on time."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self.expired = False
        self._timers: list[threading.Timer] = []

    def left(self) -> float:
        return self.at - time.monotonic()

    def watch(self, sock: socket.socket) -> None:
        if self.left() <= 0:
            self.expired = True
            sock.close()
            raise Refused(self.message())
        timer = threading.Timer(self.left(), self._expire, (sock,))
        timer.daemon = True
        timer.start()
        self._timers.append(timer)

    def _expire(self, sock: socket.socket) -> None:
        self.expired = True
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()

    def message(self) -> str:
        return f"the fetch took longer than its {self.seconds:g} s deadline (a stalled server?)"

    def connection(self, cls):
        """A factory of `cls` (an HTTP(S) connection) whose sockets this deadline watches."""

        def make(host, **kw):
            conn = cls(host, **kw)
            create = conn._create_connection

            def create_watched(*args, **kwargs):
                sock = create(*args, **kwargs)
                self.watch(sock)
                return sock

            conn._create_connection = create_watched
            return conn

        return make


class _DeadlineHTTP(urllib.request.HTTPHandler):
    def __init__(self, deadline: Deadline):
        super().__init__()
        self.deadline = deadline

    def http_open(self, req):
        return self.do_open(self.deadline.connection(http.client.HTTPConnection), req)


class _DeadlineHTTPS(urllib.request.HTTPSHandler):
    def __init__(self, deadline: Deadline):
        super().__init__()
        self.deadline = deadline

    def https_open(self, req):
        # With the system's default TLS context, as a plain HTTPSHandler() uses.
        return self.do_open(self.deadline.connection(http.client.HTTPSConnection), req)


def open_url(url: str, timeout: float, deadline: Deadline):
    """The response to a GET of `url`, its connection shut when `deadline` passes."""
    why = url_problem(url)
    if why:
        raise Refused(f"{url}: {why}")
    if deadline.left() <= 0:
        raise Refused(f"{url}: {deadline.message()}")
    opener = urllib.request.build_opener(
        _CheckedRedirects, _DeadlineHTTP(deadline), _DeadlineHTTPS(deadline)
    )
    try:
        return opener.open(url, timeout=min(timeout, max(deadline.left(), 0.01)))
    except urllib.error.HTTPError:
        raise
    except (OSError, http.client.HTTPException):
        if deadline.expired:
            raise Refused(f"{url}: {deadline.message()}") from None
        raise


class _Capped:
    """Reads a response, refusing it past `cap` bytes or past `deadline` (monotonic)."""

    def __init__(self, resp, cap: int, deadline: Deadline, what: str, task=None):
        self.resp, self.cap, self.deadline, self.what, self.task = resp, cap, deadline, what, task
        self.count = 0
        length = resp.headers.get("Content-Length") if hasattr(resp, "headers") else None
        if length and length.isdigit() and int(length) > cap:
            raise Refused(f"{what} is {int(length)} bytes, over the {cap}-byte cap")

    def read(self, n: int = CHUNK) -> bytes:
        if self.deadline.left() <= 0:
            raise Refused(f"{self.what}: {self.deadline.message()}")
        n = min(n, CHUNK) if n and n > 0 else CHUNK
        # read1: what has arrived (one socket read), so that the deadline is checked between
        # the bytes of a server that trickles them; read(n) would wait for all n.
        read = getattr(self.resp, "read1", self.resp.read)
        try:
            data = read(n)
        except (OSError, http.client.HTTPException):
            if self.deadline.expired:
                raise Refused(f"{self.what}: {self.deadline.message()}") from None
            raise
        if not data and self.deadline.expired:
            raise Refused(f"{self.what}: {self.deadline.message()}")
        self.count += len(data)
        if self.count > self.cap:
            raise Refused(f"{self.what} is over the {self.cap}-byte cap")
        if self.task is not None:
            self.task.advance(len(data))
        return data

    def read_all(self) -> bytes:
        parts = []
        while chunk := self.read():
            parts.append(chunk)
        return b"".join(parts)


def safe_rel(rel: str) -> bool:
    """A repository path we may ask for and write: relative, posix, no ``..``, no NUL."""
    p = PurePosixPath(rel)
    return (
        bool(rel)
        and "\0" not in rel
        and "\\" not in rel
        and not p.is_absolute()
        and (".." not in p.parts and "." not in p.parts and rel == p.as_posix())
    )


Known = dict[str, tuple[str, str]]  # path -> (git blob id, release), as Lock.known_blobs


def _check(rel: str, data: bytes, expected: dict[str, str], known: Known, res: FetchResult) -> None:
    digest = sha256(data)
    want = expected.get(rel)
    blob, release = known.get(rel, ("", ""))
    if want and want != digest:
        res.refused[rel] = f"sha256 {digest[:12]}… differs from the lock's {want[:12]}…"
    elif blob and git_blob_sha(data) != blob:
        got = git_blob_sha(data)
        res.refused[rel] = (
            f"git blob id {got[:12]}… differs from {blob[:12]}…, the {release} text the lock "
            "was read from (a text of its own must be recorded from a verified source)"
        )
    else:
        res.files[rel] = data
        if blob:
            res.verified[rel] = release
        else:
            res.unverified.append(rel)


def download_raw(
    paths,
    base_url: str,
    *,
    expected: dict[str, str] | None = None,
    known: Known | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    limits: Limits = Limits(),
    progress: Progress | None = None,
) -> FetchResult:
    """Fetch each file from ``<base_url>/<path>``; stop at the first network error."""
    expected, known = expected or {}, known or {}
    res = FetchResult()
    paths = sorted(paths)
    task = (progress or null()).task(f"downloading {len(paths)} Go files", total=len(paths))
    deadline = Deadline(limits.deadline)
    try:
        _fetch_each(paths, base_url, (expected, known), timeout, limits, deadline, res, task)
    finally:
        deadline.cancel()
    return res


def _fetch_each(
    paths, base_url, ids: tuple[dict[str, str], Known], timeout, limits, deadline, res, task
) -> None:
    for rel in paths:
        url = f"{base_url.rstrip('/')}/{rel}"
        if not safe_rel(rel):
            res.refused[rel] = "not a plain repository path"
            continue
        try:
            with open_url(url, timeout, deadline) as resp:
                data = _Capped(resp, limits.file, deadline, url).read_all()
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                res.not_found.append(rel)
                task.advance()
                continue
            res.network_error = f"{url}: HTTP {exc.code}"
            break
        except Refused as exc:
            if url_problem(url):  # the base URL itself: every file would be refused
                res.network_error = str(exc)
                break
            res.refused[rel] = str(exc)
            if deadline.expired or deadline.left() <= 0:
                break  # the files after it are left missing
            task.advance()
            continue
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            res.network_error = f"{url}: {_network_reason(exc)}"
            break
        _check(rel, data, *ids, res)
        task.advance()


def _network_reason(exc: BaseException) -> str:
    reason = getattr(exc, "reason", exc)
    return f"{type(exc).__name__}: {reason}"


class GunzipStream:
    """The unpacked bytes of a gzip stream, as a file object for ``tarfile`` (mode ``r|``).

    zlib checks the gzip trailer (CRC-32 and length) when it reaches it; `finish` reads to the
    end of the input so that it always does, and refuses a truncated stream or trailing data.
    Bytes in and out are capped, a bomb is unpacked at most `CHUNK` bytes at a time.
    """

    def __init__(self, raw, limits: Limits, what: str):
        self.raw, self.limits, self.what = raw, limits, what
        self.z = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.buf = bytearray()
        self.unpacked = 0

    def _more(self) -> bool:
        """Unpack one more chunk into the buffer; False at the end of the gzip stream."""
        if self.z.eof:
            return False
        data = self.z.unconsumed_tail or self.raw.read(CHUNK)
        if not data:
            raise Refused(f"{self.what}: the archive ends early (truncated)")
        try:
            out = self.z.decompress(data, CHUNK)
        except zlib.error as exc:
            raise Refused(f"{self.what}: the gzip stream does not verify ({exc})") from None
        self.unpacked += len(out)
        if self.unpacked > self.limits.unpacked:
            raise Refused(f"{self.what} unpacks to more than {self.limits.unpacked} bytes")
        self.buf += out
        return True

    def read(self, n: int = -1) -> bytes:
        while (n < 0 or len(self.buf) < n) and self._more():
            pass
        n = len(self.buf) if n < 0 else min(n, len(self.buf))
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def finish(self) -> None:
        """Unpack what is left (tar padding) and verify the gzip trailer and the input's end."""
        while self._more():
            self.buf.clear()
        if self.z.unused_data or self.raw.read(1):
            raise Refused(f"{self.what}: data after the end of the gzip stream")


class _HeaderInfo(tarfile.TarInfo):
    """A member whose header is kept in view: ``tarfile`` cuts a name at its first NUL, so a
    NUL in a short (ustar) name would never reach the check; `nul_in_header` says it was there."""

    nul_in_header = False

    @classmethod
    def frombuf(cls, buf, encoding, errors):
        info = super().frombuf(buf, encoding, errors)
        fields = [buf[0:100], buf[157:257]]  # name, link name
        if buf[257:263] == b"ustar\0":
            fields.append(buf[345:500])  # POSIX ustar's name prefix
        info.nul_in_header = any(f.partition(b"\0")[2].strip(b"\0") for f in fields)
        return info


def _normal(name: str) -> str:
    """A member path without ``.`` and empty components (``./top//x`` → ``top/x``)."""
    lead = "/" if name.startswith("/") else ""
    return lead + "/".join(p for p in name.split("/") if p not in ("", "."))


def _member_problem(name: str, member: tarfile.TarInfo, limits: Limits) -> str:
    if not name or name.startswith("/") or "\\" in name or (len(name) > 1 and name[1] == ":"):
        return "absolute or non-posix path"
    if ".." in PurePosixPath(name).parts:
        return "'..' in path"
    if member.issym() or member.islnk():
        return "link"
    if not (member.isfile() or member.isdir()):
        return "not a regular file"
    if member.size > limits.file:
        return f"over the {limits.file}-byte cap"
    return ""


def safe_extract(
    fileobj,
    wanted: set[str] | None = None,
    *,
    strip: int = 1,
    commit: str | None = None,
    limits: Limits = Limits(),
    what: str = "the archive",
) -> tuple[dict[str, bytes], list[tuple[str, str]]]:
    """Read a ``.tar.gz`` stream; return the wanted regular files (path → bytes) and the
    members skipped as unsafe, with why.

    Never uses ``tarfile.extract`` and writes nothing: each member is checked, its first
    `strip` components dropped.  Raises `Refused` for what makes the whole archive unusable
    (see the module docstring), `commit` included: when given, git's pax header must name it.
    """
    stream = GunzipStream(fileobj, limits, what)
    files: dict[str, bytes] = {}
    rejected: list[tuple[str, str]] = []
    seen: set[str] = set()
    try:
        # typeshed's file object for tarfile also writes and seeks; mode r| only reads.
        with tarfile.open(fileobj=stream, mode="r|", tarinfo=_HeaderInfo) as tf:  # type: ignore[call-overload]
            for member in tf:
                name = member.name
                if "\0" in name or getattr(member, "nul_in_header", False):
                    raise Refused(f"{what}: NUL in the name of member {name!r}")
                parts = tuple(_normal(name).split("/"))
                # Below the top directory (whichever it is named), as the files are written.
                key = "/".join(parts[strip:]) if len(parts) > strip else ""
                if key in seen:
                    raise Refused(f"{what}: member {name!r} appears twice (as {key!r})")
                if key:
                    seen.add(key)
                why = _member_problem(name, member, limits)
                if why:
                    rejected.append((name, why))
                    continue
                if member.isdir() or len(parts) <= strip:
                    continue
                rel = key
                if wanted is not None and rel not in wanted:
                    continue
                f = tf.extractfile(member)
                if f is not None:
                    files[rel] = f.read()
            said = tf.pax_headers.get("comment")
    except tarfile.TarError as exc:
        raise Refused(f"{what}: broken archive ({exc})") from None
    stream.finish()
    if commit is not None and said != commit:
        holds = f"commit {said}" if said else "no commit id (git's pax header)"
        raise Refused(f"{what} says it holds {holds}, not {commit}")
    return files, rejected


def download_archive(
    paths,
    url: str,
    *,
    commit: str | None = None,
    expected: dict[str, str] | None = None,
    known: Known | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    limits: Limits = Limits(),
    progress: Progress | None = None,
) -> FetchResult:
    """Stream the source archive at `url`, keeping only `paths` (checked as in `safe_extract`)."""
    ids = (expected or {}, known or {})
    res = FetchResult()
    wanted = {p for p in paths if safe_rel(p)}
    for rel in sorted(set(paths) - wanted):
        res.refused[rel] = "not a plain repository path"
    deadline = Deadline(limits.deadline)
    try:
        return _archive_into(res, wanted, url, commit, ids, timeout, limits, deadline, progress)
    finally:
        deadline.cancel()


def _archive_into(
    res, wanted, url, commit, ids: tuple[dict[str, str], Known], timeout, limits, deadline, progress
):
    try:
        resp = open_url(url, timeout, deadline)
    except urllib.error.HTTPError as exc:
        res.network_error = f"{url}: HTTP {exc.code}"
        return res
    except Refused as exc:
        if deadline.expired:
            res.refused["(archive)"] = str(exc)
        else:
            res.network_error = str(exc)
        return res
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        res.network_error = f"{url}: {_network_reason(exc)}"
        return res
    with resp:
        total = resp.headers.get("Content-Length")
        task = (progress or null()).task(
            "downloading source archive",
            total=int(total) if total and total.isdigit() else None,
            unit="bytes",
        )
        try:
            capped = _Capped(resp, limits.archive, deadline, url, task)
            files, res.rejected = safe_extract(
                capped, wanted, commit=commit, limits=limits, what=url
            )
        except Refused as exc:
            res.refused["(archive)"] = str(exc)
            return res
        except OSError as exc:
            res.network_error = f"{url}: {_network_reason(exc)}"
            return res
    for rel in sorted(wanted):
        if rel in files:
            _check(rel, files[rel], *ids, res)
        else:
            res.not_found.append(rel)
    bad = sorted(set(res.refused) & set(files))
    if bad:
        # It names the commit asked for, yet holds other text: none of it is used.
        res.refused = {
            "(archive)": f"{url}: {len(bad)} members are not the text the lock records "
            f"(first: {bad[0]}: {res.refused[bad[0]]}): a tampered archive?"
        }
        res.files, res.verified, res.unverified, res.not_found = {}, {}, [], []
    return res
