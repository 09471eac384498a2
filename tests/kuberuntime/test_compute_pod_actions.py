"""computePodActions: what SyncPod decides to do, for pod statuses built by hand."""

from __future__ import annotations

import pytest

from minikubelet.container.helpers import hash_container
from minikubelet.container.runtime import (
    ContainerID,
    ContainerStateExited,
    ContainerStateRunning,
    ContainerStateUnknown,
    PodStatus,
    State,
    Status,
)
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.kuberuntime.fake_kuberuntime_manager import new_fake_runtime
from minikubelet.kuberuntime.kuberuntime_container import find_next_init_container_to_run
from minikubelet.kuberuntime.kuberuntime_manager import PodActions, reasonLivenessProbe
from minikubelet.prober.results.results_manager import Result
from tests.kuberuntime.podutil import container, make_pod

NOW = 1_626_307_200.0


def sandbox(
    id: str = "sb1",
    state: runtimeapi.PodSandboxState = runtimeapi.PodSandboxState_SANDBOX_READY,
    attempt: int = 0,
    ip: str = "10.88.0.2",
    created: int = 1,
) -> runtimeapi.PodSandboxStatus:
    return runtimeapi.PodSandboxStatus(
        id=id,
        metadata=runtimeapi.PodSandboxMetadata(name="web", namespace="default", attempt=attempt),
        state=state,
        created_at=created,
        network=runtimeapi.PodSandboxNetworkStatus(ip=ip),
        linux=runtimeapi.LinuxPodSandboxStatus(
            namespaces=runtimeapi.Namespace(
                options=runtimeapi.NamespaceOption(network=runtimeapi.NamespaceMode_POD)
            )
        ),
    )


def status(
    c: v1.Container, state: State, exit_code: int = 0, id: str | None = None, restarts: int = 0
) -> Status:
    return Status(
        id=ContainerID("fake", id or f"id-{c.name}"),
        name=c.name,
        state=state,
        exit_code=exit_code,
        hash=hash_container(c),
        restart_count=restarts,
        created_at=NOW,
        started_at=NOW,
        finished_at=NOW + 1 if state == ContainerStateExited else 0.0,
    )


def pod_status(pod: v1.Pod, sandboxes=None, statuses=None) -> PodStatus:
    return PodStatus(
        id=pod.metadata.uid,
        name=pod.metadata.name,
        namespace=pod.metadata.namespace,
        sandbox_statuses=sandboxes or [],
        container_statuses=statuses or [],
    )


@pytest.fixture
def manager():
    return new_fake_runtime().manager


APP, SIDE = container("app"), container("sidecar")
INIT1, INIT2 = container("init1"), container("init2")


def two_init_pod(policy=v1.RestartPolicyAlways) -> v1.Pod:
    return make_pod(
        containers=[container("app")],
        init_containers=[container("init1"), container("init2")],
        restart_policy=policy,
    )


def test_fresh_pod_creates_a_sandbox_and_starts_every_container(manager):
    pod = make_pod(containers=[container("app"), container("sidecar")])
    actions = manager.compute_pod_actions(pod, pod_status(pod))
    assert actions == PodActions(
        kill_pod=True,
        create_sandbox=True,
        sandbox_id="",
        attempt=0,
        containers_to_start=[0, 1],
    )


def test_fresh_pod_with_init_containers_starts_only_the_first_init_container(manager):
    pod = two_init_pod()
    actions = manager.compute_pod_actions(pod, pod_status(pod))
    assert actions.create_sandbox and actions.kill_pod
    assert actions.next_init_container_to_start is pod.spec.init_containers[0]
    assert actions.containers_to_start == []


