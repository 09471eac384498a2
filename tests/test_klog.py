"""Log lines read as kubelet's: klog v2 quotes the message and string values with Go's ``%q``,
so that a reader can grep a real kubelet log and ours with the same pattern."""

from __future__ import annotations

import io

import pytest

from minikubelet.k8s_io.klog.v2 import klog


@pytest.mark.parametrize(
    ("value", "go"),
    [
        ("plain words", '"plain words"'),
        ('say "hi"', '"say \\"hi\\""'),
        ("C:\\path", '"C:\\\\path"'),
        ("line\nnext", '"line\\nnext"'),
        ("tab\there", '"tab\\there"'),
        ("bell\a cr\r vt\v ff\f bs\b", '"bell\\a cr\\r vt\\v ff\\f bs\\b"'),
        ("nul\x00 esc\x1b del\x7f", '"nul\\x00 esc\\x1b del\\x7f"'),
        ("nbsp\u00a0 zwsp\u200b", '"nbsp\\u00a0 zwsp\\u200b"'),
        ("中文 Pod ✓", '"中文 Pod ✓"'),
        ("private \U000f0000", '"private \\U000f0000"'),
    ],
)
def test_strings_are_quoted_as_go_quotes_them(value, go):
    assert klog.quote(value) == go


def test_the_message_and_values_of_a_line_are_quoted_alike():
    out = io.StringIO()
    klog.configure(verbosity=0, out=out)
    try:
        klog.info_s("Probe\tfailed", output="exit\t1\n")
    finally:
        klog.configure(verbosity=0, out=None)
    assert out.getvalue().endswith('] "Probe\\tfailed" output="exit\\t1\\n"\n')
