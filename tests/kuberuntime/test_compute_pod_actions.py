"""computePodActions, table-driven: what SyncPod decides for a pod and its runtime status.

Go: pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions (v1.21.4 L516-691).
kubelet's own tests (TestComputePodActions and TestComputePodActionsWithInitContainers in
kuberuntime_manager_test.go) cover these situations; the cases here are ours, each starting
from a pod whose sandbox is ready and whose containers all run their current spec, and changing
one thing. Ephemeral containers are left out: their feature gate is off in v1.21.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

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
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kuberuntime.kuberuntime_container import find_next_init_container_to_run
from minikubelet.kuberuntime.kuberuntime_manager import (
    ContainerKillReason,
    ContainerToKillInfo,
    PodActions,
    reasonLivenessProbe,
    reasonStartupProbe,
    reasonUnknown,
)
from minikubelet.prober.results.results_manager import Result
from minikubelet.sim.container_runtime import new_fake_runtime
from tests.kuberuntime.podutil import container, make_pod

NOW = 1_626_307_200.0
NOT_READY = runtimeapi.PodSandboxState_SANDBOX_NOTREADY


def sandbox(
    id: str = "sb1",
    state: runtimeapi.PodSandboxState = runtimeapi.PodSandboxState_SANDBOX_READY,
    attempt: int = 0,
    ip: str = "10.88.0.2",
) -> runtimeapi.PodSandboxStatus:
    return runtimeapi.PodSandboxStatus(
        id=id,
        metadata=runtimeapi.PodSandboxMetadata(name="web", namespace="default", attempt=attempt),
        state=state,
        created_at=1,
        network=runtimeapi.PodSandboxNetworkStatus(ip=ip),
        linux=runtimeapi.LinuxPodSandboxStatus(
            namespaces=runtimeapi.Namespace(
                options=runtimeapi.NamespaceOption(network=runtimeapi.NamespaceMode_POD)
            )
        ),
    )


def status(c: v1.Container, state: State = ContainerStateRunning, exit_code: int = 0) -> Status:
    return Status(
        id=ContainerID("fake", f"id-{c.name}"),
        name=c.name,
        state=state,
        exit_code=exit_code,
        hash=hash_container(c),
        created_at=NOW,
        started_at=NOW,
        finished_at=NOW + 1 if state == ContainerStateExited else 0.0,
    )


@dataclass
class World:
    """The pod and its runtime status as a case leaves them, and the probe results."""

    pod: v1.Pod
    status: PodStatus
    liveness: dict[ContainerID, Result] = field(default_factory=dict)
    startup: dict[ContainerID, Result] = field(default_factory=dict)

    def c(self, i: int) -> Status:
        """The runtime status of the i-th container status."""
        return self.status.container_statuses[i]


def three_running(policy: v1.RestartPolicy = v1.RestartPolicyAlways) -> World:
    pod = make_pod(
        containers=[container("a"), container("b"), container("c")], restart_policy=policy
    )
    st = PodStatus(
        id=pod.metadata.uid,
        name=pod.metadata.name,
        namespace=pod.metadata.namespace,
        sandbox_statuses=[sandbox()],
        container_statuses=[status(c) for c in pod.spec.containers],
    )
    return World(pod, st)


def three_inits_done(policy: v1.RestartPolicy = v1.RestartPolicyAlways) -> World:
    """Three init containers, all exited 0; no app container created yet."""
    w = three_running(policy)
    w.pod.spec.init_containers = [container("i1"), container("i2"), container("i3")]
    w.status.container_statuses = [
        status(c, ContainerStateExited) for c in w.pod.spec.init_containers
    ]
    return w


@dataclass
class Want:
    """The expected actions; ``kill`` maps container IDs to (name, reason), messages aside."""

    kill_pod: bool = False
    create_sandbox: bool = False
    sandbox_id: str = "sb1"
    attempt: int = 0
    next_init: str | None = None
    start: list[int] = field(default_factory=list)
    kill: dict[str, tuple[str, str]] = field(default_factory=dict)


def new_pod(w: World) -> None:
    w.status.sandbox_statuses = []
    w.status.container_statuses = []


def exit_(i: int, code: int) -> Callable[[World], None]:
    def change(w: World) -> None:
        w.c(i).state, w.c(i).exit_code = ContainerStateExited, code

    return change


def sandbox_dead(attempt: int = 0) -> Callable[[World], None]:
    def change(w: World) -> None:
        w.status.sandbox_statuses[0].state = NOT_READY
        w.status.sandbox_statuses[0].metadata.attempt = attempt  # type: ignore[union-attr]

    return change


def both(*changes: Callable[[World], None]) -> Callable[[World], None]:
    def change(w: World) -> None:
        for c in changes:
            c(w)

    return change


def all_exited(w: World) -> None:
    for s in w.status.container_statuses:
        s.state, s.exit_code = ContainerStateExited, 0


def spec_changed(w: World) -> None:
    w.c(1).hash = 432423432


def probe_failed(kind: str) -> Callable[[World], None]:
    def change(w: World) -> None:
        getattr(w, kind)[w.c(1).id] = Result.FAILURE

    return change


def unknown(i: int) -> Callable[[World], None]:
    def change(w: World) -> None:
        w.c(i).state = ContainerStateUnknown

    return change


def no_ip(w: World) -> None:
    w.status.sandbox_statuses[0].network.ip = ""  # type: ignore[union-attr]


def no_containers(w: World) -> None:
    w.status.container_statuses = []


def init_running(i: int) -> Callable[[World], None]:
    def change(w: World) -> None:
        w.c(i).state = ContainerStateRunning

    return change


ALWAYS, ON_FAILURE, NEVER = v1.RestartPolicyAlways, v1.RestartPolicyOnFailure, v1.RestartPolicyNever
B_UNKNOWN = {"fake://id-b": ("b", str(reasonUnknown))}

CASES: list[tuple[str, Callable[[], World], Callable[[World], None] | None, Want]] = [
    # --- regular containers (TestComputePodActions' situations) --------------------------------
    ("all running, same spec: nothing to do", three_running, None, Want()),
    (
        "a new pod: create the sandbox, start every container",
        three_running,
        new_pod,
        Want(kill_pod=True, create_sandbox=True, sandbox_id="", start=[0, 1, 2]),
    ),
    (
        "Always restarts exited containers, success or failure",
        three_running,
        both(exit_(0, 0), exit_(1, 111)),
        Want(start=[0, 1]),
    ),
    (
        "OnFailure restarts only the failed one",
        lambda: three_running(ON_FAILURE),
        both(exit_(0, 0), exit_(1, 111)),
        Want(start=[1]),
    ),
    (
        "Never restarts nothing",
        lambda: three_running(NEVER),
        both(exit_(0, 0), exit_(1, 111)),
        Want(),
    ),
    (
        "a dead sandbox (Always): kill the pod, next sandbox attempt, start all",
        three_running,
        sandbox_dead(),
        Want(kill_pod=True, create_sandbox=True, attempt=1, start=[0, 1, 2]),
    ),
    (
        "a dead sandbox (OnFailure): start all but the one that succeeded",
        lambda: three_running(ON_FAILURE),
        both(sandbox_dead(), exit_(1, 0)),
        Want(kill_pod=True, create_sandbox=True, attempt=1, start=[0, 2]),
    ),
    (
        "a sandbox without an IP is made again",
        three_running,
        no_ip,
        Want(kill_pod=True, create_sandbox=True, attempt=1, start=[0, 1, 2]),
    ),
    (
        "a changed spec: kill the container and start it again",
        three_running,
        spec_changed,
        Want(start=[1], kill={"fake://id-b": ("b", "")}),
    ),
    (
        "a failed liveness probe: kill and restart",
        three_running,
        probe_failed("liveness"),
        Want(start=[1], kill={"fake://id-b": ("b", str(reasonLivenessProbe))}),
    ),
    (
        "a failed liveness probe under Never: kill, no restart",
        lambda: three_running(NEVER),
        probe_failed("liveness"),
        Want(kill={"fake://id-b": ("b", str(reasonLivenessProbe))}),
    ),
    (
        "a failed startup probe: kill and restart",
        three_running,
        probe_failed("startup"),
        Want(start=[1], kill={"fake://id-b": ("b", str(reasonStartupProbe))}),
    ),
    (
        "Never, no ready sandbox, everything exited: kill, no new sandbox",
        lambda: three_running(NEVER),
        both(sandbox_dead(1), all_exited),
        Want(kill_pod=True, attempt=2),
    ),
    (
        "Never, no ready sandbox, no container ever created: a new sandbox",
        lambda: three_running(NEVER),
        both(sandbox_dead(2), no_containers),
        Want(kill_pod=True, create_sandbox=True, attempt=3, start=[0, 1, 2]),
    ),
    (
        "a container in an unknown state: kill it, then start it",
        lambda: three_running(NEVER),
        unknown(1),
        Want(start=[1], kill=B_UNKNOWN),
    ),
    # --- init containers (TestComputePodActionsWithInitContainers' situations) ---------------
    ("initialization done: start the containers", three_inits_done, None, Want(start=[0, 1, 2])),
    ("an init container still running: wait", three_inits_done, init_running(2), Want()),
    (
        "a dead sandbox: kill the pod, start again from the first init container",
        three_inits_done,
        sandbox_dead(),
        Want(kill_pod=True, create_sandbox=True, attempt=1, next_init="i1"),
    ),
    (
        "the last init container failed (Always): run it again",
        three_inits_done,
        exit_(2, 137),
        Want(next_init="i3"),
    ),
    (
        "the last init container failed (OnFailure): run it again",
        lambda: three_inits_done(ON_FAILURE),
        exit_(2, 137),
        Want(next_init="i3"),
    ),
    (
        "the last init container failed (Never): kill the pod",
        lambda: three_inits_done(NEVER),
        exit_(2, 137),
        Want(kill_pod=True),
    ),
    (
        "an init container in an unknown state (Always): kill it, run it again",
        three_inits_done,
        unknown(2),
        Want(next_init="i3", kill={"fake://id-i3": ("i3", str(reasonUnknown))}),
    ),
    (
        "an init container in an unknown state (OnFailure): kill it, run it again",
        lambda: three_inits_done(ON_FAILURE),
        unknown(2),
        Want(next_init="i3", kill={"fake://id-i3": ("i3", str(reasonUnknown))}),
    ),
    (
        "an init container in an unknown state (Never): kill the pod",
        lambda: three_inits_done(NEVER),
        unknown(2),
        Want(kill_pod=True),
    ),
    (
        "Never, sandbox not ready, init containers ran: kill only",
        lambda: three_inits_done(NEVER),
        sandbox_dead(),
        Want(kill_pod=True, attempt=1),
    ),
    (
        "Never, sandbox not ready, no init container seen: a new sandbox, the first init",
        lambda: three_inits_done(NEVER),
        both(sandbox_dead(), no_containers),
        Want(kill_pod=True, create_sandbox=True, attempt=1, next_init="i1"),
    ),
    # --- ours: situations the Go tables do not name ------------------------------------------
    (
        "two ready sandboxes: a new one is made, after the newest (sb2)",
        three_running,
        lambda w: w.status.sandbox_statuses.insert(0, sandbox("sb2", attempt=1)),
        Want(kill_pod=True, create_sandbox=True, sandbox_id="sb2", attempt=2, start=[0, 1, 2]),
    ),
    (
        "the pod moved to the host's network: a new sandbox",
        three_running,
        lambda w: setattr(w.pod.spec, "host_network", True),
        Want(kill_pod=True, create_sandbox=True, sandbox_id="", attempt=1, start=[0, 1, 2]),
    ),
]


@pytest.mark.parametrize(
    ("build", "change", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_compute_pod_actions(build, change, want: Want) -> None:
    w = build()
    if change is not None:
        change(w)
    manager = new_fake_runtime().manager
    manager.liveness_manager.cache.update(w.liveness)  # type: ignore[attr-defined]
    manager.startup_manager.cache.update(w.startup)  # type: ignore[attr-defined]
    got = manager.compute_pod_actions(w.pod, w.status)
    nxt = got.next_init_container_to_start
    assert (got.kill_pod, got.create_sandbox, got.sandbox_id, got.attempt) == (
        want.kill_pod,
        want.create_sandbox,
        want.sandbox_id,
        want.attempt,
    )
    assert (nxt.name if nxt is not None else None) == want.next_init
    assert got.containers_to_start == want.start
    assert {str(k): (v.name, str(v.reason)) for k, v in got.containers_to_kill.items()} == want.kill


def test_find_next_init_container_to_run():
    w = three_inits_done()
    i1, i2, _ = w.pod.spec.init_containers
    st = w.status
    st.container_statuses = []
    assert find_next_init_container_to_run(w.pod, st) == (None, i1, False)
    st.container_statuses = [status(i1, ContainerStateExited)]
    assert find_next_init_container_to_run(w.pod, st) == (None, i2, False)
    failed = status(i2, ContainerStateExited, 2)
    st.container_statuses = [failed, status(i1, ContainerStateExited)]
    assert find_next_init_container_to_run(w.pod, st) == (failed, i2, False)
    # A running app container means initialization happened, even if its records are gone.
    st.container_statuses = [status(w.pod.spec.containers[0])]
    assert find_next_init_container_to_run(w.pod, st) == (None, None, True)


def test_pod_actions_print_like_go():
    # kuberuntime_manager.go:705 logs the podActions struct (lines 430-454) with klog's %+v: the
    # next init container is a *v1.Container (its String(), or nil), the map is keyed by
    # kubecontainer.ContainerID values ({Type:... ID:...}), and containerToKillInfo's fields
    # (lines 417-427) are unexported, so its *v1.Container prints as an address.
    a = PodActions(kill_pod=True, create_sandbox=True, containers_to_start=[0, 1])
    assert klog.format_value(a) == (
        "{KillPod:true CreateSandbox:true SandboxID: Attempt:0 NextInitContainerToStart:nil "
        "ContainersToStart:[0 1] ContainersToKill:map[] EphemeralContainersToStart:[]}"
    )
    c = v1.Container(name="app", image="busybox:1.36")
    a = PodActions(
        next_init_container_to_start=c,
        containers_to_kill={
            ContainerID("containerd", "abc"): ContainerToKillInfo(
                c,
                "app",
                "Container app failed liveness probe, will be restarted",
                ContainerKillReason.LIVENESS_PROBE,
            )
        },
    )
    text = klog.format_value(a)
    assert f"NextInitContainerToStart:{c} ContainersToStart:[]" in text
    assert re.search(
        r"ContainersToKill:map\[\{Type:containerd ID:abc\}:\{container:0xc0[0-9a-f]{8} name:app "
        r"message:Container app failed liveness probe, will be restarted reason:LivenessProbe\}\]",
        text,
    )
