"""Helpers the volume manager shares: a pod's unique name, its volume names, is it terminated.

Go: pkg/volume/util/util.go
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minikubelet.k8s_io.api.core.v1 import ContainerStatus, Pod, PodPhase, PodStatus, Volume

if TYPE_CHECKING:
    from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import Spec, VolumePlugin


def get_unique_pod_name(pod: Pod) -> str:
    """A pod's UID: how the volume manager names pods.

    Go: pkg/volume/util/util.go GetUniquePodName
    """
    return pod.metadata.uid


def get_unique_volume_name_from_spec_with_pod(
    pod_name: str, volume_plugin: VolumePlugin, volume_spec: Spec
) -> str:
    """``<plugin>/<pod UID>-<volume name>``: a volume only this pod has.

    Go: pkg/volume/util/util.go GetUniqueVolumeNameFromSpecWithPod
    """
    return f"{volume_plugin.get_plugin_name()}/{pod_name}-{volume_spec.name()}"


def is_pod_terminated(pod: Pod, pod_status: PodStatus) -> bool:
    """Go: pkg/volume/util/util.go IsPodTerminated"""
    return (
        pod_status.phase == PodPhase.FAILED
        or pod_status.phase == PodPhase.SUCCEEDED
        or (
            pod.metadata.deletion_timestamp is not None
            and not_running(pod_status.container_statuses)
        )
    )


def not_running(statuses: list[ContainerStatus]) -> bool:
    """Go: pkg/volume/util/util.go notRunning"""
    for status in statuses:
        if status.state.terminated is None and status.state.waiting is None:
            return False
    return True


def is_local_ephemeral_volume(volume: Volume) -> bool:
    """Whether the volume's data lives on the node's disk and goes with the pod: a gitRepo, an
    emptyDir on the default medium (not ``Memory``), a configMap.

    Go: pkg/volume/util/util.go IsLocalEphemeralVolume
    """
    source = volume.volume_source
    return (
        "gitRepo" in source
        or ("emptyDir" in source and (source["emptyDir"] or {}).get("medium", "") == "")
        or "configMap" in source
    )


def get_pod_volume_names(pod: Pod) -> tuple[list[str], list[str]]:
    """The names of the volumes the pod's containers mount, and of those they use as devices
    (none: the API subset has no ``volumeDevices``). In the containers' order, without repeats.

    Go: pkg/volume/util/util.go GetPodVolumeNames
    """
    mounts: dict[str, None] = {}
    for container in [*pod.spec.init_containers, *pod.spec.containers]:
        for mount in container.volume_mounts:
            mounts[mount.name] = None
    return list(mounts), []
