"""The HTTP source: pods polled from a URL (kubelet's ``--manifest-url``).

Go: pkg/kubelet/config/http.go

Every ``period`` (``--http-check-frequency``, 20 s by default) kubelet GETs the URL. The body is
one pod or a ``PodList``; when it differs from the last body, all its pods are sent as a SET.
The request runs in a worker thread (:func:`minikubelet.sim.go.to_thread`): under the virtual clock
time stands still while it is under way.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any

from minikubelet.config.common import maxConfigLength, try_decode_pods
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import until
from minikubelet.sim import klog
from minikubelet.sim.go import Second, SendChan, go, to_thread
from minikubelet.types import HTTPSource, PodOperation, PodUpdate

#: Go: http.Client{Timeout: 10 * time.Second}
clientTimeout = 10 * Second


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
            # Don't log this multiple times per minute. The first few entries should be
            # enough to get the point across.
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
        """The blocking GET: status code, reason and at most maxConfigLength + 1 bytes."""
        req = urllib.request.Request(self.url, headers=self.header, method="GET")
        try:
            with urllib.request.urlopen(req, timeout=clientTimeout) as resp:
                return resp.status, resp.reason, resp.read(maxConfigLength + 1)
        except urllib.error.HTTPError as err:
            return err.code, err.reason, err.read(maxConfigLength + 1)

    async def extract_from_url(self) -> None:
        """GET the URL and send its pods as a SET if the body changed.

        Go: pkg/kubelet/config/http.go (*sourceURL).extractFromURL

        Raises where Go returns an error: the request failed, the status is not 200 OK, the body
        is empty (after sending an empty SET, as Go does) or is not a valid pod or pod list.
        """
        status, reason, data = await to_thread(self._get)
        if len(data) > maxConfigLength:
            raise ValueError(f"{self.url}: larger than {maxConfigLength} bytes")
        if status != 200:
            raise RuntimeError(f"{self.url}: {status} {reason}")
        if len(data) == 0:
            # Emit an update with an empty PodList to allow HTTPSource to be marked as seen
            await self.updates.send(PodUpdate(pods=[], op=PodOperation.SET, source=HTTPSource))
            raise ValueError(f"zero-length data received from {self.url}")
        # Short circuit if the data has not changed since the last time it was read.
        if data == self.data:
            return
        self.data = data

        # First try as it is a single pod, then as a list of pods (Go tries the two decoders
        # one after the other; the port's loader accepts either kind in one pass).
        pods, errors = try_decode_pods(
            data.decode("utf-8", errors="replace"),
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
