"""Which volumes should be mounted, for which pods: the volume manager's desired state.

Go: pkg/kubelet/volumemanager/cache/desired_state_of_world.go

The populator fills it from the pod manager; the reconciler reads it to know what to mount.
Keys are unique volume names: for the port's plugins (none attachable) that is
``<plugin>/<pod UID>-<volume name>``, so two pods never share a volume. Go iterates its maps in
random order; the port keeps the order volumes were added, so runs are reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from minikubelet.k8s_io.api.core.v1 import Pod, ResourceEphemeralStorage
from minikubelet.k8s_io.apimachinery.pkg.api.resource import BinarySI, Quantity, QuantityError
from minikubelet.k8s_io.kubernetes.pkg.api.v1.resource.helpers import pod_requests_and_limits
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import Spec, VolumePluginMgr
from minikubelet.k8s_io.kubernetes.pkg.volume.util.operationexecutor.operation_executor import (
    VolumeToMount,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.util.util import (
    get_unique_volume_name_from_spec_with_pod,
    is_local_ephemeral_volume,
)

#: Go: maxPodErrors
maxPodErrors = 10


@dataclass
class PodToMount:
    """Go: pkg/kubelet/volumemanager/cache/desired_state_of_world.go type podToMount"""

    pod_name: str
    pod: Pod
    volume_spec: Spec
    outer_volume_spec_name: str


@dataclass
class DesiredVolume:
    """Go: pkg/kubelet/volumemanager/cache/desired_state_of_world.go type volumeToMount"""

    volume_name: str
    plugin_is_attachable: bool
    plugin_is_device_mountable: bool
    volume_gid_value: str
    pods_to_mount: dict[str, PodToMount] = field(default_factory=dict)
    reported_in_use: bool = False
    desired_size_limit: Quantity | None = None


def _size_limit(volume_spec: Spec) -> Quantity | None:
    """An emptyDir's ``sizeLimit`` (Go's ``EmptyDir.SizeLimit``), or None.

    The manifest loader keeps volume sources as written; the API server would have refused a
    size that does not parse, so one is taken for no limit here.
    """
    raw = (volume_spec.source("emptyDir") or {}).get("sizeLimit")
    if raw is None:
        return None
    try:
        return Quantity.parse(str(raw))
    except QuantityError:
        return None


class DesiredStateOfWorld:
    """Go: pkg/kubelet/volumemanager/cache/desired_state_of_world.go type desiredStateOfWorld"""

    def __init__(self, volume_plugin_mgr: VolumePluginMgr) -> None:
        self.volumes_to_mount: dict[str, DesiredVolume] = {}
        self.volume_plugin_mgr = volume_plugin_mgr
        #: pod → its errors, kept sorted as Go's ``sets.String`` lists them.
        self.pod_errors: dict[str, set[str]] = {}

    def add_pod_to_volume(
        self,
        pod_name: str,
        pod: Pod,
        volume_spec: Spec,
        outer_volume_spec_name: str,
        volume_gid_value: str,
    ) -> str:
        """Add the pod to the volume (the volume too, if new); its unique name. Raises
        ``ValueError`` with Go's message when no plugin supports the volume.

        Go: pkg/kubelet/volumemanager/cache/desired_state_of_world.go (*desiredStateOfWorld).AddPodToVolume
        """
        try:
            volume_plugin = self.volume_plugin_mgr.find_plugin_by_spec(volume_spec)
        except ValueError as err:
            raise ValueError(
                f'failed to get Plugin from volumeSpec for volume "{volume_spec.name()}" err={err}'
            ) from None
        # None of the port's plugins is attachable nor device-mountable.
        volume_name = get_unique_volume_name_from_spec_with_pod(
            pod_name, volume_plugin, volume_spec
        )
        if volume_name not in self.volumes_to_mount:
            size_limit: Quantity | None = None
            # A volume on the node's disk is sized as the pod's ephemeral-storage limit (or its
            # emptyDir's sizeLimit, when smaller): 0 when the pod sets none.
            if is_local_ephemeral_volume(volume_spec.volume):
                _, pod_limits = pod_requests_and_limits(pod)
                ephemeral_storage_limit = pod_limits.get(ResourceEphemeralStorage)
                limit = ephemeral_storage_limit.value() if ephemeral_storage_limit else 0
                size_limit = Quantity(Fraction(limit), BinarySI)
                volume_size = _size_limit(volume_spec)
                if (
                    volume_size is not None
                    and volume_size.value() > 0
                    and (size_limit.value() == 0 or volume_size.value() < size_limit.value())
                ):
                    size_limit = Quantity(Fraction(volume_size.value()), BinarySI)
            self.volumes_to_mount[volume_name] = DesiredVolume(
                volume_name=volume_name,
                plugin_is_attachable=False,
                plugin_is_device_mountable=False,
                volume_gid_value=volume_gid_value,
                desired_size_limit=size_limit,
            )
        self.volumes_to_mount[volume_name].pods_to_mount[pod_name] = PodToMount(
            pod_name, pod, volume_spec, outer_volume_spec_name
        )
        return volume_name

    def delete_pod_from_volume(self, pod_name: str, volume_name: str) -> None:
        """Go: pkg/kubelet/volumemanager/cache/desired_state_of_world.go (*desiredStateOfWorld).DeletePodFromVolume"""
        self.pod_errors.pop(pod_name, None)
        volume_obj = self.volumes_to_mount.get(volume_name)
        if volume_obj is None or pod_name not in volume_obj.pods_to_mount:
            return
        del volume_obj.pods_to_mount[pod_name]
        if len(volume_obj.pods_to_mount) == 0:
            del self.volumes_to_mount[volume_name]

    def volume_exists(self, volume_name: str) -> bool:
        """Go: pkg/kubelet/volumemanager/cache/desired_state_of_world.go (*desiredStateOfWorld).VolumeExists"""
        return volume_name in self.volumes_to_mount

    def pod_exists_in_volume(self, pod_name: str, volume_name: str) -> bool:
        """Go: pkg/kubelet/volumemanager/cache/desired_state_of_world.go (*desiredStateOfWorld).PodExistsInVolume"""
        volume_obj = self.volumes_to_mount.get(volume_name)
        return volume_obj is not None and pod_name in volume_obj.pods_to_mount

    def get_volumes_to_mount(self) -> list[VolumeToMount]:
        """Go: pkg/kubelet/volumemanager/cache/desired_state_of_world.go (*desiredStateOfWorld).GetVolumesToMount"""
        return [
            VolumeToMount(
                volume_name=volume_name,
                pod_name=pod_name,
                pod=pod_obj.pod,
                volume_spec=pod_obj.volume_spec,
                outer_volume_spec_name=pod_obj.outer_volume_spec_name,
                plugin_is_attachable=volume_obj.plugin_is_attachable,
                plugin_is_device_mountable=volume_obj.plugin_is_device_mountable,
                volume_gid_value=volume_obj.volume_gid_value,
                reported_in_use=volume_obj.reported_in_use,
                desired_size_limit=volume_obj.desired_size_limit,
            )
            for volume_name, volume_obj in self.volumes_to_mount.items()
            for pod_name, pod_obj in volume_obj.pods_to_mount.items()
        ]

    def add_error_to_pod(self, pod_name: str, err: str) -> None:
        """Go: pkg/kubelet/volumemanager/cache/desired_state_of_world.go (*desiredStateOfWorld).AddErrorToPod"""
        errs = self.pod_errors.get(pod_name)
        if errs is not None:
            if len(errs) <= maxPodErrors:
                errs.add(err)
            return
        self.pod_errors[pod_name] = {err}

    def pop_pod_errors(self, pod_name: str) -> list[str]:
        """Go: pkg/kubelet/volumemanager/cache/desired_state_of_world.go (*desiredStateOfWorld).PopPodErrors"""
        return sorted(self.pod_errors.pop(pod_name, set()))

    def get_pods_with_errors(self) -> list[str]:
        """Go: pkg/kubelet/volumemanager/cache/desired_state_of_world.go (*desiredStateOfWorld).GetPodsWithErrors"""
        return list(self.pod_errors)
