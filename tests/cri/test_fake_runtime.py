"""The fake CRI runtime: states, scripted exits, stop with a grace period, filters, errors."""

from __future__ import annotations

import pytest

from minikubelet import go
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.cri_api.pkg.apis.services import CRIError
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.utils.exec.exec import CodeExitError
from minikubelet.sim.cri.fake_image_service import FakeImageService
from minikubelet.sim.cri.fake_runtime import FakeRuntimeService
from minikubelet.sim.cri.scenario import parse_scenario

S = 1_000_000_000  # nanoseconds
UID = "io.kubernetes.pod.uid"


def sandbox_config(uid="u1", name="web", scenario=None, host_network=False):
    annotations = {} if scenario is None else {"minikubelet.dev/scenario": scenario}
    ns = runtimeapi.NamespaceOption(
        network=runtimeapi.NamespaceMode_NODE if host_network else runtimeapi.NamespaceMode_POD
    )
    return runtimeapi.PodSandboxConfig(
        metadata=runtimeapi.PodSandboxMetadata(name=name, namespace="default", uid=uid),
        labels={UID: uid},
        annotations=annotations,
        linux=runtimeapi.LinuxPodSandboxConfig(
            security_context=runtimeapi.LinuxSandboxSecurityContext(namespace_options=ns)
        ),
    )


def container_config(name, attempt=0, uid="u1"):
    return runtimeapi.ContainerConfig(
        metadata=runtimeapi.ContainerMetadata(name=name, attempt=attempt),
        image=runtimeapi.ImageSpec(image="busybox:latest"),
        labels={UID: uid, "io.kubernetes.container.name": name},
    )


async def start(rs, sb, cfg, name, attempt=0):
    cid = await rs.create_container(sb, container_config(name, attempt), cfg)
    await rs.start_container(cid)
    return cid


def t(ns: int) -> float:
    return round(ns / S - go.VIRTUAL_EPOCH, 3)


def test_container_lifecycle_with_scripted_exit_and_lazy_reaping():
    async def main():
        rs = FakeRuntimeService(seed=1)
        cfg = sandbox_config(scenario="app: [{runFor: 2s, exitCode: 3}, forever]")
        sb = await rs.run_pod_sandbox(cfg, "")
        created = await rs.create_container(sb, container_config("app"), cfg)
        s = await rs.container_status(created)
        assert s.state == runtimeapi.ContainerState_CONTAINER_CREATED
        await go.sleep(0.5)
        await rs.start_container(created)
        await go.sleep(10)
        s = await rs.container_status(created)
        second = await start(rs, sb, cfg, "app", attempt=1)
        await go.sleep(100)
        s2 = await rs.container_status(second)
        return s, s2

    s, s2 = go.run(main)
    assert (s.state, s.exit_code, s.reason) == (
        runtimeapi.ContainerState_CONTAINER_EXITED,
        3,
        "Error",
    )
    assert (t(s.created_at), t(s.started_at), t(s.finished_at)) == (0.0, 0.5, 2.5)
    assert s2.state == runtimeapi.ContainerState_CONTAINER_RUNNING  # the second run: forever


def test_unscripted_containers_run_forever_unless_the_lookup_says_init():
    from minikubelet.k8s_io.api.core import v1

    pod = v1.Pod(
        spec=v1.PodSpec(
            init_containers=[v1.Container(name="init", image="busybox")],
            containers=[v1.Container(name="app", image="busybox")],
        )
    )

    async def main():
        rs = FakeRuntimeService(pod_lookup=lambda uid: pod)
        cfg = sandbox_config()
        sb = await rs.run_pod_sandbox(cfg, "")
        init = await start(rs, sb, cfg, "init")
        app = await start(rs, sb, cfg, "app")
        await go.sleep(3600)
        return await rs.container_status(init), await rs.container_status(app)

    init, app = go.run(main)
    assert (init.state, init.exit_code, init.reason) == (2, 0, "Completed")
    assert t(init.finished_at) == 1.0
    assert app.state == runtimeapi.ContainerState_CONTAINER_RUNNING


