"""Scenarios through the whole pod-creation path, on the fake runtime and the virtual clock."""

from __future__ import annotations

from pathlib import Path

from minikubelet.config.manifest import pod_from_dict
from tests.e2e.harness import run_kubelet


def pod(name, containers, *, init=(), restart="Always", cpu=None, annotations=None):
    """A pod bound to the node, from plain data as the API server would send it."""

    def container(c):
        spec = {"name": c, "image": "busybox:1.33"}
        if cpu:
            spec["resources"] = {"requests": {"cpu": cpu}}
        return spec

    p = pod_from_dict(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": name,
                "namespace": "default",
                "uid": f"uid-{name}",
                "annotations": annotations or {},
            },
            "spec": {
                "restartPolicy": restart,
                "initContainers": [container(c) for c in init],
                "containers": [container(c) for c in containers],
            },
        }
    )
    p.metadata.creation_timestamp = 1_626_307_200.0
    return p


def test_a_single_container_pod_goes_pending_then_running(tmp_path: Path):
    (tmp_path / "web.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n"
        "spec: {containers: [{name: nginx, image: 'nginx:1.21'}]}\n"
    )
    run = run_kubelet(manifests=tmp_path, until=10)
    assert [phase for _, phase in run.phases["web-node-1"]] == ["Pending", "Running"]
    status = run.statuses["web-node-1"]
    (cs,) = status.container_statuses
    assert cs.state.running is not None and cs.ready and cs.restart_count == 0
    assert run.running_containers == {"web-node-1": ["nginx"]}
    reasons = [e.reason for e in run.events if e.object.name == "web-node-1"]
    assert reasons == ["Pulling", "Pulled", "Created", "Started"]
    assert '"SyncLoop ADD" source="file" pods=[default/web-node-1]' in run.log


def test_init_containers_run_one_at_a_time_in_order_then_the_app():
    p = pod("setup", ["app"], init=["fetch", "migrate"])
    run = run_kubelet(pods=[p], until=15)
    started = [e.object and e.message for e in run.events if e.reason == "Started"]
    assert started == [
        "Started container fetch",
        "Started container migrate",
        "Started container app",
    ]
    status = run.statuses["setup"]
    assert [phase for _, phase in run.phases["setup"]] == ["Pending", "Running"]
    assert [c.state.terminated.exit_code for c in status.init_container_statuses] == [0, 0]
    assert all(c.ready for c in status.init_container_statuses)
    # While init containers ran, the app container waited with reason PodInitializing.
    assert run.running_containers == {"setup": ["app"]}


def test_a_crashing_container_restarts_with_back_off():
    crash = {"minikubelet.dev/scenario": "app: {runFor: 1s, exitCode: 1}"}
    run = run_kubelet(pods=[pod("crash", ["app"], annotations=crash)], until=120)
    back_offs = [e.message for e in run.events if e.reason == "BackOff"]
    assert back_offs[0] == "Back-off restarting failed container"
    # The wait between restarts doubles from 10 s (kubelet's backOffPeriod) ...
    waits = [
        line.split("back-off ")[1].split(" ")[0]
        for line in run.log.splitlines()
        if "CrashLoopBackOff" in line and "Error syncing pod" in line
    ]
    assert list(dict.fromkeys(waits)) == ["10s", "20s", "40s", "1m20s"]
    status = run.statuses["crash"]
    (cs,) = status.container_statuses
    assert status.phase == "Running"  # restartPolicy Always: the pod stays Running
    assert cs.restart_count == 4
    # ... and between restarts the container waits in CrashLoopBackOff, its last run failed.
    assert cs.state.waiting.reason == "CrashLoopBackOff"
    assert cs.state.waiting.message.startswith("back-off 1m20s restarting failed container=app")
    assert cs.last_state.terminated.exit_code == 1


