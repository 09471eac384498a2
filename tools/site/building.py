"""While ``mkdocs serve`` builds the site the first time, its address already answers (ours).

``mkdocs serve`` (``make serve``) binds its address only once the first build is done, and
that build runs the port for every page's examples and traces: a reader who opens the address
meanwhile gets "connection refused", for half a minute or more on a fresh clone. The hooks
start this page on that address when the build begins and stop it when the build is over:
until then every request gets a page, in both languages, that says the site is being built and
how many pages are done, and opens the site by itself once mkdocs serves it.
"""

from __future__ import annotations

import http.server
import json
import threading
from typing import Any

from tools.site.render import render

#: The header that marks the waiting page (the page polls until a response lacks it).
HEADER = "X-Minikubelet-Building"


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:
        if self.path.startswith("/__building__"):
            body = json.dumps({"pages": self.server.pages}).encode()
            kind = "application/json"
        else:
            body = render("building.html.j2", header=HEADER).encode()
            kind = "text/html; charset=utf-8"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Cache-Control", "no-store")
        self.send_header(HEADER, "1")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass  # no line per request


class _Server(http.server.ThreadingHTTPServer):
    allow_reuse_address = True
    daemon_threads = True
    pages = 0


class BuildingPage:
    """The waiting page on ``host:port`` while the first build runs."""

    def __init__(self) -> None:
        self._server: _Server | None = None

    def start(self, host: str, port: int) -> bool:
        """Answer on the address; False when it is taken (mkdocs will say so itself)."""
        try:
            self._server = _Server((host, port), _Handler)
        except OSError:
            return False
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return True

    def page_done(self) -> None:
        if self._server is not None:
            self._server.pages += 1

    def stop(self) -> None:
        """Free the address for mkdocs' own server."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
