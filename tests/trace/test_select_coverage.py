"""The recorder sees every select case the fidelity report lists as ported.

Each driver below runs a piece of the port into a situation where one or more of its selects take
a given case (a whole kubelet run for the sync loop, smaller harnesses for the corners: a full
channel, a closed stop channel, a hook that outlives its grace period). Every run is recorded and
resolved to Go; the union of the Go cases the recorded selects chose must be exactly the set of
ported select cases of ``python -m tools.xref report``. A newly ported select case fails this test
until a driver takes it.
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from minikubelet import go
from minikubelet.container.cache import new_cache
from minikubelet.container.helpers import convert_pod_status_to_running_pod
from minikubelet.container.runtime import ContainerID, PodStatus, State, Status
from minikubelet.go import Second
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.apimachinery.pkg.util.wait import wait
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.pleg.generic import new_generic_pleg
from minikubelet.pod_container_deletor import PodContainerDeletor
from minikubelet.pod_workers import PodWorkersImpl, SyncPodOptions, kill_pod_now
from minikubelet.sim import cli
from minikubelet.sim.trace import recording
from minikubelet.util.queue.work_queue import BasicWorkQueue
from tests.config.helpers import manifest, pod
from tests.config.test_file_source import watch_directory
from tests.eviction.test_eviction_manager import (
    HARD_1GI,
    PodKiller,
    make_manager,
    memory_pods,
    memory_summary,
)
from tests.kubelet.test_pod_workers import InstantCache
from tests.kuberuntime.podutil import Node, container, make_pod
from tests.kuberuntime.test_helpers_and_hooks import FailingRunner
from tests.prober.harness import Harness, http_probe
from tests.prober.harness import make_pod as probed_pod
from tests.status.test_status_manager import make_pod as status_pod
from tests.status.test_status_manager import manager, pod_status
from tools.trace import resolve

Case = tuple[str, str, str, int]  # Go path, function, case text, first line

API_SCRIPT = """
- at: 0s
  type: ADDED
  object:
    apiVersion: v1
    kind: Pod
    metadata:
      name: probed
      namespace: default
      annotations:
        minikubelet.dev/probes: |
          web:
            startup: {succeedAfter: 2s}
            readiness: {results: [fail, success]}
            liveness: {failAfter: 6s}
    spec:
      containers:
        - name: web
          image: "nginx:1.21"
          startupProbe: {httpGet: {port: 80, path: /}, periodSeconds: 1}
          readinessProbe: {httpGet: {port: 80, path: /}, periodSeconds: 1}
          livenessProbe: {httpGet: {port: 80, path: /}, periodSeconds: 1, failureThreshold: 1}
- at: 12s
  type: DELETED
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: probed, namespace: default}
    spec:
      containers: [{name: web, image: "nginx:1.21"}]
