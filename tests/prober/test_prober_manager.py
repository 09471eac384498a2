"""The probe manager and its workers, run under the virtual clock: readiness, liveness, startup,
thresholds, initial delays, holds, removal, and UpdatePodStatus."""

from __future__ import annotations

import io
import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minikubelet import go
from minikubelet.container.runtime import parse_container_id
from minikubelet.go import DeadlockError, Second
from minikubelet.go.duration import format_duration
from minikubelet.k8s_io.api.core.v1 import (
    ContainerState,
    ContainerStateTerminated,
    ContainerStateWaiting,
    ContainerStatus,
    PodPhase,
    PodStatus,
    RestartPolicy,
)
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.prober.prober_manager import ProbeKey, liveness, readiness, startup
from minikubelet.prober.results.results_manager import Result
from tests.prober.harness import POD_IP, Harness, http_probe, make_pod, running

S, F, U = Result.SUCCESS, Result.FAILURE, Result.UNKNOWN
ID1, ID2 = "containerd://nginx-1", "containerd://nginx-2"


@pytest.fixture
def klog_out():
    """klog's lines, written to a buffer for the test."""
    buf = io.StringIO()
    klog.configure(out=buf)
    yield buf
    klog.configure(out=None)


async def settle(h: Harness, seconds: float = 100) -> None:
    """Let time pass after making the manager, so the workers start probing at once (the random
    initial wait only happens while the manager is younger than a probe period)."""
    await go.sleep(seconds)


# --- readiness -------------------------------------------------------------------------------


def test_readiness_becomes_ready_after_succeed_after_and_success_threshold():
    """Fails until the container has run 10 s, then needs 2 successes in a row; the first probe
    comes after a random part of the period (the manager is new), drawn from the seeded RNG."""
    pod = make_pod(
        scripts="nginx: {readiness: {succeedAfter: 10s}}",
        readiness=http_probe(period_seconds=2, success_threshold=2, failure_threshold=3),
    )
    seen = {}

    async def main():
        h = Harness()
        h.add(pod)
        status = h.status_manager.statuses[pod.metadata.uid]
        seen["ready_at_start"] = status.container_statuses[0].ready
        await go.sleep(20)
        return h

    h = go.run(main, seed=7)
    first, success = h.of("readiness")
    # The initial value (not ready) at the first probe, after the random wait (< one period).
    j = first[0]
    assert 0 < j < 2 and first[1:] == (F, ID1)
    # Probes at j, j+2, …: the first one at >= 10 s succeeds, the next makes it 2 in a row.
    k = math.ceil((10 - j) / 2)
    assert success == (pytest.approx(j + 2 * k + 2), S, ID1)
    # Every probe before 10 s failed, each with an Unhealthy event saying why. The first one
    # ran twice: kubelet's UpdatePodStatus (right after AddPod) found no readiness result yet
    # and triggered a manual run, which the worker took as soon as its first probe was done.
    events = h.events("Unhealthy")
    assert [t for t, _ in events] == pytest.approx([j] + [j + 2 * i for i in range(k)])
    assert events[0][1] == (
        f"Readiness probe failed: HTTP GET http://{POD_IP}:8080/healthz: scripted failure "
        "(minikubelet.dev/probes nginx.readiness: succeedAfter 10s; container running for "
        f"{format_duration(round(j, 6))})"
    )
    # kubelet's UpdatePodStatus: not ready at first (a probe has not run yet), ready at the end.
    assert seen["ready_at_start"] is False
    status = h.status_manager.statuses[pod.metadata.uid]
    assert status.container_statuses[0].ready is True
    assert status.container_statuses[0].started is True


def test_readiness_thresholds_count_results_in_a_row():
    """successThreshold 1, failureThreshold 3: two failures in a row change nothing, three do.

    Probes at 0 s (twice: the second is the manual run kubelet's UpdatePodStatus triggered),
    5 s, 10 s …, taking the results in order."""
    pod = make_pod(
        scripts="nginx: {readiness: {results: [success, fail, fail, success, fail, fail, fail]}}",
        readiness=http_probe(period_seconds=5, failure_threshold=3),
    )

    async def main():
        h = Harness()
        await settle(h)
        h.add(pod)
        await go.sleep(41)
        state["cached"] = h.readiness_manager.get(parse_container_id(ID1))
        return h

    state = {}
    h = go.run(main, seed=1)
    # success@0, fail@0, fail@5, success@10, fail@15, fail@20, fail@25: the third in a row.
    assert h.of("readiness") == [(0, F, ID1), (0, S, ID1), (25, F, ID1)]
    assert [t for t, _ in h.events("Unhealthy")] == [0, 5, 15, 20, 25, 30, 35, 40]
    # The last result repeats: still failing, and no more updates (the result did not change).
    assert state["cached"] == (F, True)


