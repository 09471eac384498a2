"""The status manager: versioned statuses, illegal transitions, readiness, termination."""

from __future__ import annotations

import copy

import pytest

from minikubelet import go
from minikubelet.container.runtime import ContainerID
from minikubelet.k8s_io.api.core.v1 import (
    ConditionStatus,
    Container,
    ContainerState,
    ContainerStateRunning,
    ContainerStateTerminated,
    ContainerStateWaiting,
    ContainerStatus,
    Pod,
    PodCondition,
    PodConditionType,
    PodPhase,
    PodSpec,
    PodStatus,
    RestartPolicy,
)
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.pod.mirror_client import BasicMirrorClient
from minikubelet.pod.pod_manager import BasicManager
from minikubelet.status.status_manager import (
    StatusManager,
    check_container_state_transition,
    is_pod_status_by_kubelet_equal,
    need_to_reconcile_pod_readiness,
    new_manager,
    normalize_status,
)


def make_pod(
    name: str = "nginx",
    uid: str = "uid-nginx",
    restart_policy: RestartPolicy = RestartPolicy.ALWAYS,
    containers: tuple[str, ...] = ("nginx",),
) -> Pod:
    return Pod(
        metadata=ObjectMeta(name=name, namespace="default", uid=uid),
        spec=PodSpec(
            containers=[Container(name=c, image="nginx:1.21") for c in containers],
            restart_policy=restart_policy,
        ),
    )


def running(name: str = "nginx", cid: str = "containerd://c1", ready: bool = False):
    return ContainerStatus(
        name=name,
        container_id=cid,
        ready=ready,
        state=ContainerState(running=ContainerStateRunning(started_at=1.0)),
    )


def terminated(name: str = "nginx", cid: str = "containerd://c1", exit_code: int = 0):
    return ContainerStatus(
        name=name,
        container_id=cid,
        state=ContainerState(terminated=ContainerStateTerminated(exit_code=exit_code)),
    )


def pod_status(phase: PodPhase, *statuses: ContainerStatus, **kw) -> PodStatus:
    return PodStatus(phase=phase, container_statuses=list(statuses), **kw)


def pod_manager() -> BasicManager:
    return BasicManager(BasicMirrorClient())


def manager(*pods: Pod) -> StatusManager:
    pm = pod_manager()
    for p in pods:
        pm.add_pod(p)
    return new_manager(None, pm)


def test_set_then_get_pod_status_caches_a_deep_copy_with_a_start_time():
    pod = make_pod()

    async def main():
        m = manager(pod)
        status = pod_status(PodPhase.RUNNING, running())
        await m.set_pod_status(pod, status)
        status.container_statuses[0].ready = True  # the cache holds its own copy
        got, ok = m.get_pod_status(pod.metadata.uid)
        missing = m.get_pod_status("no-such-uid")
        return got, ok, missing, go.now().unix()

    got, ok, (missing, missing_ok), now = go.run(main)
    assert ok and got.phase == PodPhase.RUNNING
    assert got.container_statuses[0].ready is False
    assert got.start_time == float(int(now))  # set on the first status, whole seconds
    assert missing == PodStatus() and missing_ok is False


def test_get_pod_status_translates_a_mirror_pod_uid():
    pod = make_pod()
    pod.metadata.annotations = {"kubernetes.io/config.source": "file"}
    mirror = make_pod(uid="uid-mirror")
    mirror.metadata.annotations = {"kubernetes.io/config.mirror": "hash"}

    async def main():
        m = manager(pod, mirror)
        await m.set_pod_status(pod, pod_status(PodPhase.PENDING))
        return m.get_pod_status("uid-mirror")

    status, ok = go.run(main)
    assert ok and status.phase == PodPhase.PENDING


def test_version_increments_and_the_same_status_is_ignored():
    pod = make_pod()

    async def main():
        m = manager(pod)
        versions = []
        for phase in (PodPhase.PENDING, PodPhase.RUNNING, PodPhase.RUNNING):
            await m.set_pod_status(pod, pod_status(phase))
            versions.append(m.pod_statuses[pod.metadata.uid].version)
        same = await m.update_status_internal(pod, pod_status(PodPhase.RUNNING), False)
        forced = await m.update_status_internal(pod, pod_status(PodPhase.RUNNING), True)
        versions.append(m.pod_statuses[pod.metadata.uid].version)
        return versions, same, forced

    versions, same, forced = go.run(main)
    assert versions == [1, 2, 2, 3]
    assert same is False  # no new status
    assert forced is True  # force_update (e.g. a deletion timestamp) always makes a version


