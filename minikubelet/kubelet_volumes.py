"""The Kubelet and the volumes on its disk: are a pod's volumes still there, and the cleanup of
the directories of pods that are gone.

Go: pkg/kubelet/kubelet_volumes.go

kubelet deletes a terminated pod from the API server only once its volumes are unmounted
(``PodResourcesAreReclaimed``): the reconciler unmounts them after the populator has dropped
the pod from the desired state, which it does at most every 2 s. At housekeeping,
[`cleanup_orphaned_pod_dirs`][KubeletVolumes.cleanup_orphaned_pod_dirs] removes the directories
(``<root>/pods/<uid>/``) of the pods kubelet no longer has, once nothing is mounted there.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from minikubelet.container import runtime as kubecontainer
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.apimachinery.pkg.types.uid import UID
from minikubelet.k8s_io.apimachinery.pkg.util.errors.errors import AggregateError, new_aggregate
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.util.removeall.removeall import (
    remove_all_one_filesystem,
    remove_dirs_one_filesystem,
)

if TYPE_CHECKING:
    from minikubelet.kubelet import Kubelet


class KubeletVolumes:
    """The methods of Go's Kubelet defined in kubelet_volumes.go."""

    def pod_volumes_exist(self: Kubelet, pod_uid: str) -> bool:
        """Whether any volume of the pod is still mounted: by the volume manager, or on disk.

        Go: pkg/kubelet/kubelet_volumes.go (*Kubelet).podVolumesExist
        """
        # Go: if mountedVolumes :=
        if self.volume_manager is not None:
            mounted_volumes = self.volume_manager.get_mounted_volumes_for_pod(pod_uid)
            if len(mounted_volumes) > 0:
                return True
        # Go: volumePaths, err := kl.getMountedVolumePathListFromDisk(podUID)
        try:
            volume_paths = self.get_mounted_volume_path_list_from_disk(pod_uid)
        except OSError as err:
            klog.error_s(
                err,
                "Pod found, but error occurred during checking mounted volumes from disk",
                podUID=UID(pod_uid),
            )
            return True
        # Go: if len(volumePaths) > 0 {
        if len(volume_paths) > 0:
            klog.v(4).info_s(
                "Pod found, but volumes are still mounted on disk",
                podUID=UID(pod_uid),
                paths=volume_paths,
            )
            return True

        return False

    def remove_orphaned_pod_volume_dirs(self: Kubelet, uid: str) -> list[OSError]:
        """Remove a gone pod's volume directories, its subPath directories, then its
        ``volumes`` directory, with ``rmdir``: a file left in one is an error, not removed.

        Go: pkg/kubelet/kubelet_volumes.go (*Kubelet).removeOrphanedPodVolumeDirs
        """
        fs = self.fs
        # Go: orphanVolumeErrors := []error{}
        orphan_volume_errors: list[OSError] = []

        # Go: volumePaths, err := kl.getPodVolumePathListFromDisk(uid)
        try:
            volume_paths = self.get_pod_volume_path_list_from_disk(uid)
        except OSError as err:
            orphan_volume_errors.append(
                OSError(
                    f'orphaned pod "{uid}" found, but error {err} occurred during reading volume '
                    "dir from disk"
                )
            )
            return orphan_volume_errors
        # Go: if len(volumePaths) > 0 {
        for volume_path in volume_paths:
            # Go: if err := syscall.Rmdir(volumePath); err != nil {
            try:
                fs.rmdir(volume_path)
            except OSError as err:
                orphan_volume_errors.append(
                    OSError(
                        f'orphaned pod "{uid}" found, but failed to rmdir() volume at path '
                        f"{volume_path}: {err}"
                    )
                )
            else:
                klog.info_s(
                    "Cleaned up orphaned volume from pod", podUID=UID(uid), path=volume_path
                )

        # Go: subpathVolumePaths, err := kl.getPodVolumeSubpathListFromDisk(uid)
        try:
            subpath_volume_paths = self.get_pod_volume_subpath_list_from_disk(uid)
        except OSError as err:
            orphan_volume_errors.append(
                OSError(
                    f'orphaned pod "{uid}" found, but error {err} occurred during reading of '
                    "volume-subpaths dir from disk"
                )
            )
            return orphan_volume_errors
        # Go: if len(subpathVolumePaths) > 0 {
        for subpath_volume_path in subpath_volume_paths:
            # Go: if err := syscall.Rmdir(subpathVolumePath); err != nil {
            try:
                fs.rmdir(subpath_volume_path)
            except OSError as err:
                orphan_volume_errors.append(
                    OSError(
                        f'orphaned pod "{uid}" found, but failed to rmdir() subpath at path '
                        f"{subpath_volume_path}: {err}"
                    )
                )
            else:
                klog.info_s(
                    "Cleaned up orphaned volume subpath from pod",
                    podUID=UID(uid),
                    path=subpath_volume_path,
                )

        # What is left under the volumes directory goes with it, directories only.
        # Go: podVolDir := kl.getPodVolumesDir(uid)
        pod_vol_dir = self.get_pod_volumes_dir(uid)
        # Go: if err := removeall.RemoveDirsOneFilesystem(kl.mounter, podVolDir); err != nil {
        try:
            remove_dirs_one_filesystem(self.mounter, fs, pod_vol_dir)
        except OSError as err:
            orphan_volume_errors.append(
                OSError(
                    f'orphaned pod "{uid}" found, but error {err} occurred when trying to remove '
                    "the volumes dir"
                )
            )
        else:
            klog.info_s("Cleaned up orphaned pod volumes dir", podUID=UID(uid), path=pod_vol_dir)

        return orphan_volume_errors

    def cleanup_orphaned_pod_dirs(
        self: Kubelet, pods: list[Pod], running_pods: list[kubecontainer.Pod]
    ) -> None:
        """Remove the directory of every pod on disk that kubelet neither has nor runs, unless
        a volume of it is still mounted; raises the removal errors as one.

        Go: pkg/kubelet/kubelet_volumes.go (*Kubelet).cleanupOrphanedPodDirs
        """
        fs = self.fs
        # Go: allPods := sets.NewString()
        all_pods = {pod.metadata.uid for pod in pods}
        all_pods.update(pod.id for pod in running_pods)

        # Go: found, err := kl.listPodsFromDisk()
        found = self.list_pods_from_disk()

        # Go: orphanRemovalErrors := []error{}
        orphan_removal_errors: list[OSError] = []
        orphan_volume_errors: list[OSError] = []

        # Go: for _, uid := range found {
        for uid in found:
            if uid in all_pods:
                continue
            # A volume still mounted there would go with the directory: leave it for later.
            # Go: if podVolumesExist := kl.podVolumesExist(uid); podVolumesExist {
            if self.pod_volumes_exist(uid):
                klog.v(3).info_s(
                    "Orphaned pod found, but volumes are not cleaned up", podUID=UID(uid)
                )
                continue

            # Go: podVolumeErrors := kl.removeOrphanedPodVolumeDirs(uid)
            pod_volume_errors = self.remove_orphaned_pod_volume_dirs(uid)
            if len(pod_volume_errors) > 0:
                orphan_volume_errors.extend(pod_volume_errors)
                continue

            # Go: podDir := kl.getPodDir(uid)
            pod_dir = self.get_pod_dir(uid)
            # Go: podSubdirs, err := ioutil.ReadDir(podDir)
            if not fs.is_dir(pod_dir):
                err = OSError(f"open {pod_dir}: no such file or directory")
                klog.error_s(err, "Could not read directory", path=pod_dir)
                orphan_removal_errors.append(
                    OSError(
                        f'orphaned pod "{uid}" found, but error {err} occurred during reading the '
                        "pod dir from disk"
                    )
                )
                continue
            # Go: for _, podSubdir := range podSubdirs {
            for pod_subdir_name in fs.list_dir(pod_dir):
                pod_subdir_path = posixpath.join(pod_dir, pod_subdir_name)
                # Go: if podSubdirName == "volumes" {
                if pod_subdir_name == "volumes":
                    err = OSError("volumes subdir was found after it was removed")
                    klog.error_s(
                        err,
                        "Orphaned pod found, but failed to remove volumes subdir",
                        podUID=UID(uid),
                        path=pod_subdir_path,
                    )
                    continue
                # Go: if err := removeall.RemoveAllOneFilesystem(kl.mounter, podSubdirPath); err != nil {
                try:
                    remove_all_one_filesystem(self.mounter, fs, pod_subdir_path)
                except OSError as err:
                    klog.error_s(
                        err,
                        "Failed to remove orphaned pod subdir",
                        podUID=UID(uid),
                        path=pod_subdir_path,
                    )
                    orphan_removal_errors.append(
                        OSError(
                            f'orphaned pod "{uid}" found, but error {err} occurred when trying to '
                            f'remove subdir "{pod_subdir_path}"'
                        )
                    )

            # Go: klog.V(3).InfoS("Orphaned pod found, removing", "podUID", uid)
            klog.v(3).info_s("Orphaned pod found, removing", podUID=UID(uid))
            # Go: if err := syscall.Rmdir(podDir); err != nil {
            try:
                fs.rmdir(pod_dir)
            except OSError as err:
                klog.error_s(err, "Failed to remove orphaned pod dir", podUID=UID(uid))
                orphan_removal_errors.append(
                    OSError(
                        f'orphaned pod "{uid}" found, but error {err} occurred when trying to '
                        "remove the pod directory"
                    )
                )

        # Go: logSpew := func(errs []error) {
        def log_spew(errs: list[OSError]) -> None:
            if len(errs) > 0:
                klog.error_s(
                    errs[0],
                    "There were many similar errors. Turn up verbosity to see them.",
                    numErrs=len(errs),
                )
                for err in errs:
                    klog.v(5).info_s("Orphan pod", err=err)

        log_spew(orphan_volume_errors)
        log_spew(orphan_removal_errors)
        # Go: return utilerrors.NewAggregate(orphanRemovalErrors)
        aggregate: AggregateError | None = new_aggregate(orphan_removal_errors)
        if aggregate is not None:
            raise aggregate
