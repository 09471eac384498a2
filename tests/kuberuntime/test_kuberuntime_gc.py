"""The container garbage collector: which dead containers and sandboxes go, in what order."""

from __future__ import annotations

import pytest

from minikubelet import go
from minikubelet.container.container_gc import GCPolicy, new_container_gc
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.kuberuntime.fake_kuberuntime_manager import FakePodStateProvider
from minikubelet.sim.container_runtime import new_fake_runtime
from tests.cri.test_fake_runtime import container_config, sandbox_config
from tests.e2e.harness import run_kubelet
from tests.e2e.test_pod_creation import pod

CRASH = "app: {runFor: 1s, exitCode: 1}"
#: v1.21's defaults: no minimum age, one dead container per (pod, name), no total limit.
DEFAULTS = GCPolicy()


async def run_app(rs, sb, cfg, uid, attempt, name="app"):
    """Create and start one attempt of a container, then let it run for 2 s."""
    cid = await rs.create_container(sb, container_config(name, attempt, uid=uid), cfg)
    await rs.start_container(cid)
    await go.sleep(2)
    return cid


def collect(existing, running, *setup_steps, policy=DEFAULTS, sources_ready=True, evict=False):
    """Run ``setup_steps`` on a fake runtime, then one garbage collection; return what the
    runtime removed (in order) and what it still holds, by the names setup gave them."""
    provider = FakePodStateProvider(existing_pods=set(existing), running_pods=set(running))
    fake = new_fake_runtime(seed=1, pod_state_provider=provider)
    rs = fake.runtime_service
    names: dict[str, str] = {}
    removed: list[str] = []

    async def main():
        await fake.image_service.pull_image(
            runtimeapi.ImageSpec(image="busybox:latest"), None, None
        )
        for step in setup_steps:
            names.update(await step(rs))
        remove_container, remove_pod_sandbox = rs.remove_container, rs.remove_pod_sandbox

        async def record_container(cid):
            removed.append(names[cid])
            await remove_container(cid)

        async def record_sandbox(sid):
            removed.append(names[sid])
            await remove_pod_sandbox(sid)

        rs.remove_container, rs.remove_pod_sandbox = record_container, record_sandbox
        err = await fake.manager.garbage_collect(policy, sources_ready, evict)
        assert err is None
        left = [names[c.id] for c in await rs.list_containers(None)]
        left += [names[s.id] for s in await rs.list_pod_sandbox(None)]
        return left

    left = go.run(main, seed=1)
    return removed, sorted(left)


def crash_looping(uid, runs, *, sandbox="sb", stop_sandbox=False, name="app"):
    """A pod whose container ran ``runs`` times, each run exiting; named ``<uid>/<name><n>``."""

    async def step(rs):
        cfg = sandbox_config(uid=uid, scenario=f"{name}: {{runFor: 1s, exitCode: 1}}")
        sb = await rs.run_pod_sandbox(cfg, "")
        names = {sb: f"{uid}/{sandbox}"}
        for attempt in range(runs):
            names[await run_app(rs, sb, cfg, uid, attempt, name)] = f"{uid}/{name}{attempt}"
        if stop_sandbox:
            await rs.stop_pod_sandbox(sb)
        return names

    return step


def test_keeps_the_newest_dead_container_per_pod_and_name_removing_oldest_first():
    removed, left = collect(["a"], ["a"], crash_looping("a", 4))
    assert removed == ["a/app0", "a/app1", "a/app2"]
    assert left == ["a/app3", "a/sb"]


def test_a_running_container_is_never_counted_or_removed():
    async def running(rs):
        cfg = sandbox_config(uid="a", scenario="web: forever")
        sb = await rs.run_pod_sandbox(cfg, "")
        cid = await run_app(rs, sb, cfg, "a", 0, name="web")
        return {sb: "a/sb2", cid: "a/web-running"}

    removed, left = collect(["a"], ["a"], crash_looping("a", 2, sandbox="sb1"), running)
    assert removed == ["a/app0"]
    assert "a/web-running" in left and "a/app1" in left