def test_readiness_warning_is_a_success_with_an_event():
    pod = make_pod(
        scripts='{"nginx": {"readiness": {"results": ["warning"]}}}',  # JSON works too
        readiness=http_probe(period_seconds=10),
    )

    async def main():
        h = Harness()
        await settle(h)
        h.add(pod)
        await go.sleep(1)
        return h

    h = go.run(main, seed=1)
    assert h.of("readiness") == [(0, F, ID1), (0, S, ID1)]
    # Two probes at 0 s (the second one triggered by UpdatePodStatus), each warning.
    assert h.events("ProbeWarning") == [
        (
            0,
            f"Readiness probe warning: HTTP GET http://{POD_IP}:8080/healthz: scripted warning "
            f"(minikubelet.dev/probes nginx.readiness: results [warning]; probe {n} of this "
            "container)",
        )
        for n in (1, 2)
    ]
    assert h.events("Unhealthy") == []


def test_initial_delay_seconds_counts_from_the_container_start():
    """No probe before the container has run initialDelaySeconds (whole seconds, as Go)."""
    probe = http_probe(period_seconds=4, initial_delay_seconds=15)

    def run(age: float) -> list:
        async def main():
            h = Harness()
            await settle(h)
            h.add(make_pod(readiness=probe), age=age)
            await go.sleep(30)
            return h

        return go.run(main, seed=3).of("readiness")

    # Started with the worker: probes at 0, 4, 8, 12 are skipped, 16 is the first.
    assert run(0) == [(0, F, ID1), (16, S, ID1)]
    # Started 10 s before: at 8 s it has run 18 s.
    assert run(10) == [(0, F, ID1), (8, S, ID1)]
    # 14.5 s before: int(14.5) < 15 at 0 s, so the first probe is at 4 s.
    assert run(14.5) == [(0, F, ID1), (4, S, ID1)]


def test_manual_trigger_runs_the_readiness_probe_at_once():
    """UpdatePodStatus finds a readiness worker without a result and kicks it (manualTriggerCh)
    instead of leaving the container unready for a whole period."""
    pod = make_pod(readiness=http_probe(period_seconds=100))

    async def main():
        h = Harness()
        await settle(h, 200)
        h.add(pod, container_id="")  # the container does not exist yet
        await go.sleep(5)
        assert h.of("readiness") == []  # the worker's first probe found no container
        h.status_manager.statuses[pod.metadata.uid] = PodStatus(
            container_statuses=[running("nginx", ID1, float(go.now()))]
        )
        h.manager.update_pod_status(pod.metadata.uid, h.status_manager.statuses[pod.metadata.uid])
        await go.sleep(1)
        return h

    h = go.run(main, seed=1)
    assert h.of("readiness") == [(5, F, ID1), (5, S, ID1)]
    assert h.status_manager.statuses[pod.metadata.uid].container_statuses[0].ready is True


# --- liveness --------------------------------------------------------------------------------


