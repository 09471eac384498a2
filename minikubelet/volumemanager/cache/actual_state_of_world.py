"""Which volumes are attached, and mounted for which pods: the volume manager's actual state.

Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go

Only the operations write it (a volume is attached when "verify attached" succeeds, mounted
for a pod when its SetUp does); ``WaitForAttachAndMount`` reads it to know whether a pod may
start. A pod's volume of a plugin that ``RequiresRemount`` (configMap, secret, projected) is
marked for a remount each time the pod is processed again, so its files follow the object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import Spec, VolumePluginMgr
from minikubelet.k8s_io.kubernetes.pkg.volume.util.operationexecutor.operation_executor import (
    MarkVolumeOpts,
    MountedVolume,
    VolumeMounted,
    VolumeMountUncertain,
)


@dataclass
class MountedPod:
    """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go type mountedPod"""

    pod_name: str
    pod_uid: str
    mounter: Any
    outer_volume_spec_name: str
    volume_gid_value: str
    volume_spec: Spec
    volume_mount_state_for_pod: str
    remount_required: bool = False


@dataclass
class AttachedVolume:
    """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go type attachedVolume"""

    volume_name: str
    spec: Spec
    plugin_name: str
    plugin_is_attachable: bool
    device_path: str
    mounted_pods: dict[str, MountedPod] = field(default_factory=dict)


class VolumeNotAttachedError(Exception):
    """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go type volumeNotAttachedError"""

    def __init__(self, volume_name: str) -> None:
        super().__init__(
            f'volumeName "{volume_name}" does not exist in the list of attached volumes'
        )


class RemountRequiredError(Exception):
    """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go type remountRequiredError"""

    def __init__(self, volume_name: str, pod_name: str) -> None:
        super().__init__(
            f'volumeName "{volume_name}" is mounted to "{pod_name}" but should be remounted'
        )


def is_volume_not_attached_error(err: BaseException | None) -> bool:
    """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go IsVolumeNotAttachedError"""
    return isinstance(err, VolumeNotAttachedError)


def is_remount_required_error(err: BaseException | None) -> bool:
    """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go IsRemountRequiredError"""
    return isinstance(err, RemountRequiredError)


def get_mounted_volume(mounted_pod: MountedPod, attached_volume: AttachedVolume) -> MountedVolume:
    """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go getMountedVolume"""
    return MountedVolume(
        pod_name=mounted_pod.pod_name,
        volume_name=attached_volume.volume_name,
        inner_volume_spec_name=mounted_pod.volume_spec.name(),
        outer_volume_spec_name=mounted_pod.outer_volume_spec_name,
        plugin_name=attached_volume.plugin_name,
        pod_uid=mounted_pod.pod_uid,
        mounter=mounted_pod.mounter,
        volume_spec=mounted_pod.volume_spec,
        volume_gid_value=mounted_pod.volume_gid_value,
    )


class ActualStateOfWorld:
    """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go type actualStateOfWorld"""

    def __init__(self, node_name: str, volume_plugin_mgr: VolumePluginMgr) -> None:
        self.node_name = node_name
        self.attached_volumes: dict[str, AttachedVolume] = {}
        self.volume_plugin_mgr = volume_plugin_mgr

    def mark_volume_as_attached(
        self, volume_name: str, volume_spec: Spec, node_name: str, device_path: str
    ) -> None:
        """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).MarkVolumeAsAttached"""
        self.add_volume(volume_name, volume_spec, device_path)

    def mark_volume_as_detached(self, volume_name: str, node_name: str) -> None:
        """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).MarkVolumeAsDetached"""
        self.delete_volume(volume_name)

    def mark_volume_as_mounted(self, mark_volume_opts: MarkVolumeOpts) -> None:
        """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).MarkVolumeAsMounted"""
        self.add_pod_to_volume(mark_volume_opts)

    def mark_volume_as_unmounted(self, pod_name: str, volume_name: str) -> None:
        """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).MarkVolumeAsUnmounted"""
        self.delete_pod_from_volume(pod_name, volume_name)

    def add_volume(self, volume_name: str, volume_spec: Spec, device_path: str) -> None:
        """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).addVolume"""
        try:
            volume_plugin = self.volume_plugin_mgr.find_plugin_by_spec(volume_spec)
        except ValueError as err:
            raise ValueError(
                f'failed to get Plugin from volumeSpec for volume "{volume_spec.name()}" err={err}'
            ) from None
        volume_obj = self.attached_volumes.get(volume_name)
        if volume_obj is None:
            self.attached_volumes[volume_name] = AttachedVolume(
                volume_name=volume_name,
                spec=volume_spec,
                plugin_name=volume_plugin.get_plugin_name(),
                plugin_is_attachable=False,
                device_path=device_path,
            )
        else:
            volume_obj.device_path = device_path
            klog.v(2).info_s(
                "Volume is already added to attachedVolume list, update device path",
                volumeName=volume_name,
                path=device_path,
            )

    def add_pod_to_volume(self, mark_volume_opts: MarkVolumeOpts) -> None:
        """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).AddPodToVolume"""
        o = mark_volume_opts
        volume_obj = self.attached_volumes.get(o.volume_name)
        if volume_obj is None:
            raise ValueError(
                f'no volume with the name "{o.volume_name}" exists in the list of attached volumes'
            )
        pod_obj = volume_obj.mounted_pods.get(o.pod_name)
        if pod_obj is None:
            pod_obj = MountedPod(
                pod_name=o.pod_name,
                pod_uid=o.pod_uid,
                mounter=o.mounter,
                outer_volume_spec_name=o.outer_volume_spec_name,
                volume_gid_value=o.volume_gid_volume,
                volume_spec=o.volume_spec,
                volume_mount_state_for_pod=o.volume_mount_state,
            )
        pod_obj.remount_required = False
        pod_obj.volume_mount_state_for_pod = o.volume_mount_state
        volume_obj.mounted_pods[o.pod_name] = pod_obj

    def mark_remount_required(self, pod_name: str) -> None:
        """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).MarkRemountRequired"""
        for volume_obj in self.attached_volumes.values():
            pod_obj = volume_obj.mounted_pods.get(pod_name)
            if pod_obj is None:
                continue
            try:
                volume_plugin = self.volume_plugin_mgr.find_plugin_by_spec(pod_obj.volume_spec)
            except ValueError:
                klog.error_s(
                    None,
                    "MarkRemountRequired failed to FindPluginBySpec for volume",
                    uniquePodName=pod_obj.pod_name,
                    podUID=pod_obj.pod_uid,
                    volumeName=volume_obj.volume_name,
                    volumeSpecName=pod_obj.volume_spec.name(),
                )
                continue
            if volume_plugin.requires_remount(pod_obj.volume_spec):
                pod_obj.remount_required = True

    def delete_pod_from_volume(self, pod_name: str, volume_name: str) -> None:
        """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).DeletePodFromVolume"""
        volume_obj = self.attached_volumes.get(volume_name)
        if volume_obj is None:
            raise ValueError(
                f'no volume with the name "{volume_name}" exists in the list of attached volumes'
            )
        volume_obj.mounted_pods.pop(pod_name, None)

    def delete_volume(self, volume_name: str) -> None:
        """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).DeleteVolume"""
        volume_obj = self.attached_volumes.get(volume_name)
        if volume_obj is None:
            return
        if len(volume_obj.mounted_pods) != 0:
            raise ValueError(
                f'failed to DeleteVolume "{volume_name}", it still has '
                f"{len(volume_obj.mounted_pods)} mountedPods"
            )
        del self.attached_volumes[volume_name]

    def pod_exists_in_volume(
        self, pod_name: str, volume_name: str
    ) -> tuple[bool, str, Exception | None]:
        """(mounted for the pod, device path, why not or why again): Go returns the error.

        Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).PodExistsInVolume
        """
        volume_obj = self.attached_volumes.get(volume_name)
        if volume_obj is None:
            return False, "", VolumeNotAttachedError(volume_name)
        pod_obj = volume_obj.mounted_pods.get(pod_name)
        if pod_obj is not None:
            if pod_obj.volume_mount_state_for_pod == VolumeMountUncertain:
                return False, volume_obj.device_path, None
            if pod_obj.remount_required:
                return (
                    True,
                    volume_obj.device_path,
                    RemountRequiredError(volume_obj.volume_name, pod_obj.pod_name),
                )
        return pod_obj is not None, volume_obj.device_path, None

    def volume_exists(self, volume_name: str) -> bool:
        """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).VolumeExists"""
        return volume_name in self.attached_volumes

    def get_all_mounted_volumes(self) -> list[MountedVolume]:
        """Mounted or maybe mounted: what the reconciler may have to unmount.

        Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).GetAllMountedVolumes
        """
        return [
            get_mounted_volume(pod_obj, volume_obj)
            for volume_obj in self.attached_volumes.values()
            for pod_obj in volume_obj.mounted_pods.values()
            if pod_obj.volume_mount_state_for_pod in (VolumeMounted, VolumeMountUncertain)
        ]

    def get_mounted_volumes_for_pod(self, pod_name: str) -> list[MountedVolume]:
        """Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).GetMountedVolumesForPod"""
        return [
            get_mounted_volume(pod_obj, volume_obj)
            for volume_obj in self.attached_volumes.values()
            for mounted_pod_name, pod_obj in volume_obj.mounted_pods.items()
            if mounted_pod_name == pod_name and pod_obj.volume_mount_state_for_pod == VolumeMounted
        ]

    def get_unmounted_volumes(self) -> list[AttachedVolume]:
        """Attached volumes no pod has mounted.

        Go: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (*actualStateOfWorld).GetUnmountedVolumes
        """
        return [v for v in self.attached_volumes.values() if len(v.mounted_pods) == 0]
