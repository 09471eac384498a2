"""SyncPod end to end on the fake runtime, synced every second as kubelet would."""

from __future__ import annotations

import itertools

from minikubelet import go
from minikubelet.container.runtime import ContainerStateExited, ContainerStateRunning
from minikubelet.container.sync_result import (
    ErrCrashLoopBackOff,
    ErrCreatePodSandbox,
    StartContainer,
)
from minikubelet.images.types import ErrImageNeverPull, ErrImagePull
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.kubelet import MaxContainerBackOff, backOffPeriod
from tests.kuberuntime.podutil import Node, container, dedup, make_pod, rel


def test_kubelet_back_off_constants():
    assert (backOffPeriod, MaxContainerBackOff) == (10.0, 300.0)


def test_single_container_reaches_running():
    pod = make_pod(containers=[container("app", image="nginx:1.21")])
    node = Node([pod])

    async def main():
        result = await node.sync(pod)
        assert result.error() is None
        actions = [(str(r.action), r.target) for r in result.sync_results]
        sandbox_id = (await node.status(pod)).sandbox_statuses[0].id
        # A new pod is "killed" first (nothing runs yet), as in Go.
        assert actions == [
            ("KillPodSandbox", "uid-web"),
            ("CreatePodSandbox", "web_default(uid-web)"),
            ("ConfigPodSandbox", sandbox_id),
            ("StartContainer", "app"),
        ]
        status = await node.status(pod)
        assert [c.state for c in status.container_statuses] == [ContainerStateRunning]
        assert status.ips == ["10.88.0.2"]
        assert status.sandbox_statuses[0].state == runtimeapi.PodSandboxState_SANDBOX_READY
        # A second sync finds nothing to do.
        again = await node.sync(pod)
        assert [str(r.action) for r in again.sync_results] == ["ConfigPodSandbox"]
        assert again.error() is None

    go.run(main)
    assert [r for r, _ in node.events()] == ["Pulling", "Pulled", "Created", "Started"]
    assert node.events("Pulled")[0][1] == 'Successfully pulled image "nginx:1.21" in 0s'
    assert node.events("Started")[0][1] == "Started container app"


def test_init_containers_run_one_at_a_time_in_order_then_the_app():
    pod = make_pod(
        containers=[container("app")],
        init_containers=[container("init1"), container("init2"), container("init3")],
        scenario="init2: {runFor: 3s}",
    )
    node = Node([pod])

    async def main():
        await node.run(12)
        return await node.status(pod)

    status = go.run(main)
    runs = {c.name: (rel(c.started_at), rel(c.finished_at)) for c in status.container_statuses}
    # Default: init containers exit 0 after 1 s; init2 is scripted to take 3 s. Each starts at
    # the first sync after the previous one exited.
    assert runs["init1"] == (0.0, 1.0)
    assert runs["init2"] == (1.0, 4.0)
    assert runs["init3"] == (4.0, 5.0)
    assert runs["app"][0] == 5.0
    app = status.find_container_status_by_name("app")
    assert app.state == ContainerStateRunning
    inits = [c for c in status.container_statuses if c.name.startswith("init")]
    assert all(c.state == ContainerStateExited and c.exit_code == 0 for c in inits)
    started = [m for r, m in node.events("Started")]
    assert started == [
        "Started container init1",
        "Started container init2",
        "Started container init3",
        "Started container app",
    ]


def test_crash_loop_back_off_doubles_up_to_five_minutes():
    pod = make_pod(scenario="app: {runFor: 1s, exitCode: 1}")
    node = Node([pod])

    async def main():
        await node.run(1300)
        return await node.status(pod)

    status = go.run(main)
    runs = sorted(
        (c for c in status.container_statuses if c.name == "app"), key=lambda c: c.started_at
    )
    assert [c.restart_count for c in runs] == list(range(len(runs)))
    assert all(c.exit_code == 1 for c in runs if c.state == ContainerStateExited)
    # The wait between an exit and the next start: none the first time, then 10 s doubling to
    # the 300 s cap (measured from the exit; syncs come every second).
    gaps = [round(b.started_at - a.finished_at) for a, b in itertools.pairwise(runs)]
    assert gaps[:7] == [0, 10, 20, 40, 80, 160, 300]
    assert set(gaps[7:]) == {300}
    # While it waits, SyncPod reports CrashLoopBackOff with Go's message.
    backoffs = [
        r.message
        for _, _, res in node.results
        for r in res.sync_results
        if r.action == StartContainer and r.error is ErrCrashLoopBackOff
    ]
    assert dedup([m.split(" restarting")[0] for m in backoffs]) == [
        "back-off 10s",
        "back-off 20s",
        "back-off 40s",
        "back-off 1m20s",
        "back-off 2m40s",
        "back-off 5m0s",
    ]
    assert backoffs[0] == "back-off 10s restarting failed container=app pod=web_default(uid-web)"
    assert node.events("BackOff")[0] == ("BackOff", "Back-off restarting failed container")


