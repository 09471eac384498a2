"""What the page's player loads: the steps a directive keeps, their sentences, state and code."""

from __future__ import annotations

import json

import pytest

from minikubelet.sim.trace.explain import channel_of_case
from tests.conftest import ROOT
from tools.site.directives import DirectiveError, parse
from tools.site.trace import options
from tools.trace import record
from tools.trace.player import Options, build
from tools.xref import build_index

FLAKY = (
    "minikubelet run --manifests examples/static-pods --scenario "
    "examples/scenarios/flaky-node.yaml --until 8s -v 4 --seed {seed}"
)
LOOP = Options(
    kinds=("select", "wait", "log"), focus=("(*Kubelet).syncLoopIteration",), grep="^SyncLoop"
)


@pytest.fixture(scope="module")
def index():
    return build_index(ROOT, offline=True)


@pytest.fixture(scope="module")
def traces(index):
    return {seed: record(FLAKY.format(seed=seed), index=index) for seed in (0, 1)}


def replay(player: dict) -> list[dict]:
    """The state after each step, as trace.js computes it: init, then each delta applied."""
    state = {part: dict(player["init"].get(part, {})) for part in ("ch", "w", "p")}
    out = []
    for step in player["steps"]:
        for part, changes in step.get("d", {}).items():
            state[part] = {**state[part], **changes}
        out.append({part: dict(v) for part, v in state.items()})
    return out


def test_seeds_0_and_1_take_different_cases_among_the_same_ready_ones(traces, index):
    players = [build(traces[s], index, ROOT, lang="en", trace_id="x", options=LOOP) for s in (0, 1)]
    first = [p["steps"][0] for p in players]
    assert all(s["k"] == "select" and len(s["r"]) == 3 for s in first)
    assert first[0]["r"] == first[1]["r"] and first[0]["c"] != first[1]["c"]
    assert first[0]["s"] == (
        "select: 3 cases ready (configCh, syncCh, housekeepingCh); chose syncCh (tick 1s)"
    )
    assert first[1]["s"].startswith("select: 3 cases ready (configCh, syncCh, housekeepingCh); ")
    assert "chose configCh (ADD file [default/nginx-minikubelet" in first[1]["s"]


def test_each_step_lights_the_select_and_knows_its_cases_lines(traces, index):
    player = build(traces[0], index, ROOT, lang="en", trace_id="x", options=LOOP)
    loc = player["locs"][player["steps"][0]["l"]]
    fn = player["fns"][loc["f"]]
    assert fn["fn"] == "Kubelet.sync_loop_iteration" and fn["go"]["sym"] == (
        "(*Kubelet).syncLoopIteration"
    )
    assert loc["names"] == [
        "configCh",
        "plegCh",
        "syncCh",
        "kl.livenessManager.Updates()",
        "kl.readinessManager.Updates()",
        "kl.startupManager.Updates()",
        "housekeepingCh",
    ]
    py_lines = [pair[1] for pair in loc["sel"]]
    assert py_lines == sorted(py_lines) and all(fn["ps"] < n for n in py_lines)
    first = fn["ps"]
    # The Python line of each case is its anchor comment, in the function's code.
    texts = [fn["lines"][n - first] for n in py_lines]
    assert "# Go: case u, open := &lt;-configCh:" in texts[0]
    assert "# Go: case &lt;-housekeepingCh:" in texts[6]


def test_the_replayed_state_is_the_runs_state(traces, index):
    player = build(traces[0], index, ROOT, lang="en", trace_id="x", options=LOOP)
    states = replay(player)
    labels = {c["id"]: c["label"] for c in player["chans"]}
    ids = {v: k for k, v in labels.items()}
    first = states[0]["ch"]
    # After the first select took syncCh's tick: the ADD and the housekeeping tick still wait.
    assert first[str(ids["syncCh"])] == []
    assert first[str(ids["configCh"])] == [
        "ADD file [default/nginx-minikubelet default/web-with-setup-minikubelet]"
    ]
    assert first[str(ids["housekeepingCh"])] == ["tick 2s"]
    # The state at every kept step is what the raw trace says at that step.
    raw = traces[0]
    kept = [
        i
        for i, s in enumerate(raw["steps"])
        if s["k"] in LOOP.kinds
        and (s["k"] != "log" or s["msg"].startswith("SyncLoop"))
        and any(
            raw["locations"][j].get("go", {}).get("symbol") == "(*Kubelet).syncLoopIteration"
            for j in s["at"][:1]
        )
    ]
    assert len(kept) == len(player["steps"])
    for k, i in enumerate(kept):
        bufs: dict[int, list[str]] = {}
        for s in raw["steps"][: i + 1]:
            for cid, items in s.get("bufs", ()):
                bufs[cid] = items
        for cid in labels:
            assert states[k]["ch"].get(str(cid), []) == bufs.get(cid, []), (k, labels[cid])


