"""Resolving trace locations to Go: the function, the case, and the line only when justified.

Source mode runs on our own fixture (``fixtures/k8s`` Go, ``fixtures/port`` Python); link-only
mode on the real port and the committed lock.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.trace import resolve
from tools.xref import build_index

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LOOP_PY = FIXTURES / "port" / "loop.py"
LOOP_GO = FIXTURES / "k8s" / "pkg" / "kubelet" / "loop.go"


def py_line(text: str, nth: int = 1) -> int:
    """The line of the ``nth`` occurrence of ``text`` in the fixture port."""
    found = [n for n, line in enumerate(LOOP_PY.read_text().splitlines(), 1) if text in line]
    return found[nth - 1]


def go_line(text: str, nth: int = 1) -> int:
    found = [n for n, line in enumerate(LOOP_GO.read_text().splitlines(), 1) if text in line]
    return found[nth - 1]


@pytest.fixture(scope="module")
def index():
    ix = build_index(
        FIXTURES,
        package="port",
        src=FIXTURES / "k8s",
        source_version="v1.21.3",
        lock_path=None,
        cache_dir=False,
        offline=True,
    )
    assert ix.mode == "source" and not ix.errors, ix.errors
    return ix


def trace_at(steps: list[tuple[str, int, dict]]) -> dict:
    """A trace with one step per (function, line, fields), each at its own location."""
    return {
        "locations": [{"py": "port/loop.py", "line": n, "fn": fn} for fn, n, _ in steps],
        "steps": [
            {"k": "log", "t": 0, "g": 1, "at": [i], **f} for i, (_, _, f) in enumerate(steps)
        ],
        "channels": [],
        "goroutines": [],
    }


def resolved(index, steps) -> list[dict | None]:
    trace = resolve(trace_at(steps), index, FIXTURES)
    assert trace["xref"]["mode"] == "source"
    return [loc.get("go") for loc in trace["locations"]]


SELECT = {"k": "select", "cases": [["r", 0], ["r", 1], ["r", 2]], "ready": [1], "chosen": 1}


def test_a_select_maps_each_case_index_to_its_go_case_and_its_select_line(index):
    line = py_line("match await select(recv(config_ch)")
    (go,) = resolved(index, [("Kubelet.sync_loop_iteration", line, SELECT)])
    assert go["symbol"] == "(*Kubelet).syncLoopIteration"
    assert go["cases"] == ["case u, open := <-configCh:", "case e := <-plegCh:", "case <-syncCh:"]
    assert go["default"] is None
    assert go["line"] == go_line("select {") and go["how"] == "select"
    assert [c[0] for c in go["case_lines"]] == [
        go_line("case u, open"),
        go_line("case e := <-plegCh"),
        go_line("case <-syncCh"),
    ]
    assert go["permalink"].endswith(f"/v1.21.3/pkg/kubelet/loop.go#L{go['line']}")


def test_a_select_with_default_maps_the_default_case(index):
    line = py_line("match await select(send(self.event_channel")
    step = {"k": "select", "cases": [["s", 0]], "ready": [], "chosen": -1}
    (go,) = resolved(index, [("Kubelet.relist", line, step)])
    assert go["cases"] == ["case kl.eventChannel <- events[i]:"]
    assert go["default"] == "default:"
    assert go["line"] == go_line("select {", 2)


def test_a_log_line_is_found_by_its_message_in_its_case(index):
    line = py_line('"SyncLoop ADD"')
    (go,) = resolved(index, [("Kubelet.sync_loop_iteration", line, {"msg": "SyncLoop ADD"})])
    assert go["line"] == go_line('"SyncLoop ADD"') and go["how"] == "message"
    assert go["case"] == "case u, open := <-configCh:"


def test_a_message_written_twice_is_not_guessed(index):
    """Two logs with one message in the case: the case is known, the line is not claimed."""
    line = py_line('"SyncLoop (PLEG)", again')
    (go,) = resolved(index, [("Kubelet.sync_loop_iteration", line, {"msg": "SyncLoop (PLEG)"})])
    assert go["how"] == "case" and go["case"] == "case e := <-plegCh:"
    assert go["line"] == go_line("case e := <-plegCh")
    assert (go["from"], go["to"]) == (go_line("case e := <-plegCh"), go_line("case <-syncCh") - 1)


def test_runtime_calls_and_goroutines_are_found_by_what_they_call(index):
    go_step, cri_step = resolved(
        index,
        [
            ("Kubelet.relist", py_line("go(self.watch)"), {"k": "go", "id": 2, "name": "watch"}),
            (
                "Kubelet.relist",
                py_line("start_container"),
                {"k": "cri", "op": "StartContainer", "pod": "p", "on": "c"},
            ),
        ],
    )
    assert go_step["line"] == go_line("go kl.watch()") and go_step["how"] == "call"
    assert cri_step["line"] == go_line(".StartContainer(") and cri_step["how"] == "call"


def test_sends_and_receives_are_found_by_their_channel_operation(index):
    """A receive from ``range`` over a channel, a ``<-`` receive and a send statement; a
    function's ``range`` over a slice is not taken for the receive."""
    loop, done, wait = resolved(
        index,
        [
            (
                "PodWorkers.manage_pod_loop",
                py_line("async for update in pod_updates"),
                {"k": "recv", "ch": 0, "v": "u", "ok": True, "waited": False},
            ),
            (
                "PodWorkers.manage_pod_loop",
                py_line("await done.send(None)"),
                {"k": "send", "ch": 1, "v": "x", "waited": False},
            ),
            (
                "PodWorkers.wait_for",
                py_line("err = await result.recv()"),
                {"k": "recv", "ch": 2, "v": None, "ok": True, "waited": True},
            ),
        ],
    )
    assert loop["line"] == go_line("for update := range podUpdates") and loop["how"] == "channel"
    assert done["line"] == go_line("done <- struct{}{}") and done["how"] == "channel"
    assert wait["line"] == go_line("err := <-result") and wait["how"] == "channel"
    assert (wait["from"], wait["to"]) == (wait["line"], wait["line"])