def test_liveness_failure_after_fail_after_then_on_hold_until_restart():
    pod = make_pod(
        scripts="nginx: {liveness: {failAfter: 30s}}",
        liveness=http_probe(period_seconds=10, failure_threshold=3),
    )

    async def main():
        h = Harness()
        await settle(h)
        h.add(pod)
        await go.sleep(55)
        # Failures at 30, 40, 50 s: the third one reaches the threshold.
        assert h.of("liveness") == [(0, S, ID1), (50, F, ID1)]
        assert [t for t, _ in h.events("Unhealthy")] == [30, 40, 50]
        # On hold: the container keeps failing, but nobody probes it until it is restarted.
        await go.sleep(70)
        assert len(h.events()) == 3 and len(h.of("liveness")) == 2
        h.restart(pod, ID2)  # at 125 s
        await go.sleep(60)
        # The old container's result was removed when the worker saw the new one.
        assert h.liveness_manager.get(parse_container_id(ID1)) == (U, False)
        assert h.liveness_manager.get(parse_container_id(ID2)) == (F, True)
        return h

    h = go.run(main, seed=1)
    # The new container starts with the initial value (alive) at the next tick, then fails 30 s
    # after its start (at 155 s), i.e. at probes 160, 170 and 180 s.
    assert h.of("liveness") == [(0, S, ID1), (50, F, ID1), (130, S, ID2), (180, F, ID2)]
    events = h.events("Unhealthy")
    assert [t for t, _ in events] == [30, 40, 50, 160, 170, 180]
    assert events[0][1] == (
        f"Liveness probe failed: HTTP GET http://{POD_IP}:8080/healthz: scripted failure "
        "(minikubelet.dev/probes nginx.liveness: failAfter 30s; container running for 30s)"
    )
    assert all(e.type == "Warning" for e in h.recorder.events)
    assert str(h.recorder.events[0].object) == "default/web"


def test_results_script_starts_again_for_a_new_container():
    pod = make_pod(
        scripts="nginx: {liveness: {results: [success, fail]}}",
        liveness=http_probe(period_seconds=10, failure_threshold=1),
    )

    async def main():
        h = Harness()
        await settle(h)
        h.add(pod)
        await go.sleep(25)
        h.restart(pod, ID2)
        await go.sleep(20)
        return h

    h = go.run(main, seed=1)
    assert h.of("liveness") == [(0, S, ID1), (10, F, ID1), (30, S, ID2), (40, F, ID2)]
    assert [e[1].split(": scripted")[1] for e in h.events()] == [
        " failure (minikubelet.dev/probes nginx.liveness: results [success, fail]; probe 2 of "
        "this container)"
    ] * 2


# --- startup ---------------------------------------------------------------------------------


def test_startup_probe_gates_liveness_and_readiness():
    pod = make_pod(
        scripts="nginx: {startup: {succeedAfter: 20s}, liveness: {results: [fail]}}",
        startup=http_probe(period_seconds=5, failure_threshold=30),
        liveness=http_probe(period_seconds=5, failure_threshold=1),
        readiness=http_probe(period_seconds=5),
    )

    async def main():
        h = Harness()
        await settle(h)
        h.add(pod)
        await go.sleep(30)
        return h

    h = go.run(main, seed=1)
    startup_updates = h.of("startup")
    assert startup_updates == [(0, U, ID1), (20, S, ID1)]
    # Every probe before the container started was a startup probe (failing until 20 s); the
    # startup worker stops probing once the container has started.
    startup_events = [t for t, m in h.events() if m.startswith("Startup")]
    assert startup_events == [0, 5, 10, 15]
    # Liveness and readiness only probe once kubelet has marked the container started (20 s,
    # or the next tick if their worker ran before kubelet saw the startup result).
    liveness_events = [t for t, m in h.events() if m.startswith("Liveness")]
    assert liveness_events and liveness_events[0] in (20, 25)
    live = h.of("liveness")
    assert live[0] == (0, S, ID1) and live[1][0] == liveness_events[0] and live[1][1] == F
    ready = h.of("readiness")
    assert ready[0] == (0, F, ID1) and ready[1][1] == S and ready[1][0] in (20, 25)
    status = h.status_manager.statuses[pod.metadata.uid].container_statuses[0]
    assert status.started is True and status.ready is True


def test_liveness_never_probes_while_the_startup_probe_fails():
    pod = make_pod(
        scripts="nginx: {startup: {succeedAfter: 1h}, liveness: {results: [fail]}}",
        startup=http_probe(period_seconds=10, failure_threshold=100),
        liveness=http_probe(period_seconds=10, failure_threshold=1),
    )

    async def main():
        h = Harness()
        await settle(h)
        h.add(pod)
        await go.sleep(300)
        return h

    h = go.run(main, seed=1)
    assert h.of("liveness") == [(0, S, ID1)]
    assert {m.split(" ")[0] for _, m in h.events()} == {"Startup"}
    assert h.of("startup") == [(0, U, ID1)]


