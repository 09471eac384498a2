"""Benchmark of the runtime half: SyncPod on the fake CRI runtime, and PLEG relists.

Run: ``python bench/bench_runtime.py [--pods 1000] [--seconds 30]``. Prints figures; asserts
nothing. Everything runs under the virtual clock, so the figures are wall-clock seconds spent
computing, not waiting.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from minikubelet import go
from minikubelet.container.cache import new_cache
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import new_back_off
from minikubelet.kubelet import MaxContainerBackOff, backOffPeriod
from minikubelet.pleg.generic import new_generic_pleg
from minikubelet.sim.container_runtime import new_fake_runtime


def make_pods(n: int) -> list[v1.Pod]:
    """n pods of one container each; every other pod also has an init container."""
    pods = []
    for i in range(n):
        init = [v1.Container(name="init", image="busybox:1.34", image_pull_policy="IfNotPresent")]
        pods.append(
            v1.Pod(
                metadata=v1.ObjectMeta(name=f"pod-{i}", namespace="default", uid=f"uid-{i}"),
                spec=v1.PodSpec(
                    init_containers=init if i % 2 else [],
                    containers=[
                        v1.Container(
                            name="app", image="nginx:1.21", image_pull_policy="IfNotPresent"
                        )
                    ],
                ),
            )
        )
    return pods


def bench(n: int, seconds: float) -> None:
    pods = make_pods(n)
    by_uid = {p.metadata.uid: p for p in pods}
    fake = new_fake_runtime(seed=1, pod_lookup=by_uid.get)
    manager = fake.manager
    back_off = new_back_off(backOffPeriod, MaxContainerBackOff)

    async def sync_all() -> int:
        calls = 0
        for p in pods:
            m = p.metadata
            status = await manager.get_pod_status(m.uid, m.name, m.namespace)
            await manager.sync_pod(p, status, [], back_off)
            calls += 1
        return calls

    async def main() -> None:
        t0 = time.perf_counter()
        calls = await sync_all()  # creates every sandbox and first container
        t1 = time.perf_counter()
        print(f"first SyncPod of {n} pods:      {t1 - t0:7.2f} s  {calls / (t1 - t0):8.0f} ops/s")
        await go.sleep(2)  # the init containers exit
        t0 = time.perf_counter()
        calls = await sync_all()  # starts the app containers of pods with an init container
        t1 = time.perf_counter()
        print(f"second SyncPod (inits done):   {t1 - t0:7.2f} s  {calls / (t1 - t0):8.0f} ops/s")
        t0 = time.perf_counter()
        calls = await sync_all()  # nothing to do: GetPodStatus + computePodActions
        t1 = time.perf_counter()
        print(f"steady SyncPod (no changes):   {t1 - t0:7.2f} s  {calls / (t1 - t0):8.0f} ops/s")

        pleg = new_generic_pleg(manager, 1000, 1.0, new_cache())
        events = 0

        async def drain() -> None:
            nonlocal events
            async for _ in pleg.watch():
                events += 1

        go.go(drain)
        t0 = time.perf_counter()
        await pleg.relist()  # everything is new: one GetPodStatus per pod
        t1 = time.perf_counter()
        print(f"first relist:                  {t1 - t0:7.2f} s  ({events} events)")
        pleg.start()
        t0 = time.perf_counter()
        await go.sleep(seconds)
        t1 = time.perf_counter()
        per = (t1 - t0) / seconds
        print(
            f"steady relists ({seconds:g} virtual s): {t1 - t0:7.2f} s  {per * 1000:8.1f} ms/relist"
        )

    go.run(main, seed=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pods", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}; {args.pods} pods")
    bench(args.pods, args.seconds)


if __name__ == "__main__":
    main()
