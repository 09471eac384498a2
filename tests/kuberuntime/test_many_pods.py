"""A thousand pods on the fake runtime with the PLEG: every pod runs, every start is reported."""

from __future__ import annotations

from minikubelet import go
from minikubelet.container.cache import new_cache
from minikubelet.container.runtime import ContainerStateRunning
from minikubelet.pleg.generic import new_generic_pleg
from tests.kuberuntime.podutil import Node, container, make_pod


def test_a_thousand_pods():
    pods = [
        make_pod(
            f"p{i}",
            containers=[container("app", image="nginx:1.21")],
            init_containers=[container("init")] if i % 2 else None,
        )
        for i in range(1000)
    ]
    node = Node(pods, seed=3)
    cache = new_cache()
    counts: dict[str, int] = {}

    async def main():
        pleg = new_generic_pleg(node.manager, 1000, 1.0, cache)
        pleg.start()

        async def consume():
            async for e in pleg.watch():
                counts[str(e.type)] = counts.get(str(e.type), 0) + 1

        go.go(consume)
        await node.run(3)
        await go.sleep(1.5)
        return pleg.healthy()

    healthy = go.run(main, seed=3)
    assert healthy == (True, None)
    for p in pods:
        st = cache.get(p.metadata.uid)
        assert st.find_container_status_by_name("app").state == ContainerStateRunning
    # 1000 sandboxes and 1000 app containers started; 500 init containers died. Their start
    # went unseen: they ran from 0 s to 1 s, between two relists (the first relist ran at 0 s,
    # before the syncs had started them), so the PLEG only saw them exited. The generic PLEG
    # has this blind spot in Go too (see the GenericPLEG docstring).
    assert counts == {"ContainerStarted": 2000, "ContainerDied": 500}
    assert all(r.error() is None for _, _, r in node.results)
