"""tree-sitter-go index: symbols, receivers, interfaces, cases, syntax errors."""

from __future__ import annotations

import re
from importlib.metadata import version

import pytest

from tools.xref.go_index import GoCase, index_bytes, normalize_case

from .conftest import FIXTURES, K8S, KUBELET_GO


def _index(rel: str):
    return index_bytes(rel, (K8S / rel).read_bytes())


def _vtuple(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v)[:2])


def test_pinned_py_tree_sitter_has_query_cursor():
    # DESIGN: QueryCursor arrived in 0.25 and Language.query went away in 0.26.
    import tree_sitter

    assert (0, 25) <= _vtuple(version("tree-sitter")) < (0, 27)
    assert (0, 25) <= _vtuple(version("tree-sitter-go")) < (0, 26)
    assert hasattr(tree_sitter, "QueryCursor") and hasattr(tree_sitter.QueryCursor, "matches")


def test_functions_methods_types_with_exact_lines():
    f = _index(KUBELET_GO)
    got = {s.symbol: (s.kind, s.start, s.end) for s in f.symbols}
    assert got["NewKubelet"] == ("func", 36, 38)
    assert got["(*Kubelet).syncLoopIteration"] == ("method", 41, 70)  # pointer receiver
    assert got["(*Kubelet).note"] == ("method", 72, 88)
    assert got["(Pod).Describe"] == ("method", 91, 99)  # value receiver
    assert got["type Kubelet"] == ("type", 30, 33)
    assert got["type Pod"] == ("type", 20, 22)
    # a `type ( … )` group: each spec on its own line, aliases included
    assert got["type podSet"] == ("type", 25, 25)
    assert got["type callback"] == ("type", 26, 26)


def test_interfaces_and_their_method_set():
    f = _index(KUBELET_GO)
    assert f.get("type SyncHandler")[1:4] == ("interface", 12, 17)
    methods = [s.symbol for s in f.symbols if s.kind == "iface_method"]
    assert methods == [
        "SyncHandler.HandlePodAdditions",
        "SyncHandler.HandlePodUpdates",
        "SyncHandler.HandlePodSyncs",
        "SyncHandler.HandlePodCleanups",
    ]
    assert f.get("SyncHandler.HandlePodCleanups")[2:4] == (16, 16)


def test_select_and_switch_cases_with_lines():
    cases = _index(KUBELET_GO).get("(*Kubelet).syncLoopIteration").cases
    assert cases == (
        GoCase("case u, open := <-configCh:", "select", 44, 58),
        GoCase("case kubetypes.ADD:", "switch", 49, 50),
        # a header over two lines with a comment in it: comment dropped, whitespace normalised
        GoCase("case kubetypes.UPDATE, kubetypes.DELETE:", "switch", 51, 53),
        GoCase("case kubetypes.SET:", "switch", 54, 54),
        GoCase("default:", "switch", 56, 57),
        GoCase("case e := <-plegCh:", "select", 59, 60),
        GoCase("case <-syncCh:", "select", 61, 62),  # the blank line after it is not its
        GoCase("case <-housekeepingCh:", "select", 64, 67),
    )


def test_repeated_case_text_and_cases_in_func_literals():
    cases = _index(KUBELET_GO).get("(*Kubelet).note").cases
    assert [(c.header, c.start) for c in cases] == [
        ('case s == "":', 74),
        ("case len(s) > 10:", 76),
        ('case s == "":', 80),
        ("case <-time.After(time.Second):", 85),  # inside `go func() { select … }()`
    ]


def test_type_switch_cases():
    cases = _index(KUBELET_GO).get("(Pod).Describe").cases
    assert [(c.header, c.kind) for c in cases] == [
        ("case string:", "typeswitch"),
        ("case int, int64:", "typeswitch"),
    ]


def test_select_send_case_and_default():
    f = _index("pkg/kubelet/pod_workers.go")
    assert [c.header for c in f.get("(*podWorkers).UpdatePod").cases] == [
        "case ch <- name:",
        "default:",
    ]
    assert f.get("(*podWorkers).managePodLoop").cases == ()


def test_malformed_go_reports_error_nodes_and_keeps_what_parses():
    f = index_bytes("broken.go", (FIXTURES / "gotree" / "broken.go").read_bytes())
    assert f.get("ok")[2:4] == (5, 5)
    assert f.errors, "tree-sitter error nodes must be reported"
    assert all(isinstance(line, int) and line >= 7 for line, _, _ in f.errors)
    assert any("missing" in what for _, _, what in f.errors)


@pytest.mark.parametrize(
    "src",
    [
        b"",
        b"package x\n",
        b"\x00\xff garbage {{{",
        b"func (",
        "package 中文\nfunc 名() {}\n".encode(),
    ],
)
def test_odd_input_never_crashes(src):
    f = index_bytes("odd.go", src)
    assert isinstance(f.symbols, list)


def test_keywords_in_comments_strings_and_names_are_not_statements():
    src = b"""package p
// switch select
func f(selector string) {
	s := "switch { case 1: }"
	switchy := 1
	_ = s; _ = switchy
}
"""
    assert index_bytes("p.go", src).get("f").cases == ()


def test_normalize_case():
    assert normalize_case("case a,\n\t\tb:") == "case a, b:"
    assert normalize_case("case a && // why\n\tb:") == "case a && b:"
    assert normalize_case('case "http://x", `/*y*/`:') == 'case "http://x", `/*y*/`:'
    assert normalize_case("case a /* x */ == b:") == "case a == b:"
