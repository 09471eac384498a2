"""The generic PLEG on the fake runtime: relists, events, the pod cache, health."""

from __future__ import annotations

from minikubelet import go
from minikubelet.container.cache import new_cache
from minikubelet.container.runtime import ContainerStateExited, ContainerStateRunning
from minikubelet.pleg.generic import (
    generate_events,
    new_generic_pleg,
    plegContainerExited,
    plegContainerNonExistent,
    plegContainerRunning,
    plegContainerUnknown,
)
from minikubelet.pleg.pleg import PodLifeCycleEventType
from tests.kuberuntime.podutil import Node, make_pod, rel

Started = PodLifeCycleEventType.CONTAINER_STARTED
Died = PodLifeCycleEventType.CONTAINER_DIED
Removed = PodLifeCycleEventType.CONTAINER_REMOVED
Changed = PodLifeCycleEventType.CONTAINER_CHANGED


def test_generate_events_for_each_transition():
    def types(old, new):
        return [e.type for e in generate_events("uid", "cid", old, new)]

    assert types(plegContainerNonExistent, plegContainerRunning) == [Started]
    assert types(plegContainerRunning, plegContainerExited) == [Died]
    assert types(plegContainerRunning, plegContainerUnknown) == [Changed]
    assert types(plegContainerExited, plegContainerNonExistent) == [Removed]
    assert types(plegContainerRunning, plegContainerNonExistent) == [Died, Removed]
    assert types(plegContainerRunning, plegContainerRunning) == []
    e = generate_events("uid", "cid", plegContainerNonExistent, plegContainerRunning)[0]
    assert (e.id, e.data) == ("uid", "cid")


def run_pleg(pods, seconds, seed=0, act=None):
    """Sync the pods once at t=0, relist every second for ``seconds``; return the event trace
    (time, pod name, type, container name or "sandbox"), the cache and the node."""
    node = Node(pods, seed=seed)
    cache = new_cache()
    trace = []

    async def main():
        pleg = new_generic_pleg(node.manager, 1000, 1.0, cache)
        names = {}

        async def consume():
            async for e in pleg.watch():
                st = cache.get(e.id)
                name = next((c.name for c in st.container_statuses if c.id.id == e.data), None)
                if name is None:
                    name = names.get(e.data, "sandbox")
                names[e.data] = name
                pod = next(p.metadata.name for p in pods if p.metadata.uid == e.id)
                trace.append((rel(go.now()), pod, str(e.type), name, e.data))

        for p in pods:
            await node.sync(p)
        pleg.start()
        go.go(consume)
        if act is not None:
            await act(node)
        await go.sleep(seconds)
        return pleg

    pleg = go.run(main, seed=seed)
    return trace, cache, node, pleg


def test_relist_reports_started_then_died_with_pod_uid_and_container_id():
    pod = make_pod(scenario="app: {runFor: 2500ms, exitCode: 1}", restart_policy="Never")
    trace, cache, _node, _ = run_pleg([pod], 5)
    assert [(t, p, ty, n) for t, p, ty, n, _ in trace] == [
        (0.0, "web", "ContainerStarted", "app"),
        (0.0, "web", "ContainerStarted", "sandbox"),
        (3.0, "web", "ContainerDied", "app"),
    ]
    app_id = trace[0][4]
    assert trace[2][4] == app_id
    status = cache.get(pod.metadata.uid)
    app = status.container_statuses[0]
    assert (app.id.id, app.state, app.exit_code, rel(app.finished_at)) == (
        app_id,
        ContainerStateExited,
        1,
        2.5,
    )


def test_the_cache_holds_the_status_before_the_event_is_sent():
    pod = make_pod()
    trace, cache, _, _ = run_pleg([pod], 2)
    # The consumer read each event's container from the cache: it was already there.
    assert trace[0][3] == "app"
    assert cache.get(pod.metadata.uid).container_statuses[0].state == ContainerStateRunning
    assert cache.timestamp is not None


def test_removed_container_and_pod():
    pod = make_pod(scenario="app: {runFor: 1s}", restart_policy="Never")

    async def act(node):
        await go.sleep(2.5)
        st = await node.status(pod)
        rs = node.fake.runtime_service
        for c in st.container_statuses:
            await rs.remove_container(c.id.id)
        for s in st.sandbox_statuses:
            await rs.stop_pod_sandbox(s.id)
            await rs.remove_pod_sandbox(s.id)

    trace, cache, _, _ = run_pleg([pod], 2, act=act)
    assert [(t, ty, n) for t, _, ty, n, _ in trace] == [
        (0.0, "ContainerStarted", "app"),
        (0.0, "ContainerStarted", "sandbox"),
        (1.0, "ContainerDied", "app"),
        (3.0, "ContainerRemoved", "app"),
        (3.0, "ContainerDied", "sandbox"),
        (3.0, "ContainerRemoved", "sandbox"),
    ]
    # The pod has no containers left: its cache entry is gone.
    assert pod.metadata.uid not in cache.pods