def test_sentences_in_chinese(traces, index):
    player = build(traces[1], index, ROOT, lang="zh", trace_id="x", options=LOOP)
    said = [s["s"] for s in player["steps"]]
    assert said[0].startswith(
        "select：3 个 case 就绪（configCh、syncCh、housekeepingCh），随机选中 configCh"
    )
    assert any(s.startswith("select 被唤醒：") for s in said)
    assert any("阻塞" in s for s in said)


def test_options_keep_what_they_say(traces, index):
    raw = traces[0]
    late = build(raw, index, ROOT, lang="en", trace_id="x", options=Options(start=7.0, end=7.5))
    assert late["steps"] and all(7e9 <= s["t"] <= 7.5e9 for s in late["steps"])
    few = build(raw, index, ROOT, lang="en", trace_id="x", options=Options(limit=5))
    assert len(few["steps"]) == 5 and few["total"] > 5
    logs = build(raw, index, ROOT, lang="en", trace_id="x", options=Options(kinds=("log",)))
    assert {s["k"] for s in logs["steps"]} == {"log"}


def test_a_player_is_deterministic_and_small(traces, index):
    a = build(traces[0], index, ROOT, lang="en", trace_id="x", options=LOOP)
    b = build(
        record(FLAKY.format(seed=0), index=index),
        index,
        ROOT,
        lang="en",
        trace_id="x",
        options=LOOP,
    )
    text = json.dumps(a, ensure_ascii=False, separators=(",", ":"))
    assert text == json.dumps(b, ensure_ascii=False, separators=(",", ":"))
    assert len(text.encode()) < 200_000


@pytest.mark.parametrize(
    ("case", "channel"),
    [
        ("case u, open := <-configCh:", "configCh"),
        ("case <-syncCh:", "syncCh"),
        ("case update := <-kl.livenessManager.Updates():", "kl.livenessManager.Updates()"),
        ("case g.eventChannel <- events[i]:", "g.eventChannel"),
        ("case err = <-w.Errors:", "w.Errors"),
        (
            "case m.podStatusChannel <- podStatusSyncRequest{pod.UID, newStatus}:",
            "m.podStatusChannel",
        ),
        ("default:", None),
    ],
)
def test_channel_of_a_go_case(case, channel):
    assert channel_of_case(case) == channel


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{{ trace("minikubelet run", kinds=["nope"]) }}', "kinds: unknown ['nope']"),
        ('{{ trace("minikubelet run", colour="red") }}', "unknown options ['colour']"),
        ('{{ trace("minikubelet run", start="soon") }}', "start:"),
        ('{{ trace("minikubelet run", grep="(") }}', "grep: bad regular expression"),
    ],
)
def test_bad_directive_options_are_refused_with_what_is_wrong(line, message):
    with pytest.raises(DirectiveError, match=None) as err:
        options(parse(line))
    assert message in str(err.value)


def test_a_newer_update_is_said_to_replace_the_waiting_one(index):
    trace = record(
        "minikubelet run --api-script examples/api/updates-during-a-sync.yaml --until 25s",
        index=index,
    )
    said = {
        lang: [
            s["s"]
            for s in build(
                trace, index, ROOT, lang=lang, trace_id="x", options=Options(kinds=("worker",))
            )["steps"]
        ]
        for lang in ("en", "zh")
    }
    assert said["en"][1:4] == [
        "the pod worker of default/web is busy: the update waits in lastUndeliveredWorkUpdate "
        "(sync default/web)",
        "the pod worker of default/web is busy: this update replaces the one waiting in "
        "lastUndeliveredWorkUpdate (update default/web)",
        "the pod worker of default/web is busy: this update replaces the one waiting in "
        "lastUndeliveredWorkUpdate (update default/web)",
    ]
    assert "替换" in said["zh"][2] and "替换" in said["zh"][3] and "替换" not in said["zh"][1]