@pytest.mark.parametrize(
    ("policy", "exit_code", "allowed"),
    [
        (RestartPolicy.NEVER, 0, False),
        (RestartPolicy.NEVER, 1, False),
        (RestartPolicy.ON_FAILURE, 0, False),
        (RestartPolicy.ON_FAILURE, 1, True),  # failed, and allowed to restart
        (RestartPolicy.ALWAYS, 0, True),
    ],
)
def test_terminated_to_running_is_refused_unless_the_restart_policy_allows_it(
    policy, exit_code, allowed, capsys
):
    pod = make_pod(restart_policy=policy)

    async def main():
        m = manager(pod)
        await m.set_pod_status(pod, pod_status(PodPhase.RUNNING, terminated(exit_code=exit_code)))
        await m.set_pod_status(pod, pod_status(PodPhase.RUNNING, running()))
        return m.get_pod_status(pod.metadata.uid)[0], m.pod_statuses[pod.metadata.uid].version

    status, version = go.run(main)
    state = status.container_statuses[0].state
    if allowed:
        assert state.running is not None and version == 2
    else:
        assert state.terminated is not None and version == 1
        assert (
            'err="terminated container nginx attempted illegal transition to non-terminated '
            'state"' in capsys.readouterr().err
        )


def test_init_container_transitions_are_checked_too():
    with pytest.raises(ValueError, match="terminated container init"):
        check_container_state_transition(
            [terminated("init")], [running("init")], RestartPolicy.NEVER
        )
    pod = make_pod(restart_policy=RestartPolicy.NEVER)

    async def main():
        m = manager(pod)
        await m.set_pod_status(
            pod, PodStatus(phase=PodPhase.PENDING, init_container_statuses=[terminated("init")])
        )
        await m.set_pod_status(
            pod, PodStatus(phase=PodPhase.PENDING, init_container_statuses=[running("init")])
        )
        return m.pod_statuses[pod.metadata.uid].version

    assert go.run(main) == 1


def conditions(ready: ConditionStatus) -> list[PodCondition]:
    return [
        PodCondition(type=PodConditionType.INITIALIZED, status=ConditionStatus.TRUE),
        PodCondition(type=PodConditionType.READY, status=ready),
        PodCondition(type=PodConditionType.CONTAINERS_READY, status=ready),
        PodCondition(type=PodConditionType.POD_SCHEDULED, status=ConditionStatus.TRUE),
    ]


def test_readiness_change_updates_ready_and_containers_ready_and_their_transition_times():
    pod = make_pod()

    async def main():
        m = manager(pod)
        status = pod_status(
            PodPhase.RUNNING, running(), conditions=conditions(ConditionStatus.FALSE)
        )
        await m.set_pod_status(pod, status)
        t0 = go.now().unix()
        await go.sleep(5 * go.Second)
        await m.set_container_readiness(pod.metadata.uid, ContainerID("containerd", "c1"), True)
        t1 = go.now().unix()
        got, _ = m.get_pod_status(pod.metadata.uid)
        return got, t0, t1, m.pod_statuses[pod.metadata.uid].version

    got, t0, t1, version = go.run(main)
    by_type = {c.type: c for c in got.conditions}
    assert got.container_statuses[0].ready is True
    assert by_type[PodConditionType.READY].status == ConditionStatus.TRUE
    assert by_type[PodConditionType.CONTAINERS_READY].status == ConditionStatus.TRUE
    assert by_type[PodConditionType.READY].last_transition_time == int(t1)
    assert by_type[PodConditionType.CONTAINERS_READY].last_transition_time == int(t1)
    # Unchanged conditions keep the time they last changed.
    assert by_type[PodConditionType.INITIALIZED].last_transition_time == int(t0)
    assert by_type[PodConditionType.POD_SCHEDULED].last_transition_time == int(t0)
    assert version == 2