def test_a_line_outside_any_mapped_function_has_no_go(index):
    (go,) = resolved(index, [("Kubelet", py_line("class Kubelet"), {"msg": "x"})])
    assert go is None


def test_link_only_gives_cases_and_functions_never_a_line_it_cannot_read(monkeypatch):
    """The real port against the committed lock: cases from facts, no invented Go lines."""
    from minikubelet.sim.trace import recording
    from tests.conftest import ROOT

    monkeypatch.delenv("K8S_SRC", raising=False)
    monkeypatch.chdir(ROOT)
    index = build_index(ROOT, offline=True, cache_dir=False)
    if index.mode != "link-only":
        pytest.skip("the Go source is cached here; this test is about builds without it")
    from minikubelet.sim import cli

    with recording() as rec:
        assert cli.main(["run", "--manifests", "examples/static-pods", "--until", "3s"]) == 0
    trace = resolve(rec.trace(), index, ROOT)
    assert trace["xref"]["mode"] == "link-only"
    by_py = {(loc["py"], loc["fn"]): loc.get("go") for loc in trace["locations"]}
    loop = next(
        loc["go"]
        for loc in trace["locations"]
        if loc["fn"] == "Kubelet.sync_loop_iteration" and loc.get("go", {}).get("cases")
    )
    assert loop["cases"][0] == "case u, open := <-configCh:" and len(loop["cases"]) == 7
    # A line only where the lock records an anchored block's (how == "case"), never one read.
    assert loop["how"] in ("case", "function")
    assert (loop["line"] is None) == (loop["how"] == "function")
    for go in by_py.values():
        if go is not None:
            assert go["how"] in ("case", "function"), go  # no text: nothing found by reading it