def test_startup_failure_puts_the_worker_on_hold():
    pod = make_pod(
        scripts="nginx: {startup: {results: [fail]}}",
        startup=http_probe(period_seconds=10, failure_threshold=3),
    )

    async def main():
        h = Harness()
        await settle(h)
        h.add(pod)
        await go.sleep(100)
        return h

    h = go.run(main, seed=1)
    assert h.of("startup") == [(0, U, ID1), (20, F, ID1)]
    assert len(h.events()) == 3


# --- stopping workers ------------------------------------------------------------------------


def all_probes_pod(uid: str = "uid-web", name: str = "web"):
    return make_pod(
        name=name,
        uid=uid,
        startup=http_probe(period_seconds=3),
        readiness=http_probe(period_seconds=3),
        liveness=http_probe(period_seconds=3),
    )


def test_remove_pod_stops_every_worker_and_leaves_nothing_running():
    pod = all_probes_pod()
    state = {}

    async def main():
        h = Harness(kubelet=False)
        h.add(pod)
        # No collectors may stay behind to block: read the updates here instead.
        await go.sleep(10)
        state["before"] = sorted(str(k.probe_type) for k in h.manager.workers)
        h.manager.remove_pod(pod)
        h.manager.remove_pod(pod)  # stop() is safe to call twice
        await go.sleep(4)
        state["after"] = h.manager.worker_count()
        cid = parse_container_id(ID1)
        state["cached"] = [
            m.get(cid)[1] for m in (h.liveness_manager, h.readiness_manager, h.startup_manager)
        ]
        state["harness"] = h
        await go.select()  # Go's select {}: only a goroutine or a timer left could wake us

    with pytest.raises(DeadlockError) as e:
        go.run(main, seed=1)
    assert state["before"] == ["Liveness", "Readiness", "Startup"]
    assert state["after"] == 0
    assert state["cached"] == [False, False, False]
    # Nothing but main and the harness's three update readers: every worker goroutine has
    # exited and every probe ticker is stopped (else the clock would move on, not deadlock).
    assert sorted(b.name for b in e.value.blocked) == [
        "collect liveness",
        "collect readiness",
        "collect startup",
        "main",
    ]


def test_cleanup_pods_stops_the_workers_of_pods_not_desired():
    a, b = all_probes_pod("uid-a", "a"), all_probes_pod("uid-b", "b")
    state = {}

    async def main():
        h = Harness(kubelet=False)
        h.add(a)
        h.add(b)
        await go.sleep(10)
        h.manager.cleanup_pods({"uid-a"})
        await go.sleep(4)
        state["left"] = sorted((k.pod_uid, str(k.probe_type)) for k in h.manager.workers)
        h.manager.cleanup_pods(set())
        await go.sleep(4)
        state["end"] = h.manager.worker_count()
        await go.select()

    with pytest.raises(DeadlockError) as e:
        go.run(main, seed=2)
    assert state["left"] == [("uid-a", "Liveness"), ("uid-a", "Readiness"), ("uid-a", "Startup")]
    assert state["end"] == 0
    assert "main" in [b.name for b in e.value.blocked]
    assert not [b for b in e.value.blocked if b.name.startswith("probe worker")]


def test_worker_exits_when_the_pod_is_terminated():
    pod = make_pod(readiness=http_probe(period_seconds=5))

    async def main():
        h = Harness()
        await settle(h)
        h.add(pod)
        await go.sleep(7)
        assert h.manager.worker_count() == 1
        h.status_manager.statuses[pod.metadata.uid].phase = PodPhase.SUCCEEDED
        await go.sleep(5)
        assert h.manager.worker_count() == 0
        # The worker removed its container's result when it exited.
        assert h.readiness_manager.get(parse_container_id(ID1)) == (U, False)

    go.run(main, seed=1)


@pytest.mark.parametrize(
    ("policy", "keeps_going"), [(RestartPolicy.NEVER, False), (RestartPolicy.ALWAYS, True)]
)
def test_terminated_container_fails_and_ends_the_worker_only_without_restarts(policy, keeps_going):
    pod = make_pod(readiness=http_probe(period_seconds=5), restart_policy=policy)

    async def main():
        h = Harness()
        await settle(h)
        h.add(pod)
        await go.sleep(7)
        status = h.status_manager.statuses[pod.metadata.uid]
        status.container_statuses[0].state = ContainerState(
            terminated=ContainerStateTerminated(exit_code=1)
        )
        await go.sleep(5)
        return h, h.manager.worker_count()

    h, workers = go.run(main, seed=1)
    assert h.of("readiness") == [(0, F, ID1), (0, S, ID1), (10, F, ID1)]
    assert workers == (1 if keeps_going else 0)