@pytest.mark.parametrize(
    ("stop_time", "timeout", "took", "exit_code"),
    [(0, 30, 0.0, 143), (5, 30, 5.0, 143), (10, 2, 2.0, 137), (0, 0, 0.0, 143)],
)
def test_stop_container_waits_for_the_script_or_the_grace_period(
    stop_time, timeout, took, exit_code
):
    async def main():
        rs = FakeRuntimeService()
        cfg = sandbox_config(scenario=f"app: {{stopTime: {stop_time}s}}")
        sb = await rs.run_pod_sandbox(cfg, "")
        cid = await start(rs, sb, cfg, "app")
        t0 = go.now()
        await rs.stop_container(cid, timeout)
        took = go.now() - t0
        await rs.stop_container(cid, timeout)  # already stopped: no-op
        return took, await rs.container_status(cid)

    elapsed, s = go.run(main)
    assert elapsed == took
    assert (s.state, s.exit_code) == (runtimeapi.ContainerState_CONTAINER_EXITED, exit_code)


def test_a_container_that_ends_while_being_stopped_keeps_its_own_exit():
    async def main():
        rs = FakeRuntimeService()
        cfg = sandbox_config(scenario="app: {runFor: 1s, exitCode: 4, stopTime: 10s}")
        sb = await rs.run_pod_sandbox(cfg, "")
        cid = await start(rs, sb, cfg, "app")
        await rs.stop_container(cid, 30)
        return await rs.container_status(cid)

    s = go.run(main)
    assert (s.exit_code, t(s.finished_at)) == (4, 1.0)


def test_sandboxes_ips_filters_and_removal():
    async def main():
        rs = FakeRuntimeService()
        a = await rs.run_pod_sandbox(sandbox_config("u1", "a"), "")
        b = await rs.run_pod_sandbox(sandbox_config("u2", "b", host_network=True), "")
        ca = await start(rs, a, sandbox_config("u1", "a"), "app")
        await rs.stop_pod_sandbox(a)
        ready = await rs.list_pod_sandbox(
            runtimeapi.PodSandboxFilter(
                state=runtimeapi.PodSandboxStateValue(
                    state=runtimeapi.PodSandboxState_SANDBOX_READY
                )
            )
        )
        by_uid = await rs.list_pod_sandbox(runtimeapi.PodSandboxFilter(label_selector={UID: "u1"}))
        running = await rs.list_containers(
            runtimeapi.ContainerFilter(
                state=runtimeapi.ContainerStateValue(
                    state=runtimeapi.ContainerState_CONTAINER_RUNNING
                )
            )
        )
        killed = await rs.container_status(ca)
        sa, sb = await rs.pod_sandbox_status(a), await rs.pod_sandbox_status(b)
        await rs.remove_pod_sandbox(a)
        await rs.remove_pod_sandbox(a)  # idempotent
        left = await rs.list_containers(None)
        with pytest.raises(CRIError, match="NotFound"):
            await rs.pod_sandbox_status(a)
        return ready, by_uid, running, killed, sa, sb, left, b

    ready, by_uid, running, killed, sa, sb, left, b = go.run(main)
    assert [s.id for s in ready] == [b]
    assert [s.metadata.name for s in by_uid] == ["a"]
    assert running == [] and left == []
    assert killed.exit_code == 137  # a stopped sandbox kills what still runs in it
    assert (sa.network.ip, sa.state) == ("10.88.0.2", runtimeapi.PodSandboxState_SANDBOX_NOTREADY)
    assert sb.network.ip == ""  # host network
    assert sb.linux.namespaces.options.network == runtimeapi.NamespaceMode_NODE


def test_creation_times_of_a_pod_are_strictly_increasing():
    async def main():
        rs = FakeRuntimeService()
        cfg = sandbox_config()
        sb = await rs.run_pod_sandbox(cfg, "")
        ids = [await rs.create_container(sb, container_config(f"c{i}"), cfg) for i in range(3)]
        return [c.created_at for c in await rs.list_containers(None)], ids

    times, _ = go.run(main)
    assert times == sorted(set(times)) and times[1] - times[0] == 1000


