"""Admission as ``minikubelet run`` shows it: who is rejected, who preempts whom.

Each test names the v1.21.4 Go lines it follows (read with ``K8S_SRC``; v1.21.3 should agree).
NewMainKubelet (pkg/kubelet/kubelet.go L802-803) gives the predicate admit handler the
critical-pod admission handler, so static pods and other critical pods never fail for lack of
resources alone: kubelet preempts other pods for them, or rejects them with
UnexpectedAdmissionError when no set of pods would free enough.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.config.helpers import Server
from tests.test_cli import run_cli


def write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def static_pod(name: str, cpu: str) -> str:
    return (
        f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\n"
        f"spec:\n  containers:\n  - name: app\n    image: busybox:1.33\n"
        f"    resources: {{requests: {{cpu: '{cpu}'}}}}\n"
    )


def api_event(at: str, name: str, cpu: str, extra: str = "") -> str:
    return (
        f"- at: {at}\n  type: ADDED\n  object:\n    apiVersion: v1\n    kind: Pod\n"
        f"    metadata: {{name: {name}, namespace: shop}}\n    spec:\n{extra}"
        f"      containers: [{{name: app, image: 'busybox:1.33', "
        f"resources: {{requests: {{cpu: '{cpu}'}}}}}}]\n"
    )


@pytest.fixture
def manifest_server() -> Iterator[Callable[[str], Server]]:
    """Start a ``--manifest-url`` server: an empty pod list on the first poll, ``later`` on the
    next ones. kubelet polls every 20 s, so ``later`` arrives at 20 s of the run."""
    servers: list[Server] = []

    def start(later: str) -> Server:
        s = Server([b"kind: PodList\nitems: []\n", later.encode()])
        s.thread.start()
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.httpd.shutdown()
        s.httpd.server_close()


def test_static_pod_over_capacity_on_an_empty_node(tmp_path: Path):
    """A static pod is critical (pkg/kubelet/types/pod_update.go L156-167), so its OutOfcpu
    goes to the critical-pod handler (predicate.go L108-119), which finds no pod to preempt
    (preemption.go L128-132) and fails: UnexpectedAdmissionError with Go's message
    (predicate.go L111-118), and rejectPod prefixes "Pod " (kubelet.go L1798-1809)."""
    write(tmp_path / "big.yaml", static_pod("big", "8"))
    code, out = run_cli("--manifests", str(tmp_path), "--node-cpu", "4", "--until", "3s")
    assert code == 0
    msg = (
        "Unexpected error while attempting to recover from admission failure: preemption: "
        "error finding a set of pods to preempt: no set of running pods found to reclaim "
        "resources: [(res: cpu, q: 4000), ]"
    )
    assert (
        '"Failed to admit pod, unexpected error while attempting to recover from admission '
        'failure" pod="default/big-minikubelet" err="preemption: error finding a set of pods '
        'to preempt: no set of running pods found to reclaim resources: [(res: cpu, q: 4000), ]"'
    ) in out
    assert (
        f"minikubelet: pod default/big-minikubelet is Failed at 100ms (UnexpectedAdmissionError: Pod {msg})"
        in out
    )
    assert "OutOfcpu" not in out


def test_static_pod_preempts_a_running_api_pod(tmp_path: Path, manifest_server):
    """The API pod runs from 1 s; at 20 s an HTTP-source (static) pod needs 2 of the 4 CPUs.
    HandleAdmissionFailure (preemption.go L62-87) turns the 1000m shortfall into a requirement;
    evictPodsToFreeRequests (L92-122) logs, records Preempting on the victim and kills it through
    killPodNow (pod_workers.go L291-338) with status Failed/Preempting, before the static pod is
    admitted and started (kubelet.go L2093-2109)."""
    script = write(tmp_path / "api.yaml", api_event("0s", "batch", "3"))
    server = manifest_server(static_pod("agent", "2"))
    code, out = run_cli(
        "--api-script", script, "--manifest-url", server.url, "--until", "25s", "-v", "3"
    )
    assert code == 0
    lines = out.splitlines()

    def index(text: str) -> int:
        return next(i for i, line in enumerate(lines) if text in line)

    running = index("minikubelet: pod shop/batch is Pending → Running at 1s")
    attempt = index(
        '"Attempting to evict pods in order to free up resources" pods=[shop/batch] '
        'insufficientResources="[(res: cpu, q: 1000), ]"'
    )
    event = index(
        'object="shop/batch" kind="Pod" apiVersion="v1" type="Warning" reason="Preempting" '
        'message="Preempted in order to admit critical pod"'
    )
    failed = index(
        "minikubelet: pod shop/batch is Running → Failed at 20s "
        "(Preempting: Preempted in order to admit critical pod)"
    )
    evicted = index('"Pod evicted successfully" pod="shop/batch"')
    agent = index("minikubelet: pod default/agent-minikubelet is Pending at 20s")
    assert running < attempt < event < failed < evicted < agent
    summary = out.split("minikubelet: after 25s, 2 pod(s):\n")[1]
    assert "shop/batch                               Failed" in summary
    assert "default/agent-minikubelet                Running" in summary


def test_critical_priority_api_pod_preempts_best_effort_before_burstable(tmp_path: Path):
    """An API pod of system-critical priority is critical too (pod_update.go L163-165). Of the
    pods it may preempt (sortPodsByQOS, preemption.go L238-254) the BestEffort ones go first;
    the Burstable pod is spared because killing the BestEffort one frees enough
    (getPodsToPreempt, L125-149): here the node has room for the CPU, only a pod slot is
    missing, and any one pod frees a slot."""
    script = write(
        tmp_path / "api.yaml",
        api_event("0s", "burstable", "1")
        + api_event("0s", "besteffort", "0").replace(", resources: {requests: {cpu: '0'}}", "")
        + api_event(
            "10s",
            "agent",
            "100m",
            "      priorityClassName: system-node-critical\n      priority: 2000001000\n",
        ),
    )
    code, out = run_cli("--api-script", script, "--max-pods", "2", "--until", "15s")
    assert code == 0
    assert (
        '"Attempting to evict pods in order to free up resources" pods=[shop/besteffort] '
        'insufficientResources="[(res: pods, q: 1), ]"'
    ) in out
    assert "minikubelet: pod shop/besteffort is Running → Failed at 10s (Preempting:" in out
    assert "minikubelet: pod shop/burstable is Running → Failed" not in out
    assert "minikubelet: pod shop/agent is Pending → Running at 11s" in out


def test_api_pod_over_capacity_is_rejected_out_of_cpu(tmp_path: Path):
    """An API pod is not critical: HandleAdmissionFailure returns its reasons unchanged
    (preemption.go L63-65) and the first one is reported as OutOf<resource> with
    InsufficientResourceError's message (predicate.go L140-143, L188-191)."""
    script = write(
        tmp_path / "api.yaml", api_event("0s", "first", "3") + api_event("5s", "second", "2")
    )
    code, out = run_cli("--api-script", script, "--until", "8s")
    assert code == 0
    msg = "Node didn't have enough resource: cpu, requested: 2000, used: 3000, capacity: 4000"
    assert '"Predicate failed on Pod" pod="second_shop(' in out
    assert f'err="{msg}"' in out
    assert f"minikubelet: pod shop/second is Failed at 5s (OutOfcpu: Pod {msg})" in out
    assert "Preempting" not in out