def test_pod_deletion_sets_liveness_success_and_stops():
    pod = make_pod(
        scripts="nginx: {liveness: {results: [fail]}}",
        liveness=http_probe(period_seconds=5, failure_threshold=2),
    )

    async def main():
        h = Harness()
        await settle(h)
        h.add(pod)
        await go.sleep(2)
        pod.metadata.deletion_timestamp = float(go.now())
        await go.sleep(5)
        assert h.manager.worker_count() == 0
        return h

    h = go.run(main, seed=1)
    # One failure (below the threshold), then the deletion: success, and the worker is gone.
    assert h.of("liveness") == [(0, S, ID1)]
    assert len(h.events()) == 1


# --- AddPod ----------------------------------------------------------------------------------


def test_add_pod_starts_one_worker_per_probe_and_refuses_duplicates(klog_out):
    pod = all_probes_pod()

    async def main():
        h = Harness(kubelet=False)
        h.manager.add_pod(pod)
        keys = set(h.manager.workers)
        h.manager.add_pod(pod)  # the same pod again: logged, nothing added
        assert set(h.manager.workers) == keys
        return keys

    keys = go.run(main, seed=1)
    assert keys == {ProbeKey("uid-web", "nginx", t) for t in (liveness, readiness, startup)}
    assert '"Startup probe already exists for container" pod="default/web"' in klog_out.getvalue()


# --- UpdatePodStatus -------------------------------------------------------------------------


def test_update_pod_status_without_probes():
    pod = make_pod()

    async def main():
        h = Harness(kubelet=False)
        h.manager.add_pod(pod)
        waiting = ContainerStatus(
            name="sidecar", state=ContainerState(waiting=ContainerStateWaiting()), ready=True
        )
        status = PodStatus(
            container_statuses=[running("nginx", ID1, float(go.now())), waiting],
            init_container_statuses=[
                ContainerStatus(
                    name="init-ok",
                    state=ContainerState(terminated=ContainerStateTerminated(exit_code=0)),
                ),
                ContainerStatus(
                    name="init-bad",
                    state=ContainerState(terminated=ContainerStateTerminated(exit_code=1)),
                    ready=True,
                ),
                running("init-running", "containerd://init", float(go.now())),
            ],
        )
        h.manager.update_pod_status(pod.metadata.uid, status)
        return status

    s = go.run(main, seed=1)
    # No probe: a running container is started and ready.
    assert (s.container_statuses[0].started, s.container_statuses[0].ready) == (True, True)
    # Not running: not started; ready is left as it was (Go only sets it for started ones).
    assert (s.container_statuses[1].started, s.container_statuses[1].ready) == (False, True)
    # Init containers: ready when exited with 0.
    assert [c.ready for c in s.init_container_statuses] == [True, False, False]