def test_init_containers_run_one_at_a_time_in_order(manager):
    pod = two_init_pod()
    i1, i2 = pod.spec.init_containers
    # init1 still running: nothing to do.
    st = pod_status(pod, [sandbox()], [status(i1, ContainerStateRunning)])
    a = manager.compute_pod_actions(pod, st)
    assert (a.kill_pod, a.create_sandbox, a.next_init_container_to_start) == (False, False, None)
    assert a.containers_to_start == []
    # init1 done: init2 is next, and still no app container.
    st = pod_status(pod, [sandbox()], [status(i1, ContainerStateExited)])
    a = manager.compute_pod_actions(pod, st)
    assert a.next_init_container_to_start is i2
    assert a.containers_to_start == []
    assert a.sandbox_id == "sb1" and not a.create_sandbox


def test_init_done_starts_the_app_containers(manager):
    pod = two_init_pod()
    i1, i2 = pod.spec.init_containers
    st = pod_status(
        pod, [sandbox()], [status(i2, ContainerStateExited), status(i1, ContainerStateExited)]
    )
    a = manager.compute_pod_actions(pod, st)
    assert a.next_init_container_to_start is None
    assert a.containers_to_start == [0]
    assert not a.kill_pod


@pytest.mark.parametrize(
    ("policy", "restarts_init", "kills_pod"),
    [
        (v1.RestartPolicyAlways, True, False),
        (v1.RestartPolicyOnFailure, True, False),
        (v1.RestartPolicyNever, False, True),
    ],
)
def test_failed_init_container(manager, policy, restarts_init, kills_pod):
    pod = two_init_pod(policy)
    i1 = pod.spec.init_containers[0]
    st = pod_status(pod, [sandbox()], [status(i1, ContainerStateExited, exit_code=1)])
    a = manager.compute_pod_actions(pod, st)
    assert (a.next_init_container_to_start is i1) == restarts_init
    assert a.kill_pod == kills_pod


@pytest.mark.parametrize(
    ("policy", "exit_code", "restarted"),
    [
        (v1.RestartPolicyAlways, 1, True),
        (v1.RestartPolicyAlways, 0, True),
        (v1.RestartPolicyOnFailure, 1, True),
        (v1.RestartPolicyOnFailure, 0, False),
        (v1.RestartPolicyNever, 1, False),
        (v1.RestartPolicyNever, 0, False),
    ],
)
def test_exited_container_and_the_restart_policy(manager, policy, exit_code, restarted):
    pod = make_pod(restart_policy=policy)
    app = pod.spec.containers[0]
    st = pod_status(pod, [sandbox()], [status(app, ContainerStateExited, exit_code)])
    a = manager.compute_pod_actions(pod, st)
    assert a.containers_to_start == ([0] if restarted else [])
    # Nothing left running and nothing to start: the pod is killed (its sandbox stopped).
    assert a.kill_pod == (not restarted)
    assert not a.create_sandbox


def test_running_container_with_the_same_spec_is_kept(manager):
    pod = make_pod()
    st = pod_status(pod, [sandbox()], [status(pod.spec.containers[0], ContainerStateRunning)])
    a = manager.compute_pod_actions(pod, st)
    assert a == PodActions(sandbox_id="sb1")


def test_changed_spec_kills_and_restarts_the_container(manager):
    pod = make_pod()
    old = container("app", image="busybox:1.33")
    st = pod_status(pod, [sandbox()], [status(old, ContainerStateRunning)])
    a = manager.compute_pod_actions(pod, st)
    assert a.containers_to_start == [0]
    info = a.containers_to_kill[ContainerID("fake", "id-app")]
    assert info.message == "Container app definition changed, will be restarted"


def test_failed_liveness_probe_kills_and_restarts(manager):
    pod = make_pod()
    app_status = status(pod.spec.containers[0], ContainerStateRunning)
    manager.liveness_manager.cache[app_status.id] = Result.Failure
    a = manager.compute_pod_actions(pod, pod_status(pod, [sandbox()], [app_status]))
    assert a.containers_to_start == [0]
    assert a.containers_to_kill[app_status.id].reason == reasonLivenessProbe