def test_a_deleted_pod_loses_every_dead_container_and_sandbox_once_sources_are_ready():
    removed, left = collect(["b"], ["b"], crash_looping("a", 3, stop_sandbox=True))
    assert removed == ["a/app2", "a/app1", "a/app0", "a/sb"]
    assert left == []


def test_before_every_source_is_seen_a_pod_unknown_to_kubelet_keeps_one_container():
    removed, left = collect(
        ["b"], ["b"], crash_looping("a", 3, stop_sandbox=True), sources_ready=False
    )
    assert removed == ["a/app0", "a/app1"]
    assert left == ["a/app2", "a/sb"]  # the dead container keeps its sandbox


def test_terminated_pods_are_emptied_only_when_asked():
    removed, _ = collect(["a"], [], crash_looping("a", 2))
    assert removed == ["a/app0"]
    removed, left = collect(["a"], [], crash_looping("a", 2, stop_sandbox=True), evict=True)
    assert removed == ["a/app1", "a/app0", "a/sb"]
    assert left == []


def test_an_existing_pod_keeps_its_newest_sandbox_and_loses_older_empty_ones():
    async def old_and_new(rs):
        cfg = sandbox_config(uid="a")
        old = await rs.run_pod_sandbox(cfg, "")
        await go.sleep(1)
        await rs.stop_pod_sandbox(old)
        new = await rs.run_pod_sandbox(cfg, "")
        await go.sleep(1)
        await rs.stop_pod_sandbox(new)  # not ready either: still kept, as the newest
        return {old: "a/old", new: "a/new"}

    removed, left = collect(["a"], ["a"], old_and_new)
    assert removed == ["a/old"]
    assert left == ["a/new"]


def test_min_age_keeps_containers_that_died_too_recently():
    removed, _ = collect(["a"], ["a"], crash_looping("a", 4), policy=GCPolicy(min_age=5))
    # Created at 0 s, 2 s, 4 s, 6 s; collected at 8 s: only those created by 3 s may go.
    assert removed == ["a/app0"]


def test_max_containers_leaves_an_equal_share_then_removes_the_oldest_overall():
    policy = GCPolicy(max_per_pod_container=-1, max_containers=2)
    removed, left = collect(
        ["a", "b", "c"],
        ["a", "b", "c"],
        crash_looping("a", 2),
        crash_looping("b", 2),
        crash_looping("c", 2),
        policy=policy,
    )
    # 2 // 3 units leaves at least one each (the oldest of each go), then 3 > 2: the oldest of
    # the three left (a's) goes too.
    assert removed == ["a/app0", "b/app0", "c/app0", "a/app1"]
    assert left == ["a/sb", "b/app1", "b/sb", "c/app1", "c/sb"]


def test_a_negative_minimum_age_is_refused():
    with pytest.raises(ValueError, match="invalid minimum garbage collection age"):
        new_container_gc(None, GCPolicy(min_age=-1), None)  # type: ignore[arg-type]


def test_a_crash_looping_pod_keeps_a_bounded_number_of_containers_for_hours():
    """Without the collector every restart left one more exited container in the runtime."""
    crash = {"minikubelet.dev/scenario": CRASH}
    run = run_kubelet(pods=[pod("crash", ["app"], annotations=crash)], until=2 * 3600, verbosity=0)
    assert run.phase("crash") == "Running"
    restarts = run.statuses["crash"].container_statuses[0].restart_count
    assert restarts > 20
    assert run.runtime_containers["crash"] <= 2  # the newest dead one, and maybe a new run
    assert any(e.reason == "BackOff" for e in run.events)


def test_collection_failures_are_logged_and_reported_on_the_node():
    def break_sandbox_listing(kl):
        async def fail(evict_terminated_pods):
            return RuntimeError("runtime is down")

        kl.container_runtime.container_gc.evict_sandboxes = fail

    run = run_kubelet(pods=[pod("web", ["app"])], until=61, setup=break_sandbox_listing)
    assert '"Container garbage collection failed" err="runtime is down"' in run.log
    failures = [e for e in run.events if e.reason == "ContainerGCFailed"]
    assert len(failures) == 2  # at 0 s and at 60 s
    assert failures[0].object.name == "node-1" and failures[0].message == "runtime is down"
