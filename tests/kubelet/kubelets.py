"""A Kubelet made as ``minikubelet run`` makes it, for a test to call its methods on."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from minikubelet import go
from minikubelet.apis.config.types import KubeletConfiguration
from minikubelet.config.config import PodConfig, PodConfigNotificationIncremental
from minikubelet.github_com.google.cadvisor.info.v1.machine import MachineInfo
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kubelet import Kubelet, new_main_kubelet
from minikubelet.sim.container_runtime import new_fake_runtime
from minikubelet.sim.dependencies import new_dependencies


def on_kubelet(
    body: Callable[[Kubelet], Any],
    verbosity: int = 0,
    config: KubeletConfiguration | None = None,
    cpu: str = "2",
    memory: str = "4Gi",
    **kw: Any,
) -> str:
    """Run ``body`` on a fresh Kubelet of node ``node-a`` (2 CPUs, 4Gi unless told; ``kw`` go
    to new_main_kubelet) inside a run of the port's runtime; return what klog printed while
    ``body`` ran."""
    log = io.StringIO()

    async def main() -> None:
        recorder = Recorder()
        machine = MachineInfo(cpu=Quantity.parse(cpu), memory=Quantity.parse(memory))
        kl = new_main_kubelet(
            config or KubeletConfiguration(),
            new_dependencies(
                new_fake_runtime(recorder=recorder),
                machine,
                PodConfig(PodConfigNotificationIncremental, recorder),
                None,
            ),
            hostname="node-a",
            node_name="node-a",
            machine_info=machine,
            **kw,
        )
        klog.configure(verbosity=verbosity, out=log)
        body(kl)

    try:
        go.run(main, until=0.1)
    finally:
        klog.configure(verbosity=0, out=None)
    return log.getvalue()
