"""Recording a run: the same seed gives the same bytes, the format follows its schema, and
recording changes nothing in the run it records."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from minikubelet import go
from minikubelet.go import Chan, Second, recv, select, send
from minikubelet.sim import cli
from minikubelet.sim.trace import RecordingError, dumps, recording
from minikubelet.sim.trace.recorder import SIM
from tests.conftest import ROOT

SCHEMA = json.loads((ROOT / "minikubelet/sim/trace/schema.json").read_text(encoding="utf-8"))
FLAKY = [
    "run",
    "--manifests",
    "examples/static-pods",
    "--scenario",
    "examples/scenarios/flaky-node.yaml",
    "--until",
    "8s",
    "-v",
    "4",
]


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def cli_trace(argv: list[str]) -> tuple[dict, str]:
    """Record ``minikubelet <argv>`` in-process: the trace (not resolved) and the output."""
    out = io.StringIO()
    with recording() as rec:
        assert cli.main(argv, out=out) == 0
    return rec.trace("minikubelet " + " ".join(argv)), out.getvalue()


def test_the_same_seed_gives_the_same_bytes_and_another_seed_another_run():
    a, _ = cli_trace([*FLAKY, "--seed", "0"])
    b, _ = cli_trace([*FLAKY, "--seed", "0"])
    c, _ = cli_trace([*FLAKY, "--seed", "1"])
    assert dumps(a) == dumps(b)
    assert dumps(a) != dumps(c)
    # The seeds differ in the first select with several ready cases (chapter 3's point).
    first = [
        (s["ready"], s["chosen"])
        for t in (a, c)
        for s in t["steps"]
        if s["k"] == "select" and len(s["ready"]) > 1
    ]
    assert first, "no select with several ready cases"


def test_the_same_seed_gives_the_same_file_in_another_process(tmp_path: Path):
    """Across interpreters (another hash seed for str), with --trace: the same bytes."""
    files = []
    for hash_seed in ("1", "2"):
        target = tmp_path / f"t{hash_seed}.json"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "minikubelet.sim.cli",
                *FLAKY,
                "--seed",
                "3",
                "--trace",
                str(target),
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "trace of " in done.stderr and str(target) in done.stderr
        files.append(target.read_bytes())
    assert files[0] == files[1]
    trace = json.loads(files[0])
    jsonschema.validate(trace, SCHEMA)
    assert trace["xref"]["tag"] == "v1.21.3"
    # The command says how to get the same run again, without the trace file's name.
    assert trace["command"] == "minikubelet " + " ".join([*FLAKY, "--seed", "3"])


def test_a_trace_follows_its_schema_with_every_kind_of_step():
    trace, _ = cli_trace(
        [
            "run",
            "--manifests",
            "examples/static-pods",
            "--api-script",
            "examples/api/pods.yaml",
            "--scenario",
            "examples/scenarios/flaky-node.yaml",
            "--until",
            "30s",
            "-v",
            "4",
        ]
    )
    jsonschema.validate(trace, SCHEMA)
    kinds = {s["k"] for s in trace["steps"]}
    assert kinds >= {"select", "wait", "send", "recv", "close", "sleep", "go", "worker", "cri"}
    assert kinds >= {"cgroup", "status", "log"}
    # Steps are in time order and name real goroutines, channels and locations.
    times = [s["t"] for s in trace["steps"]]
    assert times == sorted(times)
    goroutines = {g["id"] for g in trace["goroutines"]}
    assert {s["g"] for s in trace["steps"]} <= goroutines | {0}
    for s in trace["steps"]:
        assert all(0 <= i < len(trace["locations"]) for i in s["at"])
        for cid, _ in s.get("bufs", ()):
            assert 0 <= cid < len(trace["channels"])


def test_the_cgroup_tree_is_in_the_trace_located_at_the_cgroup_manager():
    trace, _ = cli_trace(["run", "--manifests", "examples/cgroups", "--until", "3s"])
    cgroups = [s for s in trace["steps"] if s["k"] == "cgroup"]
    pod_dir = "/kubepods/burstable/pod6f1c2a34-0d5e-4b7a-9c1e-5a0b3c2d1e0f"
    assert [(s["op"], s["path"]) for s in cgroups[:3]] == [
        ("mkdir", "/kubepods"),
        ("write", "/kubepods"),
        ("mkdir", "/kubepods/burstable"),
    ]
    made = next(s for s in cgroups if s["op"] == "write" and s["path"] == pod_dir)
    assert made["set"]["cpu.shares"] == 256
    assert made["set"]["memory.limit_in_bytes"] == 128 << 20
    # Written from the cgroup manager (the simulated tree is skipped), called by syncPod.
    where = [trace["locations"][i] for i in made["at"]]
    assert where[0]["py"] == "minikubelet/cm/cgroup_manager_linux.py"
    assert "Kubelet.sync_pod" in [w["fn"] for w in where]
    jsonschema.validate(trace, SCHEMA)


def test_schema_refuses_what_the_format_does_not_allow():
    trace, _ = cli_trace(["run", "--manifests", "examples/static-pods", "--until", "2s"])
    select = next(s for s in trace["steps"] if s["k"] == "select")
    del select["chosen"]
    with pytest.raises(jsonschema.ValidationError, match="chosen"):
        jsonschema.validate(trace, SCHEMA)


def test_recording_does_not_change_the_run():
    plain = io.StringIO()
    assert cli.main([*FLAKY, "--seed", "1"], out=plain) == 0
    _, traced = cli_trace([*FLAKY, "--seed", "1"])
    assert traced == plain.getvalue()


def test_a_select_records_its_ready_cases_its_choice_and_the_buffers():
    async def main() -> None:
        a, b = Chan[int](cap=2, name="a"), Chan[int](cap=1, name="b")
        await a.send(1)
        await a.send(2)
        await b.send(3)
        await select(recv(a), recv(b))
        await select(send(b, 4), default=True)  # b is full unless the select took b's 3

    with recording() as rec:
        go.run(main, seed=5)
    trace = rec.trace()
    sends = [s for s in trace["steps"] if s["k"] == "send"]
    assert [(s["v"], s["waited"]) for s in sends] == [("1", False), ("2", False), ("3", False)]
    assert sends[1]["bufs"] == [[0, ["1", "2"]]]
    first, second = (s for s in trace["steps"] if s["k"] == "select")
    assert first["ready"] == [0, 1] and first["chosen"] in (0, 1)
    assert first["cases"] == [["r", 0], ["r", 1]]
    took_b = first["chosen"] == 1
    assert first["v"] == ("3" if took_b else "1")
    assert first["bufs"] == ([[1, []]] if took_b else [[0, ["2"]]])
    assert second["cases"] == [["s", 1]]
    assert second["chosen"] == (0 if took_b else -1)
    # Only the port's own code is located: this test's selects have no location.
    assert first["at"] == [] and trace["locations"] == []


def test_steps_are_located_in_the_port_not_in_the_simulation():
    trace, _ = cli_trace(["run", "--manifests", "examples/static-pods", "--until", "2s"])
    files = {trace["locations"][s["at"][0]]["py"] for s in trace["steps"] if s["at"]}
    assert "minikubelet/pod_workers.py" in files and "minikubelet/kubelet.py" in files
    assert not {f for f in files if f.removeprefix("minikubelet/").startswith(SIM)}
    cri = [s for s in trace["steps"] if s["k"] == "cri"]
    # A runtime call is located at the kubelet line that made it: kuberuntime's, or its CRI
    # client's (which kuberuntime called) for the calls that go through the client.
    assert {trace["locations"][s["at"][0]]["py"] for s in cri} <= {
        "minikubelet/kuberuntime/kuberuntime_sandbox.py",
        "minikubelet/kuberuntime/kuberuntime_container.py",
        "minikubelet/kuberuntime/kuberuntime_image.py",
        "minikubelet/cri/remote/remote_runtime.py",
    }
    created = next(s for s in cri if s["op"] == "CreateContainer")
    assert [trace["locations"][i]["py"] for i in created["at"][:2]] == [
        "minikubelet/cri/remote/remote_runtime.py",
        "minikubelet/kuberuntime/kuberuntime_container.py",
    ]


def test_one_recording_at_a_time_and_one_run_per_recording():
    async def main() -> None:
        await go.sleep(1 * Second)

    with recording():
        with pytest.raises(RecordingError, match="already under way"), recording():
            pass
        go.run(main)
        with pytest.raises(RecordingError, match="one run"):
            go.run(main)
    go.run(main)  # after the recording, runs are not recorded (and not refused)


def test_a_recording_keeps_at_most_max_steps_and_says_so():
    with recording(max_steps=10) as rec:
        assert cli.main(["run", "--manifests", "examples/static-pods", "--until", "2s"]) == 0
    trace = rec.trace()
    assert len(trace["steps"]) == 10 and trace["truncated"] is True


def test_trace_flag_refuses_a_file_it_cannot_write_before_running(tmp_path: Path, capsys):
    code = cli.main(
        ["run", "--manifests", "examples/static-pods", "--trace", str(tmp_path / "no" / "t.json")]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "cannot write the trace to" in err and "Traceback" not in err
    assert not (tmp_path / "no").exists()


def test_a_hook_step_is_shown_at_the_kubelet_line_it_reports_not_at_the_hook():
    trace, _ = cli_trace(["run", "--manifests", "examples/static-pods", "--until", "2s"])
    lines: set[str] = set()
    for s in trace["steps"]:
        if s["k"] in ("worker", "status"):
            loc = trace["locations"][s["at"][0]]
            text = (ROOT / loc["py"]).read_text(encoding="utf-8").splitlines()[loc["line"] - 1]
            lines.add(text.strip())
    assert not {t for t in lines if t.startswith("trace.")}
    assert "self.is_working[uid] = True" in lines
    assert "self.is_working[uid] = False" in lines
    assert "self.pod_statuses[pod.metadata.uid] = new_status" in lines


def test_each_update_that_waits_for_a_busy_worker_is_a_step_even_when_it_reads_the_same():
    # Chapter 5: the worker pulls for 20 s; the updates at 5 s and 8 s both wait in
    # lastUndeliveredWorkUpdate, the second replacing the first. Both describe themselves as
    # "update default/web", and the reader must still see the second arrive.
    trace, _ = cli_trace(
        ["run", "--api-script", "examples/api/updates-during-a-sync.yaml", "--until", "25s"]
    )
    waiting = [
        (s["t"] // 10**9, s["pending"])
        for s in trace["steps"]
        if s["k"] == "worker" and s["working"] and s["pending"]
    ]
    assert waiting == [
        (1, "sync default/web"),
        (5, "update default/web"),
        (8, "update default/web"),
    ]


def test_the_trace_is_never_written_through_a_planted_symlink(tmp_path: Path, capsys):  # #28 2
    from minikubelet.sim import trace as trace_mod

    victim = tmp_path / "victim"
    victim.write_text("keep")
    target = tmp_path / "t.json"
    (tmp_path / ".t.json.tmp").symlink_to(victim)  # at the temporary name: removed
    trace_mod.write({"steps": []}, str(target))
    assert victim.read_text() == "keep" and target.is_file() and not target.is_symlink()
    target.unlink()
    target.symlink_to(victim)  # the destination itself: refused in one line
    args = ["run", "--manifests", "examples/static-pods", "--until", "1s", "--trace", str(target)]
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert victim.read_text() == "keep" and "Traceback" not in err
    assert f"cannot write the trace to {target}: it is a symbolic link" in err
