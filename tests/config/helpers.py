"""Small builders shared by the config tests."""

from __future__ import annotations

import textwrap
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from minikubelet.config.manifest import load_pods
from minikubelet.k8s_io.api.core.v1 import Pod


def manifest(name: str, image: str = "nginx:1.21", namespace: str = "", extra: str = "") -> str:
    """A one-container pod manifest as YAML text; ``extra`` is appended as is."""
    ns = f"  namespace: {namespace}\n" if namespace else ""
    return (
        "apiVersion: v1\nkind: Pod\nmetadata:\n"
        f"  name: {name}\n{ns}"
        "spec:\n  containers:\n  - name: main\n"
        f"    image: {image}\n"
    ) + textwrap.dedent(extra)


def pod(name: str, uid: str, image: str = "nginx:1.21") -> Pod:
    """A pod with a namespace and a UID, as a source would send it."""
    pods, errors = load_pods(manifest(name, image, namespace="default"), f"<{name}>")
    assert not errors, errors
    pods[0].metadata.uid = uid
    return pods[0]


class Server:
    """A local HTTP server whose one page can be changed between requests.

    With ``pages``, the n-th request gets the n-th page (the last one repeats) instead of
    ``body``: the page then changes with kubelet's polls, whatever the clock does.
    """

    def __init__(self, pages: list[bytes] | None = None) -> None:
        self.status = 200
        self.body = b""
        self.pages = pages
        self.requests = 0
        #: Bytes added to the Content-Length the server declares (a body cut short).
        self.short_by = 0
        #: Send the body as one chunk and no last chunk (a chunked body cut short).
        self.chunked = False
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                outer.requests += 1
                body = outer.body
                if outer.pages:
                    body = outer.pages[min(outer.requests, len(outer.pages)) - 1]
                self.send_response(outer.status)
                if outer.chunked:
                    # One chunk, then the connection closes with no last (empty) chunk.
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(body) + outer.short_by, body))
                    self.close_connection = True
                    return
                self.send_header("Content-Length", str(len(body) + outer.short_by))
                self.end_headers()
                self.wfile.write(body)
                if outer.short_by:
                    self.close_connection = True

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/pods"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
