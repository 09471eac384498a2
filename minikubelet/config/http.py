"""The HTTP source: pods polled from a URL (kubelet's ``--manifest-url``).

Go: pkg/kubelet/config/http.go

Every ``period`` (``--http-check-frequency``, 20 s by default) kubelet GETs the URL. The body is
one pod or a ``PodList``; when it differs from the last body, all its pods are sent as a SET.
The request runs in a worker thread
([`minikubelet.go.to_thread`][minikubelet.go.to_thread]): under the virtual clock time
stands still while it is under way.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from minikubelet.config.common import maxConfigLength, try_decode_pods
from minikubelet.go import Second, SendChan, go, to_thread
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import until
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.types import HTTPSource, PodOperation, PodUpdate

#: Go: http.Client{Timeout: 10 * time.Second}
clientTimeout = 10 * Second


def _unread_length(resp: Any) -> int:
    """Bytes the response's Content-Length still promises after the read (0 when none).

    Ours: urllib hides the length in the wrapped response of an HTTPError.
    """
    length = getattr(resp, "length", None)
    if length is None:
        length = getattr(getattr(resp, "fp", None), "length", None)
    return length or 0


class SourceURL:
    """Go: pkg/kubelet/config/http.go type sourceURL"""

    def __init__(
        self, url: str, header: dict[str, str], node_name: str, updates: SendChan[Any]
    ) -> None:
        self.url = url
        self.header = header
        self.node_name = node_name
        self.updates = updates
        #: The last body read, to send nothing when it did not change.
        self.data: bytes | None = None
        self.failure_logs = 0

    async def run(self) -> None:
        """Read the URL once; log failures, quieter after the third in a row.

        Go: pkg/kubelet/config/http.go (*sourceURL).run
        """
        try:
            await self.extract_from_url()
        except Exception as err:
            # The URL is polled every 20 s: an unreachable one would fill the log.
            if self.failure_logs < 3:
                klog.info_s("Failed to read pods from URL", err=err)
            elif self.failure_logs == 3:
                klog.info_s(
                    "Failed to read pods from URL. Dropping verbosity of this message to V(4)",
                    err=err,
                )
            else:
                klog.v(4).info_s("Failed to read pods from URL", err=err)
            self.failure_logs += 1
        else:
            if self.failure_logs > 0:
                klog.info_s("Successfully read pods from URL")
                self.failure_logs = 0

    def _get(self) -> tuple[int, str, bytes]:
        """The blocking GET: status code, reason and at most maxConfigLength + 1 bytes.

        Go's ``http.Client{Timeout}`` bounds the whole request, from connecting to the last byte
        of the body; a socket timeout bounds each read only, so a server that trickles a byte
        every few seconds would hold the request forever. A watchdog shuts the connection's
        socket down when the whole request has taken ``clientTimeout`` of real time (the request
        runs in a thread, outside the virtual clock).
        """
        scheme = urllib.parse.urlsplit(self.url).scheme
        if scheme not in ("http", "https"):
            # Go's http.Client speaks HTTP only; urllib would also open file:// and ftp:// URLs.
            raise ValueError(f'Get "{self.url}": unsupported protocol scheme "{scheme}"')
        watchdog = _Watchdog(clientTimeout)
        opener = urllib.request.build_opener(
            _WatchedHTTPHandler(watchdog), _WatchedHTTPSHandler(watchdog)
        )
        req = urllib.request.Request(self.url, headers=self.header, method="GET")
        in_body = False
        with watchdog:
            try:
                try:
                    resp = opener.open(req, timeout=clientTimeout)
                except urllib.error.HTTPError as err:
                    resp = err
                in_body = True
                with resp:
                    body = resp.read(maxConfigLength + 1)
                    missing = _unread_length(resp)
                if not watchdog.fired:
                    if missing and len(body) <= maxConfigLength:
                        # Go's reader fails on a body that ends before its Content-Length
                        # (io.ErrUnexpectedEOF); urllib returns the short body as if whole,
                        # and taking it would replace the source's pods with what arrived.
                        raise EOFError("unexpected EOF")
                    return resp.status, resp.reason, body
            except http.client.IncompleteRead as err:
                # A chunked body cut short: the same error in Go's client.
                if not watchdog.fired:
                    raise EOFError("unexpected EOF") from err
            except (OSError, http.client.HTTPException) as err:
                if not watchdog.fired:
                    # Go's client errors name the request: Get "<url>": <what went wrong>.
                    reason = getattr(err, "reason", err)
                    detail = getattr(reason, "strerror", None) or str(reason)
                    raise OSError(f'Get "{self.url}": {detail[:1].lower()}{detail[1:]}') from err
        # Go's net/http words for the two ways its client timeout ends a request.
        if in_body:
            raise TimeoutError(
                "context deadline exceeded "
                "(Client.Timeout or context cancellation while reading body)"
            )
        raise TimeoutError(
            f'Get "{self.url}": context deadline exceeded '
            "(Client.Timeout exceeded while awaiting headers)"
        )

    async def extract_from_url(self) -> None:
        """GET the URL and send its pods as a SET if the body changed.

        Go: pkg/kubelet/config/http.go (*sourceURL).extractFromURL

        Raises where Go returns an error: the request failed, the body ended before its
        Content-Length (the source's pods stay as they were), the status is not 200 OK, the body
        is empty (after sending an empty SET, as Go does) or is not a valid pod or pod list.
        """
        status, reason, data = await to_thread(self._get)
        if len(data) > maxConfigLength:
            raise ValueError(f"{self.url}: larger than {maxConfigLength} bytes")
        if status != 200:
            raise RuntimeError(f"{self.url}: {status} {reason}")
        if len(data) == 0:
            # Still a SET: the source has answered, so kubelet may stop waiting for it.
            await self.updates.send(PodUpdate(pods=[], op=PodOperation.SET, source=HTTPSource))
            raise ValueError(f"zero-length data received from {self.url}")
        if data == self.data:
            return
        self.data = data

        # Go tries a single pod, then a pod list; the port's loader accepts either in one pass.
        pods, errors = try_decode_pods(
            data,
            self.url,
            False,
            self.node_name,
            allow_pod_list=True,
        )
        if errors:
            raise errors[0]
        await self.updates.send(PodUpdate(pods=pods, op=PodOperation.SET, source=HTTPSource))


def new_source_url(
    url: str, header: dict[str, str], node_name: str, period: float, updates: SendChan[Any]
) -> None:
    """Start polling ``url`` every ``period``; its pods are sent on ``updates``.

    Go: pkg/kubelet/config/http.go NewSourceURL
    """
    config = SourceURL(url, header, node_name, updates)
    klog.v(1).info_s("Watching URL", URL=url)
    go(until, config.run, period, None, name="sourceURL.run")


class _Watchdog:
    """Shuts down the sockets of one request once ``timeout`` seconds of real time have passed.

    Ours: how the port gives a request the whole-request bound of Go's ``http.Client.Timeout``.
    """

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.fired = False
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._timer = threading.Timer(timeout, self._fire)
        self._timer.daemon = True

    def track(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            if self.fired:
                self._shut(sock)

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            for sock in self._sockets:
                self._shut(sock)

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> _Watchdog:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()


def _watched(base: type[http.client.HTTPConnection], watchdog: _Watchdog) -> Any:
    """A connection class like ``base`` whose socket the watchdog can shut down."""

    class Watched(base):  # type: ignore[valid-type, misc]
        def connect(self) -> None:
            super().connect()
            watchdog.track(self.sock)

    return Watched


class _WatchedHTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, watchdog: _Watchdog) -> None:
        super().__init__()
        self._conn = _watched(http.client.HTTPConnection, watchdog)

    def http_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(self._conn, req)


class _WatchedHTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, watchdog: _Watchdog) -> None:
        super().__init__()
        self._conn = _watched(http.client.HTTPSConnection, watchdog)

    def https_open(self, req: urllib.request.Request) -> Any:
        # urllib keeps the handler's SSL context in a private attribute that typeshed omits.
        return self.do_open(self._conn, req, context=self._context)  # type: ignore[attr-defined]