def test_restart_policy_decides_what_an_exit_means():
    fail = {"minikubelet.dev/scenario": "app: {runFor: 2s, exitCode: 1}"}
    ok = {"minikubelet.dev/scenario": "app: {runFor: 2s, exitCode: 0}"}
    run = run_kubelet(
        pods=[
            pod("never-fails", ["app"], restart="Never", annotations=fail),
            pod("never-ok", ["app"], restart="Never", annotations=ok),
            pod("onfailure-ok", ["app"], restart="OnFailure", annotations=ok),
            pod("onfailure-fails", ["app"], restart="OnFailure", annotations=fail),
        ],
        until=40,
    )
    assert run.phase("never-fails") == "Failed"
    assert run.phase("never-ok") == "Succeeded"
    assert run.phase("onfailure-ok") == "Succeeded"
    assert run.phase("onfailure-fails") == "Running"  # restarting, with back-off
    assert run.statuses["onfailure-fails"].container_statuses[0].restart_count >= 1
    assert run.statuses["never-fails"].container_statuses[0].restart_count == 0


def test_admission_rejects_pods_that_do_not_fit_the_node():
    pods = [pod(f"p{i}", ["app"], cpu="600m") for i in range(3)]
    run = run_kubelet(pods=pods, cpu="1", until=5)
    assert run.phase("p0") == "Running"
    for name in ("p1", "p2"):
        status = run.statuses[name]
        assert status.phase == "Failed"
        assert status.reason == "OutOfcpu"
        assert status.message == (
            "Pod Node didn't have enough resource: cpu, requested: 600, used: 600, capacity: 1000"
        )
    assert set(run.running_containers) == {"p0"}
    assert [e.reason for e in run.events if e.object.name == "p1"] == ["OutOfcpu"]


def test_too_many_pods_are_rejected_out_of_pods():
    run = run_kubelet(pods=[pod(f"p{i}", ["app"]) for i in range(3)], max_pods=2, until=5)
    assert [run.phase(f"p{i}") for i in range(3)] == ["Running", "Running", "Failed"]
    assert run.statuses["p2"].reason == "OutOfpods"


def test_a_pod_past_its_active_deadline_is_failed_and_killed():
    p = pod("batch", ["app"], restart="Never")
    p.spec.active_deadline_seconds = 20
    run = run_kubelet(pods=[p], until=40)
    status = run.statuses["batch"]
    assert status.phase == "Failed"
    assert (status.reason, status.message) == (
        "DeadlineExceeded",
        "Pod was active on the node longer than the specified deadline",
    )
    assert [phase for _, phase in run.phases["batch"]] == ["Pending", "Running", "Failed"]
    assert 20 <= run.phases["batch"][-1][0] < 22  # the sync ticker notices within a second
    assert run.running_containers == {}
    assert any(e.reason == "DeadlineExceeded" for e in run.events)


def test_a_pod_deleted_while_running_is_killed():
    a, b = pod("a", ["app"]), pod("b", ["app"])
    run = run_kubelet(pods=[a, b], changes=[(10, [a])], until=20)
    assert set(run.running_containers) == {"a"}
    assert "b" not in run.statuses  # gone from the pod manager
    assert '"SyncLoop REMOVE" source="api" pods=[default/b]' in run.log
    assert any(e.reason == "Killing" and e.object.name == "b" for e in run.events)


def test_the_same_seed_gives_the_same_run():
    crash = {"minikubelet.dev/scenario": "app: {runFor: 3s, exitCode: 2}"}
    pods = [pod("x", ["app"], annotations=crash), pod("y", ["app", "side"])]
    first = run_kubelet(pods=pods, until=60, seed=4, verbosity=4)
    again = run_kubelet(pods=pods, until=60, seed=4, verbosity=4)
    assert first.log == again.log
    assert first.log != run_kubelet(pods=pods, until=60, seed=5, verbosity=4).log


def test_ten_thousand_pods_go_through_the_whole_path():
    n = 10_000
    pods = [pod(f"p{i:05d}", ["app"]) for i in range(n)]
    run = run_kubelet(pods=pods, until=10, max_pods=n, cpu="20000", memory="20000Gi", verbosity=0)
    assert len(run.statuses) == n
    assert {status.phase for status in run.statuses.values()} == {"Running"}
    assert len(run.running_containers) == n
    assert all(containers == ["app"] for containers in run.running_containers.values())