def test_readiness_of_unknown_pods_and_containers_and_unchanged_readiness_is_a_no_op(capsys):
    pod = make_pod()

    async def main():
        m = manager(pod)
        cid = ContainerID("containerd", "c1")
        await m.set_container_readiness("no-such-pod", cid, True)  # not in the pod manager
        await m.set_container_readiness(pod.metadata.uid, cid, True)  # not synced yet
        await m.set_pod_status(pod, pod_status(PodPhase.RUNNING, running(ready=True)))
        await m.set_container_readiness(pod.metadata.uid, ContainerID("containerd", "x"), False)
        await m.set_container_readiness(pod.metadata.uid, cid, True)  # unchanged
        return m.pod_statuses[pod.metadata.uid].version

    assert go.run(main) == 1
    err = capsys.readouterr().err
    assert '"Container readiness changed before pod has synced" pod="default/nginx"' in err
    assert '"Container readiness changed for unknown container"' in err


def test_set_container_startup_sets_started():
    pod = make_pod()

    async def main():
        m = manager(pod)
        await m.set_pod_status(pod, pod_status(PodPhase.RUNNING, running()))
        await m.set_container_startup(pod.metadata.uid, ContainerID("containerd", "c1"), True)
        first = m.pod_statuses[pod.metadata.uid].version
        await m.set_container_startup(pod.metadata.uid, ContainerID("containerd", "c1"), True)
        return m.get_pod_status(pod.metadata.uid)[0], first, m.pod_statuses[pod.metadata.uid]

    status, first, latest = go.run(main)
    assert status.container_statuses[0].started is True
    assert first == 2 and latest.version == 2


def test_last_transition_time_is_kept_while_the_condition_status_is_unchanged():
    pod = make_pod()

    async def main():
        m = manager(pod)
        times = []
        for ready in (ConditionStatus.FALSE, ConditionStatus.FALSE, ConditionStatus.TRUE):
            status = pod_status(PodPhase.RUNNING, running(), conditions=conditions(ready))
            status.conditions[1].message = f"at {go.now().unix()}"  # a change: a new version
            await m.set_pod_status(pod, status)
            got, _ = m.get_pod_status(pod.metadata.uid)
            times.append((go.now().unix(), got.conditions[1].last_transition_time))
            await go.sleep(10 * go.Second)
        return times

    (t0, ltt0), (_, ltt1), (t2, ltt2) = go.run(main)
    assert ltt0 == int(t0)
    assert ltt1 == ltt0  # still False: the time it became False
    assert ltt2 == int(t2)  # became True


def test_terminate_pod_marks_running_containers_unknown_with_exit_code_137():
    pod = make_pod(containers=("web", "sidecar", "done"))

    async def main():
        m = manager(pod)
        await m.set_pod_status(
            pod,
            pod_status(
                PodPhase.RUNNING,
                running("web", "containerd://w"),
                ContainerStatus(
                    name="sidecar",
                    state=ContainerState(waiting=ContainerStateWaiting(reason="ImagePullBackOff")),
                ),
                terminated("done", "containerd://d", exit_code=3),
            ),
        )
        await m.terminate_pod(pod)
        return m.get_pod_status(pod.metadata.uid)[0], m.pod_statuses[pod.metadata.uid].version

    status, version = go.run(main)
    states = {cs.name: cs.state for cs in status.container_statuses}
    web = states["web"].terminated
    assert web is not None and web.exit_code == 137
    assert web.reason == "ContainerStatusUnknown"
    assert web.message == "The container could not be located when the pod was terminated"
    assert states["sidecar"].waiting is not None and states["sidecar"].terminated is None
    assert states["done"].terminated is not None and states["done"].terminated.exit_code == 3
    assert version == 2


def test_terminate_pod_without_a_cached_status_starts_from_the_pods_own_status():
    pod = make_pod()
    pod.status = pod_status(PodPhase.RUNNING, running())

    async def main():
        m = manager(pod)
        await m.terminate_pod(pod)
        return m.get_pod_status(pod.metadata.uid)

    status, ok = go.run(main)
    assert ok and status.container_statuses[0].state.terminated.exit_code == 137
    assert pod.status.container_statuses[0].state.running is not None  # pod left alone


def test_remove_orphaned_statuses():
    pods = [make_pod(name=n, uid=f"uid-{n}") for n in ("a", "b", "c")]

    async def main():
        m = manager(*pods)
        for p in pods:
            await m.set_pod_status(p, pod_status(PodPhase.PENDING))
        m.remove_orphaned_statuses({"uid-b": True})
        left = sorted(m.pod_statuses)
        m.remove_orphaned_statuses(set())
        return left, sorted(m.pod_statuses)

    assert go.run(main) == (["uid-b"], [])