def test_unknown_container_is_killed_before_restart(manager):
    pod = make_pod()
    app_status = status(pod.spec.containers[0], ContainerStateUnknown)
    a = manager.compute_pod_actions(pod, pod_status(pod, [sandbox()], [app_status]))
    assert a.containers_to_start == [0]
    assert app_status.id in a.containers_to_kill


def test_dead_sandbox_kills_the_pod_and_makes_a_new_sandbox(manager):
    pod = make_pod()
    st = pod_status(
        pod,
        [sandbox(state=runtimeapi.PodSandboxState_SANDBOX_NOTREADY, attempt=0)],
        [status(pod.spec.containers[0], ContainerStateRunning)],
    )
    a = manager.compute_pod_actions(pod, st)
    assert a.kill_pod and a.create_sandbox
    assert (a.attempt, a.sandbox_id) == (1, "sb1")
    assert a.containers_to_start == [0]


def test_dead_sandbox_of_a_finished_never_pod_is_not_recreated(manager):
    pod = make_pod(restart_policy=v1.RestartPolicyNever)
    st = pod_status(
        pod,
        [sandbox(state=runtimeapi.PodSandboxState_SANDBOX_NOTREADY)],
        [status(pod.spec.containers[0], ContainerStateExited, 0)],
    )
    a = manager.compute_pod_actions(pod, st)
    assert a.kill_pod and not a.create_sandbox


def test_two_ready_sandboxes_are_reconciled(manager):
    pod = make_pod()
    st = pod_status(pod, [sandbox("sb2", attempt=1), sandbox("sb1")])
    a = manager.compute_pod_actions(pod, st)
    assert a.create_sandbox and (a.attempt, a.sandbox_id) == (2, "sb2")


def test_sandbox_without_ip_is_recreated(manager):
    pod = make_pod()
    a = manager.compute_pod_actions(pod, pod_status(pod, [sandbox(ip="")]))
    assert a.create_sandbox and a.attempt == 1


def test_host_network_change_recreates_the_sandbox_without_killing_it_by_id(manager):
    pod = make_pod()
    pod.spec.host_network = True
    a = manager.compute_pod_actions(pod, pod_status(pod, [sandbox()]))
    assert a.create_sandbox and a.sandbox_id == ""


def test_on_failure_pod_with_succeeded_containers_gets_no_new_sandbox(manager):
    pod = make_pod(restart_policy=v1.RestartPolicyOnFailure)
    st = pod_status(
        pod,
        [sandbox(state=runtimeapi.PodSandboxState_SANDBOX_NOTREADY)],
        [status(pod.spec.containers[0], ContainerStateExited, 0)],
    )
    a = manager.compute_pod_actions(pod, st)
    assert not a.create_sandbox


def test_find_next_init_container_to_run():
    pod = two_init_pod()
    i1, i2 = pod.spec.init_containers
    app = pod.spec.containers[0]
    st = pod_status(pod)
    assert find_next_init_container_to_run(pod, st) == (None, i1, False)
    st.container_statuses = [status(i1, ContainerStateExited)]
    assert find_next_init_container_to_run(pod, st) == (None, i2, False)
    failed = status(i2, ContainerStateExited, 2)
    st.container_statuses = [failed, status(i1, ContainerStateExited)]
    assert find_next_init_container_to_run(pod, st) == (failed, i2, False)
    # A running app container means initialization happened, even if its records are gone.
    st.container_statuses = [status(app, ContainerStateRunning)]
    assert find_next_init_container_to_run(pod, st) == (None, None, True)


def test_pod_actions_print_like_go():
    a = PodActions(kill_pod=True, create_sandbox=True, containers_to_start=[0, 1])
    assert str(a) == (
        "{KillPod:true CreateSandbox:true SandboxID: Attempt:0 NextInitContainerToStart:nil "
        "ContainersToStart:[0 1] ContainersToKill:map[] EphemeralContainersToStart:[]}"
    )