def test_ids_depend_only_on_the_seed():
    async def ids(seed):
        rs = FakeRuntimeService(seed=seed)
        cfg = sandbox_config()
        sb = await rs.run_pod_sandbox(cfg, "")
        return sb, await rs.create_container(sb, container_config("app"), cfg)

    a, b, c = go.run(ids, 1), go.run(ids, 1), go.run(ids, 2)
    assert a == b != c
    assert len(a[0]) == 64 and int(a[0], 16) >= 0


def test_error_injection_and_call_counts():
    async def main():
        rs = FakeRuntimeService()
        rs.inject_error("run_pod_sandbox", CRIError("Unavailable", "socket closed"))
        with pytest.raises(CRIError, match="socket closed"):
            await rs.run_pod_sandbox(sandbox_config(), "")
        await rs.run_pod_sandbox(sandbox_config(), "")
        sb = (await rs.list_pod_sandbox(None))[0].id
        cid = await rs.create_container(sb, container_config("x"), sandbox_config())
        await rs.start_container(cid)
        with pytest.raises(CRIError, match="FailedPrecondition"):
            await rs.start_container(cid)  # already running
        with pytest.raises(CRIError, match="NotFound"):
            await rs.container_status("missing")
        return rs.calls["run_pod_sandbox"]

    assert go.run(main) == 2


def test_runtime_status_knobs():
    async def main():
        rs = FakeRuntimeService(scenario=parse_scenario({"runtime": {"down": [{"from": "5s"}]}}))
        ok = await rs.status()
        rs.set_runtime_ready(False, "Broken", "the runtime broke")
        not_ready = await rs.status()
        await go.sleep(5)
        with pytest.raises(CRIError, match="Unavailable"):
            await rs.status()
        return ok, not_ready

    ok, not_ready = go.run(main)
    assert [c.status for c in ok.conditions] == [True, True]
    assert not_ready.conditions[0] == runtimeapi.RuntimeCondition(
        type="RuntimeReady", status=False, reason="Broken", message="the runtime broke"
    )


def test_create_needs_the_image_when_linked_to_an_image_service():
    async def main():
        images = FakeImageService()
        rs = FakeRuntimeService(image_service=images)
        cfg = sandbox_config()
        sb = await rs.run_pod_sandbox(cfg, "")
        with pytest.raises(CRIError, match='failed to get image "busybox:latest"'):
            await rs.create_container(sb, container_config("app"), cfg)
        images.add_image("busybox")
        cid = await rs.create_container(sb, container_config("app"), cfg)
        return (await rs.container_status(cid)).image_ref

    assert go.run(main).startswith("sha256:")


def test_init_containers_are_known_without_a_pod_lookup():
    """The fake runtime helper marks init containers; the fake runtime reads the mark."""
    from tests.kuberuntime.podutil import container, make_pod

    pod = make_pod(containers=[container("app")], init_containers=[container("init")])

    async def main():
        from minikubelet.sim.container_runtime import new_fake_runtime

        fake = new_fake_runtime()  # no pod_lookup
        back_off = fake.image_back_off
        for _ in range(3):
            m = pod.metadata
            st = await fake.manager.get_pod_status(m.uid, m.name, m.namespace)
            await fake.manager.sync_pod(pod, st, [], back_off)
            await go.sleep(1)
        m = pod.metadata
        return await fake.manager.get_pod_status(m.uid, m.name, m.namespace)

    st = go.run(main)
    assert st.find_container_status_by_name("init").exit_code == 0
    assert st.find_container_status_by_name("app").state == "running"


def test_a_scripted_hang_holds_calls_made_in_its_window_until_it_ends():
    async def main():
        sc = parse_scenario(
            {"runtime": {"hang": [{"from": "2s", "until": "5s", "calls": ["ListContainers"]}]}}
        )
        rs = FakeRuntimeService(scenario=sc)
        times = []
        for at in (1, 3, 6):
            await go.sleep(at - rs.elapsed())
            await rs.list_containers(None)
            await rs.list_pod_sandbox(None)  # not named: never held
            times.append(round(rs.elapsed(), 3))
        return times

    # The call at 3 s returns at 5 s; the calls at 1 s and 6 s at once.
    assert go.run(main) == [1.0, 5.0, 6.0]


