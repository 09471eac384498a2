"""Smaller pieces: image names and pull policy, labels, the runtime cache, lifecycle hooks,
killing a pod kubelet no longer has the spec of."""

from __future__ import annotations

import pytest

from minikubelet import go
from minikubelet.container.helpers import convert_pod_status_to_running_pod
from minikubelet.container.runtime import (
    ContainerID,
    ContainerStateExited,
    RunContainerOptions,
)
from minikubelet.container.runtime_cache import new_runtime_cache
from minikubelet.container.sync_result import PodSyncResult, SyncResult
from minikubelet.images.image_manager import apply_default_image_tag, should_pull_image
from minikubelet.k8s_io.api.core import v1
from minikubelet.kuberuntime.labels import (
    get_container_info_from_annotations,
    new_container_annotations,
)
from tests.kuberuntime.podutil import Node, container, make_pod


@pytest.mark.parametrize(
    ("image", "want"),
    [
        ("busybox", "busybox:latest"),
        ("busybox:1.34", "busybox:1.34"),
        ("registry.local:5000/team/app", "registry.local:5000/team/app:latest"),
        ("nginx@sha256:" + "a" * 64, "nginx@sha256:" + "a" * 64),
    ],
)
def test_apply_default_image_tag(image, want):
    assert apply_default_image_tag(image) == want


def test_invalid_image_name():
    with pytest.raises(ValueError, match="invalid reference format"):
        apply_default_image_tag("Busy Box")


@pytest.mark.parametrize(
    ("policy", "present", "pull"),
    [
        (v1.PullAlways, True, True),
        (v1.PullIfNotPresent, True, False),
        (v1.PullIfNotPresent, False, True),
        (v1.PullNever, False, False),
    ],
)
def test_should_pull_image(policy, present, pull):
    assert should_pull_image(container("c", image_pull_policy=policy), present) is pull


def test_container_annotations_round_trip():
    c = container("app", ports=[v1.ContainerPort(container_port=80, name="http")])
    c.lifecycle = v1.Lifecycle(pre_stop=v1.Handler(exec=v1.ExecAction(command=["sleep", "1"])))
    pod = make_pod(containers=[c], grace=45)
    pod.metadata.deletion_grace_period_seconds = 10
    info = get_container_info_from_annotations(
        new_container_annotations(c, pod, 3, RunContainerOptions())
    )
    assert (info.restart_count, info.pod_termination_grace_period) == (3, 45)
    assert info.pod_deletion_grace_period == 10
    assert info.container_ports[0].container_port == 80
    assert info.pre_stop_handler.exec.command == ["sleep", "1"]


def test_pod_sync_result_error_reads_like_go():
    r = PodSyncResult()
    r.add_sync_result(SyncResult("StartContainer", "app", RuntimeError("ErrImagePull"), "x"))
    assert str(r.error()) == 'failed to "StartContainer" for "app" with ErrImagePull: "x"'
    r.fail(RuntimeError("boom"))
    assert str(r.error()).startswith("[failed to SyncPod: boom, failed to ")


def test_runtime_cache_refreshes_after_two_seconds_or_when_forced():
    pod = make_pod()
    node = Node([pod])

    async def main():
        cache = new_runtime_cache(node.manager)
        first = await cache.get_pods()  # empty runtime
        await go.sleep(1)
        await node.sync(pod)
        cached = await cache.get_pods()  # less than 2 s later: the old list
        await cache.force_update_if_older(go.now())
        forced = await cache.get_pods()
        return first, cached, forced, node.fake.runtime_service.calls["list_pod_sandbox"]

    first, cached, forced, _ = go.run(main)
    assert first == [] and cached == []
    assert [p.name for p in forced] == ["web"]


class FailingRunner:
    """A hook runner whose hooks fail (postStart) or hang (preStop)."""

    def __init__(self, hang: float = 0.0) -> None:
        self.hang = hang

    async def run(self, container_id, pod, container, handler):
        if self.hang:
            await go.sleep(self.hang)
            return "", None
        return "hook exited with 1", RuntimeError("exit status 1")


def test_failed_post_start_hook_kills_the_container():
    c = container("app", lifecycle=v1.Lifecycle(post_start=v1.Handler()))
    pod = make_pod(containers=[c])
    node = Node([pod])
    node.manager.runner = FailingRunner()

    async def main():
        result = await node.sync(pod)
        return result, await node.status(pod)

    result, status = go.run(main)
    start = result.sync_results[-1]
    assert str(start.error) == "PostStartHookError: exit status 1"
    assert start.message == "hook exited with 1"
    assert status.container_statuses[0].state == ContainerStateExited
    assert ("FailedPostStartHook", "hook exited with 1") in node.events()
    assert ("Killing", "FailedPostStartHook") in node.events()