def test_a_full_channel_skips_the_sync_but_still_caches_the_status(capsys):
    pod = make_pod()

    async def main():
        from minikubelet.k8s_io.klog.v2 import klog

        m = manager(pod)
        queued = []
        for i in range(1001):
            queued.append(
                await m.update_status_internal(
                    pod, pod_status(PodPhase.PENDING, message=str(i)), False
                )
            )
        klog.configure(verbosity=4)
        try:
            last = await m.update_status_internal(
                pod, pod_status(PodPhase.RUNNING, message="last"), False
            )
        finally:
            klog.configure(verbosity=0)
        return queued, last, m

    queued, last, m = go.run(main)
    assert all(queued[:1000]) and queued[1000] is False  # nobody reads the channel
    assert last is False
    assert len(m.pod_status_channel) == 1000
    status, _ = m.get_pod_status(pod.metadata.uid)
    assert status.message == "last" and m.pod_statuses[pod.metadata.uid].version == 1002
    assert "Skipping the status update for pod for now because the channel is full" in (
        capsys.readouterr().err
    )


def test_observer_sees_each_new_version_with_the_previous_status():
    pod = make_pod()
    seen = []

    async def main():
        m = manager(pod)
        m.on_status_change = lambda p, new, old: seen.append(
            (p.metadata.name, None if old is None else old.phase, new.phase)
        )
        await m.set_pod_status(pod, pod_status(PodPhase.PENDING))
        await m.set_pod_status(pod, pod_status(PodPhase.PENDING))  # same: no new version
        await m.set_pod_status(pod, pod_status(PodPhase.RUNNING))

    go.run(main)
    assert seen == [
        ("nginx", None, PodPhase.PENDING),
        ("nginx", PodPhase.PENDING, PodPhase.RUNNING),
    ]


def test_start_without_a_client_logs_and_returns(capsys):
    async def main():
        manager().start()

    go.run(main)
    assert '"Kubernetes client is nil, not starting status manager"' in capsys.readouterr().err


def test_normalize_status_truncates_times_sorts_and_shortens_messages():
    pod = make_pod(containers=("b", "a"))
    pod.spec.init_containers = [Container(name="i2", image="x"), Container(name="i1", image="x")]
    status = PodStatus(
        start_time=100.75,
        conditions=[
            PodCondition(type="Ready", status=ConditionStatus.TRUE, last_transition_time=5.5)
        ],
        container_statuses=[
            ContainerStatus(
                name="b",
                state=ContainerState(
                    terminated=ContainerStateTerminated(
                        message="é" * 4000, started_at=1.9, finished_at=2.1
                    )
                ),
            ),
            ContainerStatus(name="a"),
        ],
        init_container_statuses=[ContainerStatus(name="i1"), ContainerStatus(name="i2")],
    )
    normalize_status(pod, status)
    assert status.start_time == 100.0
    assert status.conditions[0].last_transition_time == 5.0
    assert [c.name for c in status.container_statuses] == ["a", "b"]
    assert [c.name for c in status.init_container_statuses] == ["i2", "i1"]  # spec order
    term = status.container_statuses[1].state.terminated
    assert term.started_at == 1.0 and term.finished_at == 2.0
    assert len(term.message.encode()) <= 12 * 1024 // 4  # the pod's share per container


def test_is_pod_status_by_kubelet_equal_ignores_conditions_kubelet_does_not_own():
    old = PodStatus(
        phase=PodPhase.RUNNING,
        conditions=[PodCondition(type="example.com/gate", status=ConditionStatus.FALSE)],
    )
    new = copy.deepcopy(old)
    new.conditions = [PodCondition(type="example.com/gate", status=ConditionStatus.TRUE)]
    assert is_pod_status_by_kubelet_equal(old, new)
    new.conditions.append(PodCondition(type="Ready", status=ConditionStatus.TRUE))
    assert not is_pod_status_by_kubelet_equal(old, new)


def test_need_to_reconcile_pod_readiness_is_false_without_readiness_gates():
    pod = make_pod()
    pod.status = PodStatus(
        conditions=[PodCondition(type="Ready", status=ConditionStatus.TRUE)],
    )
    assert need_to_reconcile_pod_readiness(pod) is False