def test_a_stopped_or_dead_sandbox_takes_no_new_containers(capsys):
    """containerd 1.4/1.5 pkg/cri/server: CreateContainer asks for the sandbox's task
    (``failed to get sandbox container task``, gRPC NotFound once the task is deleted);
    StartContainer checks the sandbox's state (``sandbox container %q is not running``).
    kubelet's CRI client logs each refusal (Go, v1.21.4: pkg/kubelet/cri/remote/remote_runtime.go
    L227-230 in CreateContainer, L252-255 in StartContainer)."""

    async def main():
        rs = FakeRuntimeService(seed=1)
        cfg = sandbox_config()
        stopped = await rs.run_pod_sandbox(cfg, "")
        dead = await rs.run_pod_sandbox(cfg, "")
        created = await rs.create_container(dead, container_config("app"), cfg)
        await rs.stop_pod_sandbox(stopped)
        rs.crash_sandbox(dead)
        with pytest.raises(CRIError) as create_err:
            await rs.create_container(stopped, container_config("app"), cfg)
        with pytest.raises(CRIError) as start_err:
            await rs.start_container(created)
        return stopped, dead, created, create_err.value, start_err.value, rs

    stopped, dead, created, create_err, start_err, rs = go.run(main)
    assert create_err.code == "NotFound"
    assert create_err.desc == (
        f"failed to get sandbox container task: no running task found: task {stopped} "
        "not found: not found"
    )
    assert (start_err.code, start_err.desc) == (
        "Unknown",
        f'sandbox container "{dead}" is not running',
    )
    assert rs.containers[created].state == runtimeapi.ContainerState_CONTAINER_CREATED
    create_line, start_line = [
        line for line in capsys.readouterr().err.splitlines() if "runtime service failed" in line
    ]
    assert create_line.startswith("E") and create_line.endswith(
        '] "CreateContainer in sandbox from runtime service failed" err="rpc error: code = '
        f'NotFound desc = {create_err.desc}" podSandboxID={klog.quote(stopped)}'
    )
    assert start_line.startswith("E") and start_line.endswith(
        '] "StartContainer from runtime service failed" err="rpc error: code = Unknown desc = '
        f'sandbox container \\"{dead}\\" is not running" containerID={klog.quote(created)}'
    )


def test_a_scripted_sandbox_dies_on_time_and_an_oom_kill_has_its_reason():
    """containerd reports an OOM-killed task with reason OOMKilled and exit code 137; a sandbox
    whose pause process died is NOTREADY, its containers left running."""

    async def main():
        rs = FakeRuntimeService(
            seed=1, scenario=parse_scenario({"sandboxes": {"default/web": ["2s", "forever"]}})
        )
        cfg = sandbox_config(scenario="app: {runFor: 1s, oomKilled: true}\nside: forever")
        first = await rs.run_pod_sandbox(cfg, "")
        app = await start(rs, first, cfg, "app")
        side = await start(rs, first, cfg, "side")
        await go.sleep(1.5)
        oom = await rs.container_status(app)
        ready = (await rs.pod_sandbox_status(first)).state
        await go.sleep(1)
        dead = (await rs.pod_sandbox_status(first)).state
        side_state = (await rs.container_status(side)).state
        cfg.metadata.attempt = 1
        second = await rs.run_pod_sandbox(cfg, "")
        await go.sleep(3600)
        return oom, ready, dead, side_state, (await rs.pod_sandbox_status(second)).state

    oom, ready, dead, side_state, second = go.run(main)
    assert (oom.exit_code, oom.reason, t(oom.finished_at)) == (137, "OOMKilled", 1.0)
    assert ready == runtimeapi.PodSandboxState_SANDBOX_READY
    assert dead == runtimeapi.PodSandboxState_SANDBOX_NOTREADY
    assert side_state == runtimeapi.ContainerState_CONTAINER_RUNNING
    assert second == runtimeapi.PodSandboxState_SANDBOX_READY


