"""The volume manager: two loops that mount pods' volumes, and the wait ``syncPod`` makes.

Go: pkg/kubelet/volumemanager/volume_manager.go

``Run`` starts the populator (pod manager → desired state, every 100 ms) and the reconciler
(desired vs. actual state → mount and unmount operations, every 100 ms). ``syncPod`` calls
[`wait_for_attach_and_mount`][minikubelet.volumemanager.volume_manager.VolumeManager.wait_for_attach_and_mount]
before it asks the runtime for containers: it polls the actual state every 300 ms, for at most
2 min 3 s, until every volume the pod's containers mount is mounted. Until then the pod stays
``ContainerCreating``; after the time-out ``syncPod`` fails with the famous message
``unmounted volumes=[…], unattached volumes=[…]: timed out waiting for the condition``, and
the pod worker tries again later. The mounts themselves run on the simulated filesystem.
"""

from __future__ import annotations

from typing import Any

from minikubelet.container import runtime as kubecontainer
from minikubelet.go import Millisecond, Minute, RecvChan, Second, go
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import poll_immediate
from minikubelet.k8s_io.client_go.tools.record.event import EventRecorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import VolumePluginMgr
from minikubelet.k8s_io.kubernetes.pkg.volume.util.operationexecutor.operation_executor import (
    OperationExecutor,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.util.operationexecutor.operation_generator import (
    OperationGenerator,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.util.util import (
    get_pod_volume_names,
    get_unique_pod_name,
)
from minikubelet.volumemanager.cache.actual_state_of_world import ActualStateOfWorld
from minikubelet.volumemanager.cache.desired_state_of_world import DesiredStateOfWorld
from minikubelet.volumemanager.populator.desired_state_of_world_populator import (
    DesiredStateOfWorldPopulator,
)
from minikubelet.volumemanager.reconciler.reconciler import Reconciler

#: Go: reconcilerLoopSleepPeriod
reconcilerLoopSleepPeriod = 100 * Millisecond
#: Go: desiredStateOfWorldPopulatorLoopSleepPeriod
desiredStateOfWorldPopulatorLoopSleepPeriod = 100 * Millisecond
#: Go: desiredStateOfWorldPopulatorGetPodStatusRetryDuration
desiredStateOfWorldPopulatorGetPodStatusRetryDuration = 2 * Second
#: Go: podAttachAndMountTimeout
podAttachAndMountTimeout = 2 * Minute + 3 * Second
#: Go: podAttachAndMountRetryInterval
podAttachAndMountRetryInterval = 300 * Millisecond
#: Go: waitForAttachTimeout
waitForAttachTimeout = 10 * Minute


def new_volume_manager(
    controller_attach_detach_enabled: bool,
    node_name: str,
    pod_manager: Any,
    pod_status_provider: Any,
    volume_plugin_mgr: VolumePluginMgr,
    kube_container_runtime: kubecontainer.Runtime,
    kubelet_pods_dir: str,
    recorder: EventRecorder,
    keep_terminated_pod_volumes: bool,
) -> VolumeManager:
    """Go: pkg/kubelet/volumemanager/volume_manager.go NewVolumeManager"""
    vm = VolumeManager(
        volume_plugin_mgr=volume_plugin_mgr,
        desired_state_of_world=DesiredStateOfWorld(volume_plugin_mgr),
        actual_state_of_world=ActualStateOfWorld(node_name, volume_plugin_mgr),
        operation_executor=OperationExecutor(OperationGenerator(volume_plugin_mgr, recorder)),
    )
    vm.desired_state_of_world_populator = DesiredStateOfWorldPopulator(
        desiredStateOfWorldPopulatorLoopSleepPeriod,
        desiredStateOfWorldPopulatorGetPodStatusRetryDuration,
        pod_manager,
        pod_status_provider,
        vm.desired_state_of_world,
        vm.actual_state_of_world,
        kube_container_runtime,
        keep_terminated_pod_volumes,
        volume_plugin_mgr,
    )
    vm.reconciler = Reconciler(
        controller_attach_detach_enabled,
        reconcilerLoopSleepPeriod,
        waitForAttachTimeout,
        node_name,
        vm.desired_state_of_world,
        vm.actual_state_of_world,
        vm.desired_state_of_world_populator.populator_has_added_pods,
        vm.operation_executor,
        kubelet_pods_dir,
    )
    return vm


class VolumeManager:
    """Go: pkg/kubelet/volumemanager/volume_manager.go type volumeManager"""

    desired_state_of_world_populator: DesiredStateOfWorldPopulator
    reconciler: Reconciler

    def __init__(
        self,
        volume_plugin_mgr: VolumePluginMgr,
        desired_state_of_world: DesiredStateOfWorld,
        actual_state_of_world: ActualStateOfWorld,
        operation_executor: OperationExecutor,
    ) -> None:
        self.volume_plugin_mgr = volume_plugin_mgr
        self.desired_state_of_world = desired_state_of_world
        self.actual_state_of_world = actual_state_of_world
        self.operation_executor = operation_executor

    async def run(self, sources_ready: Any, stop_ch: RecvChan[None] | None) -> None:
        """Go: pkg/kubelet/volumemanager/volume_manager.go (*volumeManager).Run"""
        # Go omitted: if vm.kubeClient != nil { -- it starts the CSIDriver informer; the port has no CSI plugin
        go(self.desired_state_of_world_populator.run, sources_ready, stop_ch, name="dswp")
        klog.v(2).info_s("The desired_state_of_world populator starts")
        klog.info_s("Starting Kubelet Volume Manager")
        go(self.reconciler.run, stop_ch, name="reconciler")
        if stop_ch is not None:
            await stop_ch.recv()
            klog.info_s("Shutting down Kubelet Volume Manager")

    def get_mounted_volumes_for_pod(self, pod_name: str) -> dict[str, str]:
        """Outer volume name → the mounted volume's path.

        Go: pkg/kubelet/volumemanager/volume_manager.go (*volumeManager).GetMountedVolumesForPod
        """
        return {
            mounted_volume.outer_volume_spec_name: mounted_volume.mounter.get_path()
            for mounted_volume in self.actual_state_of_world.get_mounted_volumes_for_pod(pod_name)
        }

    async def wait_for_attach_and_mount(self, pod: Pod | None) -> None:
        """Wait until every volume the pod mounts is mounted; raise after the time-out.

        Go: pkg/kubelet/volumemanager/volume_manager.go (*volumeManager).WaitForAttachAndMount
        """
        # Go: if pod == nil {
        if pod is None:
            return
        expected_volumes = get_expected_volumes(pod)
        if len(expected_volumes) == 0:
            return

        klog.v(3).info_s("Waiting for volumes to attach and mount for pod", pod=klog.kobj(pod))
        unique_pod_name = get_unique_pod_name(pod)

        # Each sync processes the pod again, so remountable volumes are set up again.
        self.desired_state_of_world_populator.reprocess_pod(unique_pod_name)

        # Go: err := wait.PollImmediate(
        err = await poll_immediate(
            podAttachAndMountRetryInterval,
            podAttachAndMountTimeout,
            self.verify_volumes_mounted_func(unique_pod_name, expected_volumes),
        )
        # Go: if err != nil {
        if err is not None:
            unmounted_volumes = self.get_unmounted_volumes(unique_pod_name, expected_volumes)
            unattached_volumes = self.get_unattached_volumes(expected_volumes)
            if len(unmounted_volumes) == 0:
                return
            raise VolumeMountError(
                f"unmounted volumes={_go_list(unmounted_volumes)}, "
                f"unattached volumes={_go_list(unattached_volumes)}: {err}"
            )

        klog.v(3).info_s("All volumes are attached and mounted for pod", pod=klog.kobj(pod))

    def get_unattached_volumes(self, expected_volumes: list[str]) -> list[str]:
        """The expected volumes not attached to the node.

        Go: pkg/kubelet/volumemanager/volume_manager.go (*volumeManager).getUnattachedVolumes

        Go looks them up by the pod's name for the volume (``config``), while the actual state
        keys volumes by their unique name (``kubernetes.io/configmap/<uid>-config``): no
        lookup ever finds one, so every expected volume is listed. The port keeps that.
        """
        return [v for v in expected_volumes if not self.actual_state_of_world.volume_exists(v)]

    def verify_volumes_mounted_func(self, pod_name: str, expected_volumes: list[str]) -> Any:
        """Go: pkg/kubelet/volumemanager/volume_manager.go (*volumeManager).verifyVolumesMountedFunc"""

        def condition() -> tuple[bool, Exception | None]:
            errs = self.desired_state_of_world.pop_pod_errors(pod_name)
            if len(errs) > 0:
                return True, VolumeMountError("; ".join(errs))
            return len(self.get_unmounted_volumes(pod_name, expected_volumes)) == 0, None

        return condition

    def get_unmounted_volumes(self, pod_name: str, expected_volumes: list[str]) -> list[str]:
        """Go: pkg/kubelet/volumemanager/volume_manager.go (*volumeManager).getUnmountedVolumes"""
        mounted_volumes = {
            v.outer_volume_spec_name
            for v in self.actual_state_of_world.get_mounted_volumes_for_pod(pod_name)
        }
        return filter_unmounted_volumes(mounted_volumes, expected_volumes)


class VolumeMountError(Exception):
    """What ``WaitForAttachAndMount`` returns when a pod's volumes are not all mounted."""


def filter_unmounted_volumes(mounted_volumes: set[str], expected_volumes: list[str]) -> list[str]:
    """Go: pkg/kubelet/volumemanager/volume_manager.go filterUnmountedVolumes"""
    return [v for v in expected_volumes if v not in mounted_volumes]


def get_expected_volumes(pod: Pod) -> list[str]:
    """The names of the volumes the pod's containers mount, sorted.

    Go: pkg/kubelet/volumemanager/volume_manager.go getExpectedVolumes

    Go lists a set (``UnsortedList``), in a random order; the port sorts it, so that the
    message is the same at every run.
    """
    mounts, devices = get_pod_volume_names(pod)
    return sorted({*mounts, *devices})


def _go_list(items: list[str]) -> str:
    """A []string as Go's %v prints it: ``[a b]``."""
    return "[" + " ".join(items) + "]"
