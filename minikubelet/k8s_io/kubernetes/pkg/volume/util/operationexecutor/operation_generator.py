"""The bodies of the volume operations: verify attached, mount (SetUp), unmount (TearDown).

Go: pkg/volume/util/operationexecutor/operation_generator.go

A failed mount records a ``FailedMount`` warning on the pod with the short message
(``MountVolume.SetUp failed for volume "config" : configmap "app-config" not found``); the
long one, with the volume's unique name and the pod's UID, goes to the log.
"""

from __future__ import annotations

from typing import Any

from minikubelet.events import FailedMountVolume
from minikubelet.k8s_io.client_go.tools.record.event import EventRecorder, EventTypeWarning
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import VolumePluginMgr
from minikubelet.k8s_io.kubernetes.pkg.volume.util.operationexecutor.operation_executor import (
    MarkVolumeOpts,
    MountedVolume,
    VolumeMounted,
    VolumeToMount,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.util.types.types import (
    GeneratedOperations,
    OperationContext,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.volume import MounterArgs


class OperationGenerator:
    """Go: pkg/volume/util/operationexecutor/operation_generator.go type operationGenerator"""

    def __init__(self, volume_plugin_mgr: VolumePluginMgr, recorder: EventRecorder) -> None:
        self.volume_plugin_mgr = volume_plugin_mgr
        self.recorder = recorder

    def generate_verify_controller_attached_volume_func(
        self, volume_to_mount: VolumeToMount, node_name: str, actual_state_of_world: Any
    ) -> GeneratedOperations:
        """Go: pkg/volume/util/operationexecutor/operation_generator.go (*operationGenerator).GenerateVerifyControllerAttachedVolumeFunc"""

        async def verify_controller_attached_volume_func() -> OperationContext:
            # Go: if !volumeToMount.PluginIsAttachable {
            # Every plugin of the port is one: nothing to attach, so it counts as attached.
            try:
                actual_state_of_world.mark_volume_as_attached(
                    volume_to_mount.volume_name, volume_to_mount.volume_spec, node_name, ""
                )
            except Exception as err:
                return volume_to_mount.generate_error(
                    "VerifyControllerAttachedVolume.MarkVolumeAsAttachedByUniqueVolumeName failed",
                    err,
                )
            return None, None

        return GeneratedOperations(
            "verify_controller_attached_volume",
            verify_controller_attached_volume_func,
            self._event_recorder(volume_to_mount),
        )

    def _event_recorder(self, volume_to_mount: VolumeToMount) -> Any:
        def event_recorder_func(err: Exception | None) -> None:
            if err is not None:
                self.recorder.eventf(
                    volume_to_mount.pod, EventTypeWarning, FailedMountVolume, str(err)
                )

        return event_recorder_func

    def generate_mount_volume_func(
        self,
        wait_for_attach_timeout: float,
        volume_to_mount: VolumeToMount,
        actual_state_of_world: Any,
        is_remount: bool,
    ) -> GeneratedOperations:
        """Go: pkg/volume/util/operationexecutor/operation_generator.go (*operationGenerator).GenerateMountVolumeFunc"""

        async def mount_volume_func() -> OperationContext:
            try:
                volume_plugin = self.volume_plugin_mgr.find_plugin_by_spec(
                    volume_to_mount.volume_spec
                )
            except ValueError as err:
                return volume_to_mount.generate_error("MountVolume.FindPluginBySpec failed", err)
            volume_mounter = volume_plugin.new_mounter(
                volume_to_mount.volume_spec, volume_to_mount.pod
            )
            # No attacher nor device mounter: WaitForAttach and MountDevice have nothing to do.
            try:
                await volume_mounter.set_up(
                    MounterArgs(desired_size=volume_to_mount.desired_size_limit)
                )
            except Exception as mount_err:
                # Go marks the mount uncertain only for errors of a plugin that may have
                # mounted (a time-out); SetUp of these plugins either happened or did not.
                return volume_to_mount.generate_error("MountVolume.SetUp failed", mount_err)
            _, detailed_msg = volume_to_mount.generate_msg("MountVolume.SetUp succeeded", "")
            klog.v(4 if is_remount else 1).infof("%s", detailed_msg)
            mark_opts = MarkVolumeOpts(
                pod_name=volume_to_mount.pod_name,
                pod_uid=volume_to_mount.pod.metadata.uid,
                volume_name=volume_to_mount.volume_name,
                mounter=volume_mounter,
                outer_volume_spec_name=volume_to_mount.outer_volume_spec_name,
                volume_gid_volume=volume_to_mount.volume_gid_value,
                volume_spec=volume_to_mount.volume_spec,
                volume_mount_state=VolumeMounted,
            )
            try:
                actual_state_of_world.mark_volume_as_mounted(mark_opts)
            except Exception as err:
                return volume_to_mount.generate_error("MountVolume.MarkVolumeAsMounted failed", err)
            return None, None

        return GeneratedOperations(
            "volume_mount", mount_volume_func, self._event_recorder(volume_to_mount)
        )

    def generate_unmount_volume_func(
        self, volume_to_unmount: MountedVolume, actual_state_of_world: Any, pods_dir: str
    ) -> GeneratedOperations:
        """Go: pkg/volume/util/operationexecutor/operation_generator.go (*operationGenerator).GenerateUnmountVolumeFunc"""
        volume_plugin = self.volume_plugin_mgr.plugins.get(volume_to_unmount.plugin_name)
        if volume_plugin is None:
            raise volume_to_unmount.generate_error_detailed(
                "UnmountVolume.FindPluginByName failed", Exception("no volume plugin matched")
            )
        volume_unmounter = volume_plugin.new_unmounter(
            volume_to_unmount.inner_volume_spec_name, volume_to_unmount.pod_uid
        )

        async def unmount_volume_func() -> OperationContext:
            try:
                volume_unmounter.tear_down()
            except Exception as unmount_err:
                err = volume_to_unmount.generate_error_detailed(
                    "UnmountVolume.TearDown failed", unmount_err
                )
                return err, err
            v = volume_to_unmount
            klog.infof(
                f'UnmountVolume.TearDown succeeded for volume "{v.volume_name}" '
                f'(OuterVolumeSpecName: "{v.outer_volume_spec_name}") pod "{v.pod_name}" '
                f'(UID: "{v.pod_uid}"). InnerVolumeSpecName "{v.inner_volume_spec_name}". '
                f'PluginName "{v.plugin_name}", VolumeGidValue "{v.volume_gid_value}"'
            )
            actual_state_of_world.mark_volume_as_unmounted(v.pod_name, v.volume_name)
            return None, None

        # No event on failure, as in Go.
        return GeneratedOperations("volume_unmount", unmount_volume_func, None)