def test_healthy_until_relists_stop_succeeding_for_three_minutes():
    node = Node([])

    async def main():
        pleg = new_generic_pleg(node.manager, 10, 1.0, new_cache())
        before = pleg.healthy()
        pleg.start()
        await go.sleep(10)
        ok = pleg.healthy()
        node.fake.runtime_service.inject_error("list_pod_sandbox", times=1000)
        await go.sleep(180.5)
        return before, ok, pleg.healthy()

    before, ok, after = go.run(main)
    assert before[0] is False and str(before[1]) == "pleg has yet to be successful"
    assert ok == (True, None)
    assert after[0] is False
    assert str(after[1]).startswith("pleg was last seen active 3m")
    assert str(after[1]).endswith("ago; threshold is 3m0s")


def test_failed_inspection_is_retried_at_the_next_relist():
    pod = make_pod()
    node = Node([pod])
    cache = new_cache()

    async def main():
        pleg = new_generic_pleg(node.manager, 10, 1.0, cache)
        await node.sync(pod)
        rs = node.fake.runtime_service
        rs.inject_error("list_pod_sandbox")
        await pleg.relist()  # GetPods fails: nothing happens
        assert len(pleg.watch()) == 0 and pleg.healthy()[0] is False
        rs.inject_error("pod_sandbox_status")
        await pleg.relist()  # GetPodStatus fails: the events wait, the pod is reinspected
        assert len(pleg.watch()) == 0 and list(pleg.pods_to_reinspect) == [pod.metadata.uid]
        await pleg.relist()
        return len(pleg.watch()), pleg.pods_to_reinspect

    n, reinspect = go.run(main)
    assert n == 2 and reinspect == {}
    assert cache.get(pod.metadata.uid).container_statuses[0].name == "app"


def test_same_seed_same_trace_and_different_seed_different_ids():
    def trace(seed):
        pods = [
            make_pod("a", scenario="app: [{runFor: 2s, exitCode: 1}, forever]"),
            make_pod("b", scenario="app: {runFor: 3s}"),
        ]
        t, _, node, _ = run_pleg(pods, 20, seed=seed)
        return t, [(e.reason, e.message) for e in node.fake.recorder.events]

    t1, e1 = trace(7)
    t2, e2 = trace(7)
    t3, _ = trace(8)
    assert t1 == t2 and e1 == e2
    assert [x[:4] for x in t1] == [x[:4] for x in t3]
    assert [x[4] for x in t1] != [x[4] for x in t3]


def test_a_hung_inspection_makes_the_pleg_unhealthy_until_the_relist_after_it():
    # ContainerStatus hangs from 5 s to 200 s; the container exits at 10 s, so the relist at
    # 10 s inspects the pod and hangs. Its relist time (its start, 10 s) is what Healthy reads,
    # even after the relist has finished at 200 s: only the relist at 201 s is fresh again.
    pod = make_pod(scenario="app: {runFor: 10s}", restart_policy="Never")
    scenario = {
        "runtime": {"hang": [{"from": "5s", "until": "200s", "calls": ["ContainerStatus"]}]}
    }
    node = Node([pod], scenario=scenario)
    seen = {}

    async def main():
        pleg = new_generic_pleg(node.manager, 10, 1.0, new_cache())
        await node.sync(pod)
        pleg.start()
        for t in (190, 190.5, 200.5, 201.5):
            await go.sleep(t - rel(go.now()))
            ok, err = pleg.healthy()
            seen[t] = (ok, str(err) if err else None, len(pleg.watch()))

    go.run(main)
    assert seen[190] == (True, None, 2)  # ContainerStarted (container, sandbox) at 1 s
    assert seen[190.5] == (
        False,
        "pleg was last seen active 3m0.5s ago; threshold is 3m0s",
        2,
    )
    # The hung relist has finished and sent its ContainerDied, yet its time is still 11 s.
    assert seen[200.5] == (
        False,
        "pleg was last seen active 3m10.5s ago; threshold is 3m0s",
        3,
    )
    assert seen[201.5] == (True, None, 3)