def test_restart_policies_end_to_end():
    scenario = "app: {runFor: 2s, exitCode: %d}"
    pods = [
        make_pod("always-ok", restart_policy=v1.RestartPolicyAlways, scenario=scenario % 0),
        make_pod("onfailure-ok", restart_policy=v1.RestartPolicyOnFailure, scenario=scenario % 0),
        make_pod("onfailure-bad", restart_policy=v1.RestartPolicyOnFailure, scenario=scenario % 3),
        make_pod("never-bad", restart_policy=v1.RestartPolicyNever, scenario=scenario % 3),
    ]
    node = Node(pods)

    async def main():
        await node.run(30)
        return {p.metadata.name: await node.status(p) for p in pods}

    statuses = go.run(main)
    runs = {name: len(st.container_statuses) for name, st in statuses.items()}
    assert runs["always-ok"] > 1
    assert runs["onfailure-bad"] > 1
    assert runs["onfailure-ok"] == 1
    assert runs["never-bad"] == 1
    # A finished pod's sandbox is stopped (kill_pod: nothing left to run).
    assert statuses["never-bad"].sandbox_statuses[0].state == (
        runtimeapi.PodSandboxState_SANDBOX_NOTREADY
    )


def test_image_pull_failures_then_back_off_then_success():
    pod = make_pod(
        containers=[container("app", image="busybox")],
        images="busybox: {pullTime: 2s, fail: 2}",
    )
    node = Node([pod])

    async def main():
        await node.run(60)
        return await node.status(pod)

    status = go.run(main)
    assert status.find_container_status_by_name("app").state == ContainerStateRunning
    assert dedup(node.reasons()) == [
        "ErrImagePull",
        "ImagePullBackOff",
        "ErrImagePull",
        "ImagePullBackOff",
        "",
    ]
    first = node.results[0][2].sync_results[-1]
    assert first.error is ErrImagePull
    assert first.message == (
        'rpc error: code = Unknown desc = failed to pull and unpack image "busybox:latest": '
        "scripted pull failure 1 of 2"
    )
    # The image manager's events, and the runtime manager's "Failed" ("Error: <reason>").
    assert dedup([m for _, m in node.events()])[:8] == [
        'Pulling image "busybox"',
        'Failed to pull image "busybox": ' + first.message,
        "Error: ErrImagePull",
        'Back-off pulling image "busybox"',
        "Error: ImagePullBackOff",
        'Back-off pulling image "busybox"',
        "Error: ImagePullBackOff",
        'Back-off pulling image "busybox"',
    ]
    assert node.events("Pulled")[-1][1] == 'Successfully pulled image "busybox" in 2s'
    assert node.events("BackOff")[0][1] == 'Back-off pulling image "busybox"'
    pulls = [
        t for t, _, res in node.results if any(r.error is ErrImagePull for r in res.sync_results)
    ]
    # Each pull takes 2 s. The first failed at 2 s; the image back-off (10 s) let the second
    # start at 12 s (it failed at 14 s); after 20 s more, the third succeeded.
    assert pulls == [2.0, 14.0]
    app = status.find_container_status_by_name("app")
    assert rel(app.started_at) == 36.0
    assert node.fake.image_service.pulls("busybox") == 3


def test_image_not_found_never_succeeds():
    pod = make_pod(containers=[container("app", image="nosuch:1.0")], images="nosuch:1.0: notFound")
    node = Node([pod])
    go.run(node.run, 40)
    reasons = dedup(node.reasons())
    assert reasons[:2] == ["ErrImagePull", "ImagePullBackOff"]
    assert "" not in reasons
    failed = node.events("Failed")[0][1]
    assert failed.startswith('Failed to pull image "nosuch:1.0": rpc error: code = NotFound')


def test_pull_policy_never_without_the_image():
    pod = make_pod(containers=[container("app", image_pull_policy=v1.PullNever)])
    node = Node([pod])
    go.run(node.run, 1)
    result = node.results[0][2].sync_results[-1]
    assert result.error is ErrImageNeverPull
    assert (
        result.message == 'Container image "busybox:1.34" is not present with pull policy of Never'
    )


