"""Evictions and refusals through the whole port, as ``minikubelet run`` shows them: the
examples of chapter 15, the node's conditions in the API server, and the eviction flags."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from minikubelet.sim import cli, scripted_watch

ROOT = Path(__file__).resolve().parents[2]

MEMORY_PRESSURE = [
    "run",
    "--api-script",
    "examples/eviction/memory-pressure.yaml",
    "--node-memory",
    "1Gi",
    "--until",
    "1m",
]
REFUSED = [
    "run",
    "--scenario",
    "examples/eviction/busy-node.yaml",
    "--api-script",
    "examples/eviction/best-effort-refused.yaml",
    "--eviction-soft",
    "memory.available<500Mi",
    "--eviction-soft-grace-period",
    "memory.available=1m",
]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        code = cli.main(["--lang", "en", *argv], out=out)
    finally:
        os.chdir(cwd)
    return code, out.getvalue(), capsys.readouterr().err


def test_the_best_effort_pod_above_its_request_is_evicted(capsys, monkeypatch):
    servers = []
    start = scripted_watch.start_scripted_cluster

    def keep(*args, **kwargs):
        servers.append(start(*args, **kwargs))
        return servers[-1]

    monkeypatch.setattr(scripted_watch, "start_scripted_cluster", keep)
    code, out, _ = run(MEMORY_PRESSURE, capsys)
    assert code == 0
    assert (
        "minikubelet: pod shop/batch is Running → Failed at 20s (Evicted: The node was low on "
        "resource: memory. Container report was using 600Mi, which exceeds its request of 0. )"
    ) in out
    assert '"Eviction manager: pods ranked for eviction" pods=[shop/batch shop/web shop/db]' in out
    assert (
        '"Recording event message for node" node="minikubelet" event="NodeHasInsufficientMemory"'
        in out
    )
    summary = out[out.index("after 1m0s") :]
    assert "shop/db " in summary and "shop/web " in summary
    assert summary.count("Running") == 2 and summary.count("Failed") == 2
    # The pressure outlasts the eviction: the BestEffort pod that comes at 30 s is refused.
    assert (
        "minikubelet: pod shop/late is Failed at 30s "
        "(Evicted: Pod The node had condition: [MemoryPressure]. )"
    ) in out
    # The API server keeps the evicted pod, Failed, and the node's MemoryPressure condition.
    (server,) = servers
    batch = server.get_pod("shop", "batch")
    assert (batch.status.phase, batch.status.reason) == ("Failed", "Evicted")
    node = server.get_node("minikubelet")
    conditions = {c.type: (c.status, c.reason) for c in node.status.conditions}
    assert conditions["MemoryPressure"] == ("True", "KubeletHasInsufficientMemory")
    assert conditions["DiskPressure"] == ("False", "KubeletHasNoDiskPressure")
    assert conditions["PIDPressure"] == ("False", "KubeletHasSufficientPID")


def test_a_best_effort_pod_is_refused_under_memory_pressure(capsys):
    code, out, _ = run([*REFUSED, "--until", "40s"], capsys)
    assert code == 0
    assert (
        "minikubelet: pod shop/scratch is Failed at 15s "
        "(Evicted: Pod The node had condition: [MemoryPressure]. )"
    ) in out
    assert '"Failed to admit pod to node" pod="shop/scratch" nodeCondition=[MemoryPressure]' in out
    assert "shop/api is Pending → Running at 16s" in out
    assert "criteria not yet met" in out and "Failed at" not in out.split("shop/api")[-1]


def test_past_the_soft_grace_period_the_admitted_pod_is_evicted(capsys):
    code, out, _ = run([*REFUSED, "--until", "70s"], capsys)
    assert code == 0
    assert "minikubelet: pod shop/api is Running → Failed at 1m0s (Evicted:" in out


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (
            ["--eviction-hard", "memory.available=100Mi"],
            'invalid argument "memory.available=100Mi" for "--eviction-hard" flag: malformed pair, expect string<string',
        ),
        (["--eviction-hard", "mem.available<100Mi"], "unsupported eviction signal mem.available"),
        (
            ["--eviction-soft", "memory.available<1Gi"],
            "grace period must be specified for the soft eviction threshold memory.available",
        ),
        (
            ["--eviction-hard", "memory.available<-1Gi"],
            "eviction threshold memory.available must be positive: -1Gi",
        ),
        (
            ["--eviction-pressure-transition-period", "soon"],
            'for "--eviction-pressure-transition-period" flag: time: invalid duration',
        ),
    ],
)
def test_bad_eviction_flags_are_refused_before_anything_runs(flags, message, capsys):
    code, out, err = run([*MEMORY_PRESSURE, *flags], capsys)
    assert code == 2
    assert message in err
    assert "SyncLoop" not in out


def test_a_bad_usage_scenario_is_refused_with_where_it_is(tmp_path, capsys):
    bad = tmp_path / "node.yaml"
    bad.write_text("node:\n  memory: {0s: lots}\n")
    code, _, err = run(
        ["run", "--scenario", str(bad), "--api-script", "examples/eviction/memory-pressure.yaml"],
        capsys,
    )
    assert code == 2
    assert f"{bad}: node: memory: 0s:" in err
