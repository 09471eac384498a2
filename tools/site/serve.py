"""A built site served on 127.0.0.1 (a free port), quietly, while a tool or a test reads it.

The PDF book (`tools.site.book`), the browser tests (``tests/site``) and the page-weight
benchmark load the site over HTTP, as a reader's browser would.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass  # no line per request


@contextmanager
def served(root: Path) -> Iterator[str]:
    """Serve the folder ``root`` while the block runs; its base URL, ``http://127.0.0.1:N/``."""
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
