"""tools.site.building: the address of mkdocs serve answers while the first build runs."""

from __future__ import annotations

import json
import socket
import urllib.request

from tools.site.building import HEADER, BuildingPage


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_address_says_the_site_is_being_built_then_is_freed():
    port = free_port()
    page = BuildingPage()
    assert page.start("127.0.0.1", port)
    try:
        assert not BuildingPage().start("127.0.0.1", port), "a taken address is said, not raised"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/chapters/03/") as got:
            html = got.read().decode()
            assert got.headers[HEADER] == "1" and got.headers["Cache-Control"] == "no-store"
        assert "Building the site" in html and "正在构建网站" in html
        page.page_done()
        page.page_done()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/__building__") as got:
            assert json.loads(got.read()) == {"pages": 2}
    finally:
        page.stop()
    with socket.socket() as s:  # mkdocs serve can bind it now (an HTTPServer reuses addresses)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
