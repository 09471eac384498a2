"""Helpers the volume manager shares: a pod's unique name, its volume names, is it terminated.

Go: pkg/volume/util/util.go
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minikubelet.k8s_io.api.core.v1 import ContainerStatus, Pod, PodPhase, PodStatus, Volume
from minikubelet.k8s_io.klog.v2 import klog

if TYPE_CHECKING:
    from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import FileSystem, Spec, VolumePlugin


#: Go: readyFileName
readyFileName = "ready"


def is_ready(fs: FileSystem, dir: str) -> bool:
    """Whether ``dir`` holds the ``ready`` file a finished SetUp leaves (``fs`` is ours: the
    node's files).

    Go: pkg/volume/util/util.go IsReady
    """
    ready_file = f"{dir}/{readyFileName}"
    if not fs.exists(ready_file):
        return False
    if not fs.is_file(ready_file):
        klog.errorf("ready-file is not a file: %s", ready_file)
        return False
    return True


def set_ready(fs: FileSystem, dir: str) -> None:
    """Leave the ``ready`` file in ``dir``.

    Go: pkg/volume/util/util.go SetReady
    """
    fs.mkdir_all(dir)
    fs.write_file(f"{dir}/{readyFileName}", b"")


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


def unmount_via_empty_dir(dir: str, wrapped: Any, vol_name: str, pod_uid: str) -> None:
    """Tear a volume down as the emptyDir it wraps (configMap, secret, projected).

    Go: pkg/volume/util/util.go UnmountViaEmptyDir

    Go asks the host for the wrapped plugin's unmounter; here the plugin holds its emptyDir
    plugin (``wrapped``) and asks it.
    """
    klog.v(3).infof("Tearing down volume %v for pod %v at %v", vol_name, pod_uid, dir)
    wrapped.new_unmounter(wrapper_volume_name(vol_name), pod_uid).tear_down_at(dir)


def wrapper_volume_name(vol_name: str) -> str:
    """The name kubelet gives the emptyDir a configMap, secret or projected volume wraps (its
    ``NewWrapperMounter`` and ``NewWrapperUnmounter`` rename the wrapped spec so):
    ``wrapped_<name>``. It names the emptyDir's ready file and its log lines."""
    return "wrapped_" + vol_name