def test_exec_sync_follows_the_hook_scripts_of_the_run(capsys):
    """The exec that is the preStop handler's command (kubelet's annotation) follows preStop,
    any other postStart; a non-zero exit comes back as the CRI client's error, and a failed
    call as the call's error, logged (pkg/kubelet/cri/remote/remote_runtime.go L393-411,
    v1.21.4)."""
    scenario = (
        'app: {postStart: {runFor: 3s, fail: exit, exitCode: 4, output: "no db"}, '
        'preStop: {runFor: 2s, output: "bye"}}'
    )

    async def main():
        rs = FakeRuntimeService(seed=1)
        cfg = sandbox_config(scenario=scenario)
        sb = await rs.run_pod_sandbox(cfg, "")
        c = container_config("app")
        c.annotations["io.kubernetes.container.preStopHandler"] = (
            '{"exec":{"command":["nginx","-s","quit"]}}'
        )
        cid = await rs.create_container(sb, c, cfg)
        await rs.start_container(cid)
        t0 = go.now()
        post = await rs.exec_sync(cid, ["sh", "-c", "migrate"], 0)
        t1 = go.now()
        pre = await rs.exec_sync(cid, ["nginx", "-s", "quit"], 0)
        t2 = go.now()
        cut = await rs.exec_sync(cid, ["sh", "-c", "migrate"], 1)
        t3 = go.now()
        await rs.stop_container(cid, 0)
        exited = await rs.exec_sync(cid, ["true"], 0)
        return cid, post, pre, cut, exited, (t1 - t0, t2 - t1, t3 - t2)

    exited_id, post, pre, cut, exited, took = go.run(main)
    assert post[:2] == (b"", b"no db")
    assert isinstance(post[2], CodeExitError) and post[2].exit_status() == 4
    assert str(post[2]) == "command 'sh -c migrate' exited with 4: no db"
    assert pre == (b"bye", b"", None)
    assert cut[:2] == (b"", b"") and isinstance(cut[2], CRIError)
    assert "timeout 1s exceeded: context deadline exceeded" in str(cut[2])
    assert exited[:2] == (b"", b"") and isinstance(exited[2], CRIError)
    assert "container is in CONTAINER_EXITED state" in str(exited[2])
    assert took == (3.0, 2.0, 1.0)
    # remote_runtime.go:394, once per failed call, at verbosity 0.
    lines = [line for line in capsys.readouterr().err.splitlines() if "ExecSync" in line]
    assert len(lines) == 2
    assert lines[1].endswith(
        '"ExecSync cmd from runtime service failed" err="rpc error: code = Unknown desc = '
        'failed to exec in container: container is in CONTAINER_EXITED state" '
        f"containerID={klog.quote(exited_id)} cmd=[true]"
    )


def test_http_get_is_answered_by_the_pod_at_the_ip():
    async def main():
        rs = FakeRuntimeService(seed=1)
        cfg = sandbox_config(scenario="{web: {postStart: {fail: refused}}, side: {}}")
        sb = await rs.run_pod_sandbox(cfg, "")
        ip = (await rs.pod_sandbox_status(sb)).network.ip
        await start(rs, sb, cfg, "side")
        await start(rs, sb, cfg, "web")  # created last: the postStart hook is its
        refused = await rs.http_get(f"http://{ip}:8080//started")
        other = await rs.http_get("http://192.0.2.1:80//x")
        return ip, refused, other

    ip, (resp, err), other = go.run(main)
    assert resp is None
    assert str(err) == (
        f'Get "http://{ip}:8080//started": dial tcp {ip}:8080: connect: connection refused'
    )
    assert other == (None, None)  # no pod has that IP: an empty answer, as Go's fakeHTTP


def test_a_hook_that_fails_in_a_way_its_handler_cannot_says_so():
    async def main():
        rs = FakeRuntimeService(seed=1)
        cfg = sandbox_config(scenario="app: {postStart: {fail: refused}}")
        sb = await rs.run_pod_sandbox(cfg, "")
        cid = await start(rs, sb, cfg, "app")
        return await rs.exec_sync(cid, ["true"], 0)

    stdout, stderr, err = go.run(main)
    assert (stdout, stderr) == (b"", b"")
    assert isinstance(err, CRIError) and err.code == "InvalidArgument"
    assert err.desc == (
        "pod default/web: annotation minikubelet.dev/scenario: container 'app': field postStart: "
        "field fail: refused is for an httpGet hook, and this is an exec hook (fail: exit)"
    )