def test_update_pod_status_with_probes_that_have_not_run(klog_out):
    pod = make_pod(readiness=http_probe(), startup=http_probe())
    pod2 = make_pod(uid="uid-2", readiness=http_probe())

    def flags(s: PodStatus) -> tuple[bool | None, bool]:
        return s.container_statuses[0].started, s.container_statuses[0].ready

    async def main():
        h = Harness(kubelet=False)
        h.manager.add_pod(pod)
        h.manager.add_pod(pod2)
        seen = {}
        # The workers have not run yet (main has not blocked), so no probe has a result.
        s1 = PodStatus(container_statuses=[running("nginx", ID1, float(go.now()))])
        s1.container_statuses[0].ready = True  # to show that it is left alone
        h.manager.update_pod_status(pod.metadata.uid, s1)
        seen["startup pending"] = flags(s1)
        s2 = PodStatus(container_statuses=[running("nginx", ID2, float(go.now()))])
        h.manager.update_pod_status("uid-2", s2)
        seen["readiness pending"] = flags(s2)
        trigger = h.manager.workers[ProbeKey("uid-2", "nginx", readiness)].manual_trigger_ch
        seen["triggers queued"] = len(trigger)
        h.manager.update_pod_status("uid-2", s2)  # the trigger is still pending: logged
        seen["triggers queued again"] = len(trigger)
        # A startup result: the container has started; readiness has still not run.
        await h.startup_manager.set(parse_container_id(ID1), Result.SUCCESS, pod)
        h.manager.update_pod_status(pod.metadata.uid, s1)
        seen["started, readiness pending"] = flags(s1)
        # Readiness results decide readiness.
        await h.readiness_manager.set(parse_container_id(ID2), Result.SUCCESS, pod2)
        h.manager.update_pod_status("uid-2", s2)
        seen["readiness success"] = flags(s2)
        await h.readiness_manager.set(parse_container_id(ID2), Result.FAILURE, pod2)
        h.manager.update_pod_status("uid-2", s2)
        seen["readiness failure"] = flags(s2)
        return seen

    assert go.run(main, seed=1) == {
        "startup pending": (False, True),  # not started; ready untouched
        "readiness pending": (True, False),  # started (no startup probe), not yet ready
        "triggers queued": 1,  # ... and a manual run of the readiness probe was asked for
        "triggers queued again": 1,
        "started, readiness pending": (True, False),
        "readiness success": (True, True),
        "readiness failure": (True, False),
    }
    assert klog_out.getvalue().count('"Failed to trigger a manual run" probe="Readiness"') == 1


# --- determinism -----------------------------------------------------------------------------


def test_same_seed_same_run_and_the_seed_moves_the_first_probe():
    pod_scripts = "nginx: {readiness: {succeedAfter: 7s}, liveness: {failAfter: 15s}}"

    def trace(seed: int):
        async def main():
            h = Harness()
            h.add(
                make_pod(
                    scripts=pod_scripts,
                    readiness=http_probe(period_seconds=3),
                    liveness=http_probe(period_seconds=4, failure_threshold=2),
                )
            )
            await go.sleep(30)
            return h

        h = go.run(main, seed=seed)
        return [(t, k, u.result) for t, k, u in h.updates], h.events()

    assert trace(5) == trace(5)
    assert trace(5)[0][0][0] != trace(6)[0][0][0]


def test_probe_period_ticker_is_the_worker_period():
    """The initial random wait is below one period and probes then follow the period."""
    pod = make_pod(scripts="nginx: {readiness: {results: [fail]}}", readiness=http_probe())

    async def main():
        h = Harness()
        h.add(pod)
        await go.sleep(35 * Second)
        return h

    h = go.run(main, seed=11)
    times = [t for t, _ in h.events()]
    # The first probe, then the run UpdatePodStatus triggered, then one per period.
    assert len(times) == 5 and 0 < times[0] < 10 and times[0] == times[1]
    assert [round(b - a, 6) for a, b in itertools.pairwise(times[1:])] == [10, 10, 10]


# --- thresholds, against a model ---------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    outcomes=st.lists(st.sampled_from(["success", "fail"]), min_size=1, max_size=25),
    success_threshold=st.integers(1, 3),
    failure_threshold=st.integers(1, 4),
)
def test_readiness_updates_follow_the_threshold_rule(
    outcomes, success_threshold, failure_threshold
):
    """A result is written once it came out `threshold` times in a row; an update is sent when
    the written result changes. Readiness starts at Failure (the initial value)."""
    expected = [F]
    last, run, state = None, 0, F
    for o in outcomes:
        r = S if o == "success" else F
        run = run + 1 if r == last else 1
        last = r
        if run >= (success_threshold if r == S else failure_threshold):
            if r != state:
                expected.append(r)
            state = r

    pod = make_pod(
        scripts=f"nginx: {{readiness: {{results: [{', '.join(outcomes)}]}}}}",
        readiness=http_probe(
            period_seconds=1,
            success_threshold=success_threshold,
            failure_threshold=failure_threshold,
        ),
    )

    async def main():
        h = Harness(kubelet=False)
        await settle(h, 10)
        h.add(pod)
        h.status_manager.statuses[pod.metadata.uid].container_statuses[0].started = True
        await go.sleep(len(outcomes) - 0.5)  # probes at 0, 1, … len-1: one per outcome
        h.manager.remove_pod(pod)
        await go.sleep(1)
        return h

    h = go.run(main, seed=1)
    assert [r for _, r, _ in h.of("readiness")] == expected
