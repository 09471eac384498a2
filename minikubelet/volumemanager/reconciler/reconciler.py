"""The reconciler: every 100 ms, unmount what no pod wants any more and mount what pods want.

Go: pkg/kubelet/volumemanager/reconciler/reconciler.go

Each pass compares the desired state (from the populator) with the actual state (from the
operations) and starts an operation for each difference. Starting one is cheap and most passes
start none: an operation already running or backing off after a failure refuses a second one
with an error the reconciler expects and does not log. A volume goes through two passes at
least: "verify attached" first (which, for these plugins, only records it as attached), then
"mount" (the plugin's SetUp).
"""

from __future__ import annotations

from collections.abc import Callable

from minikubelet.go import RecvChan, now
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import until
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.util.goroutinemap.exponentialbackoff.exponential_backoff import (
    is_exponential_backoff,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.util.nestedpendingoperations.nestedpendingoperations import (
    EmptyNodeName,
    EmptyUniquePodName,
    is_already_exists,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.util.operationexecutor.operation_executor import (
    OperationExecutor,
)
from minikubelet.volumemanager.cache.actual_state_of_world import (
    ActualStateOfWorld,
    is_remount_required_error,
    is_volume_not_attached_error,
)
from minikubelet.volumemanager.cache.desired_state_of_world import DesiredStateOfWorld


def _expected(err: Exception | None) -> bool:
    """The refusals every pass meets: still running, or backing off."""
    return is_already_exists(err) or is_exponential_backoff(err)


class Reconciler:
    """Go: pkg/kubelet/volumemanager/reconciler/reconciler.go type reconciler"""

    def __init__(
        self,
        controller_attach_detach_enabled: bool,
        loop_sleep_duration: float,
        wait_for_attach_timeout: float,
        node_name: str,
        desired_state_of_world: DesiredStateOfWorld,
        actual_state_of_world: ActualStateOfWorld,
        populator_has_added_pods: Callable[[], bool],
        operation_executor: OperationExecutor,
        kubelet_pods_dir: str,
    ) -> None:
        self.controller_attach_detach_enabled = controller_attach_detach_enabled
        self.loop_sleep_duration = loop_sleep_duration
        self.wait_for_attach_timeout = wait_for_attach_timeout
        self.node_name = node_name
        self.desired_state_of_world = desired_state_of_world
        self.actual_state_of_world = actual_state_of_world
        self.populator_has_added_pods = populator_has_added_pods
        self.operation_executor = operation_executor
        self.kubelet_pods_dir = kubelet_pods_dir
        self.time_of_last_sync: float | None = None

    async def run(self, stop_ch: RecvChan[None] | None) -> None:
        """Go: pkg/kubelet/volumemanager/reconciler/reconciler.go (*reconciler).Run"""
        await until(self.reconciliation_loop_func(), self.loop_sleep_duration, stop_ch)

    def reconciliation_loop_func(self) -> Callable[[], None]:
        """Go: pkg/kubelet/volumemanager/reconciler/reconciler.go (*reconciler).reconciliationLoopFunc"""

        def loop() -> None:
            self.reconcile()
            if self.populator_has_added_pods() and not self.states_has_been_synced():
                klog.info_s("Reconciler: start to sync state")
                self.sync()

        return loop

    def reconcile(self) -> None:
        """Go: pkg/kubelet/volumemanager/reconciler/reconciler.go (*reconciler).reconcile"""
        # Unmounts first: a volume a deleted pod held may be the one a new pod wants.
        self.unmount_volumes()
        self.mount_attach_volumes()
        self.unmount_detach_devices()

    def unmount_volumes(self) -> None:
        """Go: pkg/kubelet/volumemanager/reconciler/reconciler.go (*reconciler).unmountVolumes"""
        for mounted_volume in self.actual_state_of_world.get_all_mounted_volumes():
            if not self.desired_state_of_world.pod_exists_in_volume(
                mounted_volume.pod_name, mounted_volume.volume_name
            ):
                klog.v(5).info_s(
                    mounted_volume.generate_msg_detailed(
                        "Starting operationExecutor.UnmountVolume", ""
                    )
                )
                err = self.operation_executor.unmount_volume(
                    mounted_volume, self.actual_state_of_world, self.kubelet_pods_dir
                )
                if err is not None and not _expected(err):
                    klog.error_s(
                        err,
                        str(
                            mounted_volume.generate_error_detailed(
                                "operationExecutor.UnmountVolume failed "
                                f"(controllerAttachDetachEnabled {_go_bool(self.controller_attach_detach_enabled)})",
                                err,
                            )
                        ),
                    )
                if err is None:
                    klog.info_s(
                        mounted_volume.generate_msg_detailed(
                            "operationExecutor.UnmountVolume started", ""
                        )
                    )

    def mount_attach_volumes(self) -> None:
        """Go: pkg/kubelet/volumemanager/reconciler/reconciler.go (*reconciler).mountAttachVolumes"""
        for volume_to_mount in self.desired_state_of_world.get_volumes_to_mount():
            vol_mounted, device_path, err = self.actual_state_of_world.pod_exists_in_volume(
                volume_to_mount.pod_name, volume_to_mount.volume_name
            )
            volume_to_mount.device_path = device_path
            # Go: if cache.IsVolumeNotAttachedError(err) {
            if is_volume_not_attached_error(err):
                # Go: if rc.controllerAttachDetachEnabled || !volumeToMount.PluginIsAttachable {
                # (Go's else branch, kubelet attaching the volume itself, needs an attachable
                # plugin; the port has none.)
                klog.v(5).info_s(
                    volume_to_mount.generate_msg_detailed(
                        "Starting operationExecutor.VerifyControllerAttachedVolume", ""
                    )
                )
                err = self.operation_executor.verify_controller_attached_volume(
                    volume_to_mount, self.node_name, self.actual_state_of_world
                )
                if err is not None and not _expected(err):
                    klog.error_s(
                        err,
                        str(
                            volume_to_mount.generate_error_detailed(
                                "operationExecutor.VerifyControllerAttachedVolume failed "
                                f"(controllerAttachDetachEnabled {_go_bool(self.controller_attach_detach_enabled)})",
                                err,
                            )
                        ),
                    )
                if err is None:
                    klog.info_s(
                        volume_to_mount.generate_msg_detailed(
                            "operationExecutor.VerifyControllerAttachedVolume started", ""
                        )
                    )
            elif not vol_mounted or is_remount_required_error(err):
                is_remount = is_remount_required_error(err)
                remounting_log_str = (
                    "Volume is already mounted to pod, but remount was requested."
                    if is_remount
                    else ""
                )
                klog.v(4).info_s(
                    volume_to_mount.generate_msg_detailed(
                        "Starting operationExecutor.MountVolume", remounting_log_str
                    )
                )
                err = self.operation_executor.mount_volume(
                    self.wait_for_attach_timeout,
                    volume_to_mount,
                    self.actual_state_of_world,
                    is_remount,
                )
                if err is not None and not _expected(err):
                    klog.error_s(
                        err,
                        str(
                            volume_to_mount.generate_error_detailed(
                                "operationExecutor.MountVolume failed "
                                f"(controllerAttachDetachEnabled {_go_bool(self.controller_attach_detach_enabled)})",
                                err,
                            )
                        ),
                    )
                if err is None:
                    klog.v(5 if remounting_log_str else 1).info_s(
                        volume_to_mount.generate_msg_detailed(
                            "operationExecutor.MountVolume started", remounting_log_str
                        )
                    )
            # Go omitted: if cache.IsFSResizeRequiredError(err) && -- only persistent volumes are resized; the port has none

    def unmount_detach_devices(self) -> None:
        """Go: pkg/kubelet/volumemanager/reconciler/reconciler.go (*reconciler).unmountDetachDevices"""
        for attached_volume in self.actual_state_of_world.get_unmounted_volumes():
            if not self.desired_state_of_world.volume_exists(
                attached_volume.volume_name
            ) and not self.operation_executor.is_operation_pending(
                attached_volume.volume_name, EmptyUniquePodName, EmptyNodeName
            ):
                # Go: if attachedVolume.DeviceMayBeMounted() {
                # No plugin of the port mounts a device: only the else branch runs, and there
                # the plugin is not attachable, so the volume is only forgotten.
                self.actual_state_of_world.mark_volume_as_detached(
                    attached_volume.volume_name, self.node_name
                )
                klog.info_s(
                    f'Volume detached for volume "{attached_volume.spec.name()}" (UniqueName: '
                    f'"{attached_volume.volume_name}") on node "{self.node_name}" '
                    f'DevicePath "{attached_volume.device_path}"'
                )

    def sync(self) -> None:
        """Go: pkg/kubelet/volumemanager/reconciler/reconciler.go (*reconciler).sync

        Go reconstructs the volumes it finds on disk from a kubelet that ran before; the
        simulated filesystem starts empty, so there is nothing to reconstruct.
        """
        self.update_last_sync_time()

    def update_last_sync_time(self) -> None:
        """Go: pkg/kubelet/volumemanager/reconciler/reconciler.go (*reconciler).updateLastSyncTime"""
        self.time_of_last_sync = float(now())

    def states_has_been_synced(self) -> bool:
        """Go: pkg/kubelet/volumemanager/reconciler/reconciler.go (*reconciler).StatesHasBeenSynced"""
        return self.time_of_last_sync is not None


def _go_bool(b: bool) -> str:
    return "true" if b else "false"
