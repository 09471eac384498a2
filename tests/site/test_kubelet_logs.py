"""The "Reading a real kubelet" table is read from the port: every message is where it says."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT
from tools.site.directives import DirectiveError
from tools.site.kubelet_logs import ENTRIES, find_site, kubelet_logs_table


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_message_of_the_table_is_written_by_the_port(lang: str) -> None:
    table = kubelet_logs_table(ROOT, lang)
    for e in ENTRIES:
        site = find_site(ROOT, e.needle)
        source = (ROOT / site.py_file).read_text(encoding="utf-8").splitlines()
        assert any(e.needle in line for line in source[site.line - 1 : site.line + 6]), e.needle
        assert site.go_path and site.go_symbol, f"{e.needle}: no Go: line above {site.py_file}"
        assert f"`{site.py_file}:{site.line}`" in table
        assert (ROOT / "docs" / "chapters" / e.chapter).is_file(), e.chapter
    assert "| `SyncLoop ADD` |" in table and "| -v 2 |" in table


def test_a_message_the_port_does_not_write_fails_the_build() -> None:
    with pytest.raises(DirectiveError, match="no call in the port writes"):
        find_site(ROOT, "this message is not in the port")


@pytest.mark.parametrize("page", ["real-kubelet.md", "real-kubelet.zh.md"])
def test_the_page_shows_the_generated_table(page: str) -> None:
    assert "{{ kubelet_logs() }}" in (ROOT / "docs" / page).read_text(encoding="utf-8")


def test_a_change_to_the_port_is_read_again(tmp_path) -> None:
    module = tmp_path / "minikubelet" / "loop.py"
    module.parent.mkdir()
    body = 'def sync():\n    """Go: pkg/kubelet/kubelet.go (*Kubelet).syncLoop"""\n'
    module.write_text(body + '    klog.info_s("Hello from the loop")\n', encoding="utf-8")
    assert find_site(tmp_path, "Hello from").line == 3
    module.write_text(body + "    pass\n" * 2 + '    klog.info_s("Hello from the loop")\n')
    assert find_site(tmp_path, "Hello from").line == 5, "the port's new text, not the old one"
