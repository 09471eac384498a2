"""What ch09/inspect-then-send checks in your ``relist``: a PLEG on the fake runtime, and a
reader of its events that looks in the pod cache when each event arrives (as a pod worker
would)."""

from __future__ import annotations

from typing import Any

from minikubelet import go
from minikubelet.config.manifest import pod_from_dict
from minikubelet.container.cache import new_cache
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import new_back_off
from minikubelet.k8s_io.cri_api.pkg.apis.runtime.v1alpha2 import api_pb as runtimeapi
from minikubelet.pleg.generic import new_generic_pleg
from minikubelet.sim.container_runtime import new_fake_runtime
from walkthrough.expect import expect_equal
from walkthrough.fixtures import run_go


def watch(seconds: float, scenario: str, act: Any = None) -> list[tuple[float, str, str, str]]:
    """Run a pod whose container follows ``scenario``, with a PLEG relisting every second;
    return each event the PLEG sends: (time, type, container or "sandbox", the container's
    state in the pod cache when the event arrived)."""
    seen: list[tuple[float, str, str, str]] = []

    async def main() -> None:
        fake = new_fake_runtime()
        m = fake.manager
        pod = pod_from_dict(
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {
                    "name": "web",
                    "namespace": "default",
                    "uid": "uid-web",
                    "annotations": {"minikubelet.dev/scenario": scenario},
                },
                "spec": {
                    "restartPolicy": "Never",
                    "containers": [{"name": "app", "image": "nginx:1.21"}],
                },
            }
        )
        await m.sync_pod(
            pod, await m.get_pod_status("uid-web", "web", "default"), [], new_back_off(10, 300)
        )
        cache = new_cache()
        pleg = new_generic_pleg(m, 1000, 1.0, cache)
        start = go.now()

        async def read() -> None:
            async for e in pleg.watch():
                try:
                    statuses = cache.get(e.id).container_statuses
                except Exception:
                    statuses = []
                by_id = {c.id.id: (c.name, str(c.state)) for c in statuses}
                name, state = by_id.get(e.data, ("sandbox", "-"))
                seen.append((round(go.now() - start, 3), str(e.type), name, state))

        pleg.start()
        go.go(read)
        if act is not None:
            await act(fake, start)
        await go.sleep(seconds - (go.now() - start))

    run_go(main, until=120.0)
    return seen


def check_each_change_is_sent_once() -> None:
    got = watch(5.0, "app: {runFor: forever}")
    expect_equal(
        [(t, kind, name) for t, kind, name, _ in got],
        [(0.0, "ContainerStarted", "app"), (0.0, "ContainerStarted", "sandbox")],
        en="A pod whose container and sandbox start once produces two ContainerStarted events, "
        "once: after a relist has sent a pod's events, the next relist must compare with what "
        "this one saw, and find nothing new.",
        zh="容器和沙箱各启动一次的 Pod 产生两个 ContainerStarted 事件，而且只有一次：relist 发出一个 Pod 的事件之后，"
        "下一次 relist 必须拿这一次看到的样子来比较，于是找不到新的变化。",
    )


def check_the_cache_is_fresh_when_an_event_arrives() -> None:
    got = watch(5.0, "app: {runFor: 1500ms, exitCode: 1}")
    died = [(t, state) for t, kind, name, state in got if kind == "ContainerDied"]
    expect_equal(
        died,
        [(2.0, "exited")],
        en="The container exits at 1.5 s; the relist at 2 s sends ContainerDied. Whoever reads "
        "the pod cache on receiving it must find the container exited: the PLEG inspects the "
        "pod into the cache before it sends the pod's events.",
        zh="容器在 1.5 秒退出；2 秒的 relist 发出 ContainerDied。收到它时去读 Pod 缓存的一方必须看到容器已退出："
        "PLEG 在发送 Pod 的事件之前，先把查询到的状态写进缓存。",
    )


def check_a_failed_inspection_is_retried() -> None:
    async def fail_at_two(fake: Any, start: float) -> None:
        await go.sleep(1.9 - (go.now() - start))
        fake.runtime_service.inject_error("pod_sandbox_status")

    got = watch(5.0, "app: {runFor: 1500ms, exitCode: 1}", act=fail_at_two)
    died = [(t, state) for t, kind, name, state in got if kind == "ContainerDied"]
    expect_equal(
        died,
        [(3.0, "exited")],
        en="The inspection at 2 s fails (the runtime returns an error): that relist sends none of "
        "the pod's events and leaves its record as it was, so the relist at 3 s sees the same "
        "change again, inspects the pod, and sends ContainerDied then, once.",
        zh="2 秒时的查询失败了（运行时返回错误）：那一次 relist 不发送这个 Pod 的任何事件，也不动它的记录，"
        "于是 3 秒的 relist 再次看到同样的变化，查询这个 Pod，然后发出 ContainerDied，只发一次。",
    )


def check_container_changed_is_never_sent() -> None:
    async def create_without_starting(fake: Any, start: float) -> None:
        await go.sleep(0.5 - (go.now() - start))
        rs = fake.runtime_service
        sandbox = next(iter(rs.sandboxes.values()))
        config = runtimeapi.ContainerConfig(
            metadata=runtimeapi.ContainerMetadata(name="extra"),
            image=runtimeapi.ImageSpec(image="nginx:1.21"),
            labels={**sandbox.config.labels, "io.kubernetes.container.name": "extra"},
        )
        await rs.create_container(sandbox.id, config, sandbox.config)

    got = watch(3.0, "app: {runFor: forever}", act=create_without_starting)
    expect_equal(
        [(kind, name) for _, kind, name, _ in got if kind == "ContainerChanged"],
        [],
        en="At 0.5 s a container is created but not started, a state kubelet cannot tell "
        "(unknown): the relist at 1 s computes a ContainerChanged event for it, which must not "
        "be sent.",
        zh="0.5 秒时有一个容器被创建但没有启动，这是 kubelet 看不出的状态（unknown）：1 秒的 relist 会为它算出一个 "
        "ContainerChanged 事件，但不能发送。",
    )