def test_pre_stop_hook_uses_up_the_grace_period():
    c = container("app", lifecycle=v1.Lifecycle(pre_stop=v1.Handler()))
    pod = make_pod(containers=[c], grace=10, scenario="app: {stopTime: 30s}")
    node = Node([pod])
    node.manager.runner = FailingRunner(hang=60)

    async def main():
        await node.sync(pod)
        running = convert_pod_status_to_running_pod("fake", await node.status(pod))
        t0 = go.now()
        err = await node.manager.kill_pod(pod, running, None)
        return err, go.now() - t0, await node.status(pod)

    err, took, status = go.run(main)
    assert err is None
    # 10 s for the hook (cut short), then the minimum of 2 s to stop, then SIGKILL.
    assert took == 12.0
    assert status.container_statuses[0].exit_code == 137


def test_a_scripted_pre_stop_time_is_taken_from_the_grace_period():
    # The hook's ExecSync takes the container's scripted preStopTime (4 s of the 10 s); the
    # container then needs 3 s of the 6 s left and exits on SIGTERM.
    quit_cmd = v1.Handler(exec=v1.ExecAction(command=["nginx", "-s", "quit"]))
    c = container("app", lifecycle=v1.Lifecycle(pre_stop=quit_cmd))
    pod = make_pod(containers=[c], grace=10, scenario="app: {preStopTime: 4s, stopTime: 3s}")
    node = Node([pod])

    async def main():
        await node.sync(pod)
        running = convert_pod_status_to_running_pod("fake", await node.status(pod))
        t0 = go.now()
        err = await node.manager.kill_pod(pod, running, None)
        return err, go.now() - t0, await node.status(pod)

    err, took, status = go.run(main)
    assert err is None
    assert took == 7.0
    assert status.container_statuses[0].exit_code == 143


def test_kill_pod_without_the_spec_restores_it_from_labels():
    pod = make_pod(grace=5, scenario="app: {stopTime: 8s}")
    node = Node([pod])

    async def main():
        await node.sync(pod)
        running = convert_pod_status_to_running_pod("fake", await node.status(pod))
        t0 = go.now()
        err = await node.manager.kill_pod(None, running, None)
        return err, go.now() - t0

    err, took = go.run(main)
    assert err is None and took == 5.0  # the grace period came back from the annotations


def test_kill_pod_reports_a_failed_stop():
    pod = make_pod()
    node = Node([pod])

    async def main():
        await node.sync(pod)
        running = convert_pod_status_to_running_pod("fake", await node.status(pod))
        node.fake.runtime_service.inject_error("stop_container")
        return await node.manager.kill_pod(pod, running, None)

    err = go.run(main)
    assert str(err).startswith('failed to "KillContainer" for "app" with KillContainerError')


def test_delete_container():
    pod = make_pod(scenario="app: {runFor: 1s}", restart_policy="Never")
    node = Node([pod])

    async def main():
        await node.sync(pod)
        await go.sleep(2)
        cid = (await node.status(pod)).container_statuses[0].id
        err = await node.manager.delete_container(cid)
        missing = await node.manager.delete_container(ContainerID("fake", "nope"))
        return err, missing, await node.status(pod)

    err, missing, status = go.run(main)
    assert err is None and status.container_statuses == []
    assert "failed to get container status" in str(missing)


def test_remove_container_asks_status_twice():
    """Go: kuberuntime_container.go removeContainerLog asks ContainerStatus after the log manager's
    Clean (container_log_manager.go Clean) asked it: two calls before RemoveContainer."""
    pod = make_pod(scenario="app: {runFor: 1s}", restart_policy="Never")
    node = Node([pod])

    async def main():
        await node.sync(pod)
        await go.sleep(2)
        cid = (await node.status(pod)).container_statuses[0].id
        before = node.manager.runtime_service.calls["container_status"]
        err = await node.manager.delete_container(cid)
        return err, node.manager.runtime_service.calls["container_status"] - before

    err, asked = go.run(main)
    assert err is None and asked == 2


def test_runtime_cache_returns_the_runtime_error_on_a_forced_update():
    node = Node([])

    async def main():
        cache = new_runtime_cache(node.manager)
        await go.sleep(1)
        node.fake.runtime_service.inject_error("list_pod_sandbox")
        return await cache.force_update_if_older(go.now())

    assert "injected error in list_pod_sandbox" in str(go.run(main))
