"""What the simulated node hands kubelet: the simulation's part of Go's ``cmd/kubelet`` (ours).

Go's ``cmd/kubelet`` fills ``kubelet.Dependencies`` from the real node (its API client,
cAdvisor, the CRI's services, the mounter) before it calls NewMainKubelet; here
[`new_dependencies`][] fills the port's from the simulated one::

    runtime = new_fake_runtime(scenario=scenario, seed=seed, recorder=recorder)
    ...
    pod_cfg = make_pod_source_config(kube_cfg, recorder, node_name, lambda: True, kube_client)
    deps = new_dependencies(runtime, machine_info, pod_cfg, kube_client)
    kl = new_main_kubelet(kube_cfg, deps, hostname=node_name, node_name=node_name,
                          machine_info=machine_info)
"""

from __future__ import annotations

from minikubelet.config.config import PodConfig
from minikubelet.github_com.google.cadvisor.info.v1.machine import MachineInfo
from minikubelet.k8s_io.client_go.kubernetes.clientset import Interface
from minikubelet.kubelet import Dependencies
from minikubelet.sim.cgroup_fs import SimCgroupFS
from minikubelet.sim.container_runtime import FakeRuntime
from minikubelet.sim.volume_fs import SimFS
from minikubelet.sim.volume_scenario import VolumeScenario


def new_dependencies(
    runtime: FakeRuntime,
    machine_info: MachineInfo,
    pod_config: PodConfig,
    kube_client: Interface | None,
    cgroup_fs: SimCgroupFS | None = None,
) -> Dependencies:
    """kubelet's dependencies on the simulated node: ``runtime``'s manager and recorder, the node
    measured from ``runtime``'s containers on a machine of ``machine_info``, a fresh in-memory
    filesystem, the mount script of ``runtime``'s scenario, and the cgroup tree
    ``cgroup_fs`` (a fresh one if None: pass one to read it after the run)."""
    return Dependencies(
        cadvisor_interface=runtime.simulated_node(machine_info.memory.value()),
        kube_client=kube_client,
        mounter=SimFS(),
        pod_config=pod_config,
        recorder=runtime.recorder,
        container_runtime=runtime.manager,
        mount_script=VolumeScenario(runtime.scenario.volumes),
        cgroup_fs=SimCgroupFS() if cgroup_fs is None else cgroup_fs,
    )