def test_dead_sandbox_is_killed_and_recreated():
    pod = make_pod()
    node = Node([pod])

    async def main():
        await node.sync(pod)
        first = await node.status(pod)
        node.fake.runtime_service.crash_sandbox(first.sandbox_statuses[0].id)
        await go.sleep(1)
        result = await node.sync(pod)
        return first, result, await node.status(pod)

    first, result, status = go.run(main)
    assert result.error() is None
    assert [str(r.action) for r in result.sync_results] == [
        "KillContainer",
        "KillPodSandbox",
        "CreatePodSandbox",
        "ConfigPodSandbox",
        "StartContainer",
    ]
    new, old = status.sandbox_statuses
    assert (new.metadata.attempt, new.state) == (1, runtimeapi.PodSandboxState_SANDBOX_READY)
    assert (old.id, old.state) == (first.sandbox_statuses[0].id, 1)
    app_runs = [c for c in status.container_statuses if c.name == "app"]
    assert [c.state for c in app_runs] == [ContainerStateRunning, ContainerStateExited]
    assert app_runs[0].restart_count == 1
    assert ("SandboxChanged", "Pod sandbox changed, it will be killed and re-created.") in (
        node.events()
    )
    assert node.events("Killing") == [("Killing", "Stopping container app")]


def test_kill_pod_respects_the_grace_period():
    slow = make_pod("slow", scenario="app: {stopTime: 10s}", grace=3)
    quick = make_pod("quick", scenario="app: {stopTime: 1s}", grace=30)
    node = Node([slow, quick])

    async def kill(pod):
        from minikubelet.container.helpers import convert_pod_status_to_running_pod

        running = convert_pod_status_to_running_pod("fake", await node.status(pod))
        start = go.now()
        err = await node.manager.kill_pod(pod, running, None)
        return err, go.now() - start, await node.status(pod)

    async def main():
        for p in (slow, quick):
            await node.sync(p)
        return await kill(slow), await kill(quick)

    (err1, took1, st1), (err2, took2, st2) = go.run(main)
    assert err1 is None and err2 is None
    assert (took1, st1.container_statuses[0].exit_code) == (3.0, 137)  # killed at the deadline
    assert (took2, st2.container_statuses[0].exit_code) == (1.0, 143)  # exited on SIGTERM
    for st in (st1, st2):
        assert st.sandbox_statuses[0].state == runtimeapi.PodSandboxState_SANDBOX_NOTREADY


def test_changed_spec_restarts_the_container():
    pod = make_pod()
    node = Node([pod])

    async def main():
        await node.sync(pod)
        pod.spec.containers[0].image = "busybox:1.35"
        await go.sleep(1)
        await node.sync(pod)
        return await node.status(pod)

    status = go.run(main)
    new, old = status.container_statuses
    assert (new.state, new.image, new.restart_count) == (ContainerStateRunning, new.image, 1)
    assert old.state == ContainerStateExited
    assert ("Killing", "Container app definition changed, will be restarted") in node.events()


def test_invalid_scenario_fails_the_sandbox_with_a_clear_message():
    pod = make_pod(scenario="app: {runFor: soon}")
    node = Node([pod])
    go.run(node.run, 1)
    result = node.results[0][2].sync_results[1]
    assert str(result.action) == "CreatePodSandbox"
    assert result.error is ErrCreatePodSandbox
    assert "annotation minikubelet.dev/scenario" in result.message
    assert "container 'app': field runFor" in result.message
    _reason, message = node.events("FailedCreatePodSandBox")[0]
    assert message.startswith("Failed to create pod sandbox: rpc error: code = InvalidArgument")


def test_get_pods_groups_containers_by_pod():
    pods = [make_pod("a"), make_pod("b", scenario="app: {runFor: 1s}")]
    node = Node(pods)

    async def main():
        for p in pods:
            await node.sync(p)
        await go.sleep(2)
        return await node.manager.get_pods(True), await node.manager.get_pods(False)

    all_pods, running = go.run(main)
    assert [(p.name, len(p.containers), len(p.sandboxes)) for p in all_pods] == [
        ("a", 1, 1),
        ("b", 1, 1),
    ]
    # Only running containers and ready sandboxes: b's sandbox is still up, its container is not.
    assert [(p.name, len(p.containers), len(p.sandboxes)) for p in running] == [
        ("a", 1, 1),
        ("b", 0, 1),
    ]
    b = next(p for p in all_pods if p.name == "b")
    assert b.containers[0].state == ContainerStateExited
    assert b.containers[0].id.type == "fake"


def test_runtime_status_follows_the_scenario():
    scenario = {
        "runtime": {
            "notReady": [{"from": "0s", "until": "10s"}],
            "down": [{"from": "20s", "until": "25s"}],
        }
    }
    node = Node([], scenario=scenario)

    async def main():
        seen = []
        for t in (0, 10, 20, 25):
            await go.sleep(t - (float(go.now()) - go.VIRTUAL_EPOCH))
            try:
                st = await node.manager.status()
                seen.append(st.get_runtime_condition("RuntimeReady").status)
            except Exception as e:
                seen.append(str(e))
        return seen

    assert go.run(main) == [
        False,
        True,
        "rpc error: code = Unavailable desc = connection error: the fake runtime is down "
        "(scenario)",
        True,
    ]
