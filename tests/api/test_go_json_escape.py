"""Go's JSON string escaping: the fast path for strings with nothing to escape is exact."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from minikubelet.k8s_io.api.core.v1.go_json import _escape


@given(st.text())
def test_the_fast_path_writes_what_the_character_loop_writes(s: str) -> None:
    # A quote appended sends the whole string through the character loop; the part before
    # it must come out as the fast path (or the loop, if s needs escaping) wrote it.
    assert _escape(s + '"') == _escape(s)[:-1] + '\\""'


def test_each_character_go_escapes_is_escaped() -> None:
    assert _escape("<a&b>") == '"\\u003ca\\u0026b\\u003e"'
    assert _escape('say "hi"\\\n') == '"say \\"hi\\"\\\\\\n"'
    assert _escape("\u2028\x01") == '"\\u2028\\u0001"'
    assert _escape("plain é 中") == '"plain é 中"'