"""


def ported_select_cases(index) -> set[Case]:
    return {
        (f.go_path, f.go_symbol, c.case, c.go_start)
        for f in index.fidelity
        for c in f.cases
        if c.kind == "select" and c.status == "ported"
    }


def chosen_cases(trace: dict[str, Any]) -> set[Case]:
    """The Go case each recorded select took (through its focus location's ``go.cases``)."""
    out: set[Case] = set()
    locations = trace["locations"]
    for step in trace["steps"]:
        if step["k"] != "select":
            continue
        focus = next((i for i in step["at"] if "go" in locations[i]), None)
        if focus is None:
            continue
        go_ = locations[focus]["go"]
        if step["chosen"] >= 0:
            text = go_["cases"][step["chosen"]]
            lines = go_["case_lines"][step["chosen"]]
        else:
            text, lines = go_["default"], go_.get("default_lines")
        if text is not None and lines is not None:
            out.add((go_["path"], go_["symbol"], text, lines[0]))
    return out


def recorded(run: Callable[[], Any], index) -> dict[str, Any]:
    with recording() as rec:
        run()
    return resolve(rec.trace(), index)


# --- drivers: each runs one situation -----------------------------------------------------------


def kubelet_run(tmp_path: Path) -> None:
    """The whole kubelet: sources, the sync loop's every case, probes, a pod deleted."""
    script = tmp_path / "probed.yaml"
    script.write_text(API_SCRIPT)
    argv = ["run", "--manifests", "examples/static-pods", "--api-script", str(script)]
    argv += ["--scenario", "examples/scenarios/flaky-node.yaml", "--until", "20s", "-v", "4"]
    assert cli.main(argv, out=io.StringIO()) == 0


def file_watch(tmp_path: Path) -> None:
    """A manifest added (a watch event), then the directory gone (a watch error)."""
    folder = tmp_path / "manifests"
    folder.mkdir()

    async def edit() -> None:
        await go.sleep(2 * Second)
        (folder / "web.yaml").write_text(manifest("web"))
        await go.sleep(2 * Second)
        shutil.rmtree(folder)

    watch_directory(folder, edit, until=6 * Second)


def pre_stop_hook(hang: float) -> Callable[[Path], None]:
    """A preStop hook that ends in time (done) or outlives the grace period of 10 s."""

    def driver(_: Path) -> None:
        c = container("app", lifecycle=v1.Lifecycle(pre_stop=v1.Handler()))
        p = make_pod(containers=[c], grace=10, scenario="app: {stopTime: 1s}")
        node = Node([p])
        node.manager.runner = FailingRunner(hang=hang)

        async def main() -> None:
            await node.sync(p)
            running = convert_pod_status_to_running_pod("fake", await node.status(p))
            await node.manager.kill_pod(p, running, None)

        go.run(main)

    return driver


def kill_pod_now_both_ways(_: Path) -> None:
    """killPodNow: the worker answers in time; then a kill that takes longer than its timeout."""

    async def main() -> None:
        async def sync_pod(o: SyncPodOptions) -> None:
            await go.sleep(30 * Second if o.pod.metadata.name == "slow" else 1 * Second)

        queue = BasicWorkQueue(go.current_runtime().clock)
        workers = PodWorkersImpl(
            sync_pod, Recorder(), queue, 60 * Second, 10 * Second, InstantCache()
        )
        kill = kill_pod_now(workers, Recorder())
        await kill(pod("quick", "uid-quick"), v1.PodStatus(), 0)
        with pytest.raises(TimeoutError, match="timeout waiting to kill pod"):
            await kill(pod("slow", "uid-slow"), v1.PodStatus(), 0)
        for uid in list(workers.pod_updates):
            workers.forget_worker(uid)

    go.run(main, until=60)


def full_pleg_channel(_: Path) -> None:
    """A relist finds more events than the PLEG's channel holds: the rest are dropped."""
    pods = [make_pod(f"p{i}") for i in range(3)]
    node = Node(pods)

    async def main() -> None:
        for p in pods:
            await node.sync(p)
        pleg = new_generic_pleg(node.manager, 1, 1 * Second, new_cache())
        await pleg.relist()

    go.run(main)


def full_status_channel(_: Path) -> None:
    """Nobody reads the status channel: after 1000 statuses the status manager skips the send."""
    p = status_pod()

    async def main() -> None:
        m = manager(p)
        for i in range(1001):
            await m.update_status_internal(
                p, pod_status(v1.PodPhase.PENDING, message=str(i)), False
            )

    go.run(main)


def full_container_deletor(_: Path) -> None:
    """More dead containers to remove than the deletor's queue holds: the rest are not asked."""
    exited = [
        Status(id=ContainerID("fake", f"c{i}"), name="app", state=State.EXITED) for i in range(3)
    ]

    async def main() -> None:
        deletor = PodContainerDeletor(worker=go.Chan[ContainerID](1), containers_to_keep=0)
        await deletor.delete_containers_in_pod("", PodStatus(container_statuses=exited), True)

    go.run(main)


def probe_workers(_: Path) -> None:
    """A manual trigger while one is pending (default), and a worker stopped thrice."""

    async def main() -> None:
        h = Harness()
        p = probed_pod(readiness=http_probe(period_seconds=1))
        h.add(p)
        status = h.status_manager.statuses[p.metadata.uid]
        h.manager.update_pod_status(p.metadata.uid, status)
        h.manager.update_pod_status(p.metadata.uid, status)
        await go.sleep(3 * Second)
        for w in list(h.manager.workers.values()):
            for _ in range(3):  # to the waiting worker, into the buffer, then the buffer is full
                w.stop()
        await go.sleep(1 * Second)

    go.run(main, until=6)


def backoff_until_stopped(_: Path) -> None:
    """wait.Until stopped while it waits for its timer, and called with a closed stop channel."""

    async def main() -> None:
        stop = go.Chan[None]()
        waiting = go.go(wait.until, lambda: None, 1 * Second, stop)
        await go.sleep(2.5 * Second)
        stop.close()
        closed = go.Chan[None]()
        closed.close()
        await wait.until(lambda: None, 1 * Second, closed)
        del waiting

    go.run(main)


def eviction_cleanup(_: Path) -> None:
    """The eviction manager waits for its evicted pods: one cleaned up at the third poll, one
    never (the 30 s timeout)."""
    pods, stats = memory_pods()
    polls = {"n": 0}

    def cleaned_up_at_the_third_poll(_pod: object) -> bool:
        polls["n"] += 1
        return polls["n"] >= 3

    async def main() -> None:
        manager, *_ = make_manager([HARD_1GI], memory_summary("500Mi", stats), PodKiller())
        await manager.wait_for_pods_cleanup(cleaned_up_at_the_third_poll, pods[:1])
        await manager.wait_for_pods_cleanup(lambda _pod: False, pods[:1])

    go.run(main)


DRIVERS = [
    kubelet_run,
    file_watch,
    pre_stop_hook(1),
    pre_stop_hook(60),
    kill_pod_now_both_ways,
    full_pleg_channel,
    full_status_channel,
    full_container_deletor,
    probe_workers,
    backoff_until_stopped,
    eviction_cleanup,
]


@pytest.fixture(scope="module")
def index():
    from tools.xref import build_index

    return build_index(offline=True)


def test_every_ported_select_case_is_seen_by_the_recorder(index, tmp_path, monkeypatch):
    from tests.conftest import ROOT

    monkeypatch.chdir(ROOT)
    ported = ported_select_cases(index)
    assert len(ported) >= 30, "the fidelity report lists fewer select cases than it did"
    seen: set[Case] = set()
    for driver in DRIVERS:
        klog.configure(verbosity=4, out=io.StringIO())
        try:
            seen |= chosen_cases(recorded(lambda d=driver: d(tmp_path), index))
        finally:
            klog.configure(verbosity=0, out=None)
    missing = sorted(ported - seen)
    assert not missing, "no recorded select took these ported cases:\n" + "\n".join(
        f"  {path} {fn}: {case} (L{line})" for path, fn, case, line in missing
    )
    # Every case the recorder reports is a real, ported case (nothing made up).
    assert seen <= ported, sorted(seen - ported)
