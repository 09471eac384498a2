"""The populator: every 100 ms, put the pod manager's pods' volumes into the desired state.

Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go

A pod is processed once (its volumes added) and then again only when ``WaitForAttachAndMount``
asks (``ReprocessPod``, at each sync of the pod), which also marks its remountable volumes for a
remount. Removing volumes of deleted or terminated pods asks the runtime which pods still
run, so it happens at most every 2 s, whatever the loop's period.
"""

from __future__ import annotations

from typing import Any

from minikubelet.container import runtime as kubecontainer
from minikubelet.go import RecvChan, now, recv, select, sleep
from minikubelet.go import fmt as go_fmt
from minikubelet.k8s_io.api.core.v1 import Pod, Volume
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import until
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.volume.plugins import (
    Spec,
    VolumePluginMgr,
    new_spec_from_volume,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.util.util import (
    get_pod_volume_names,
    get_unique_pod_name,
    is_pod_terminated,
)
from minikubelet.volumemanager.cache.actual_state_of_world import ActualStateOfWorld
from minikubelet.volumemanager.cache.desired_state_of_world import DesiredStateOfWorld


class DesiredStateOfWorldPopulator:
    """Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go type desiredStateOfWorldPopulator"""

    def __init__(
        self,
        loop_sleep_duration: float,
        get_pod_status_retry_duration: float,
        pod_manager: Any,
        pod_status_provider: Any,
        desired_state_of_world: DesiredStateOfWorld,
        actual_state_of_world: ActualStateOfWorld,
        kube_container_runtime: kubecontainer.Runtime,
        keep_terminated_pod_volumes: bool,
        volume_plugin_mgr: VolumePluginMgr,
    ) -> None:
        self.pod_manager = pod_manager
        self.desired_state_of_world = desired_state_of_world
        self.actual_state_of_world = actual_state_of_world
        self.pod_status_provider = pod_status_provider
        #: pod → processed (``False``: to be processed again).
        self.processed_pods: dict[str, bool] = {}
        self.kube_container_runtime = kube_container_runtime
        self.time_of_last_get_pod_status = 0.0
        self.keep_terminated_pod_volumes = keep_terminated_pod_volumes
        self.has_added_pods = False
        self.loop_sleep_duration = loop_sleep_duration
        self.get_pod_status_retry_duration = get_pod_status_retry_duration
        self.volume_plugin_mgr = volume_plugin_mgr

    async def run(self, sources_ready: Any, stop_ch: RecvChan[None] | None) -> None:
        """Loop until every pod source has been seen, then say so (``HasAddedPods``) and go on.

        Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).Run
        """
        klog.info_s("Desired state populator starts to run")
        # Go: wait.PollUntil(dswp.loopSleepDuration, func() (bool, error) {
        while True:
            await sleep(self.loop_sleep_duration)
            done = sources_ready.all_ready()
            await self.populator_loop()
            if done:
                break
            match await select(recv(stop_ch), default=True):
                case 0, _:
                    return
                case _:
                    pass
        self.has_added_pods = True
        await until(self.populator_loop, self.loop_sleep_duration, stop_ch)

    def reprocess_pod(self, pod_name: str) -> None:
        """Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).ReprocessPod"""
        self.mark_pod_processing_failed(pod_name)

    def populator_has_added_pods(self) -> bool:
        """Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).HasAddedPods"""
        return self.has_added_pods

    async def populator_loop(self) -> None:
        """Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).populatorLoop"""
        self.find_and_add_new_pods()
        # Asking the runtime is dear: at most once per retry duration.
        if float(now()) - self.time_of_last_get_pod_status < self.get_pod_status_retry_duration:
            klog.v(5).info_s(
                "Skipping findAndRemoveDeletedPods(). ",
                nextRetryTime=go_fmt.Time(
                    self.time_of_last_get_pod_status + self.get_pod_status_retry_duration
                ),
                retryDuration=go_fmt.Duration(self.get_pod_status_retry_duration),
            )
            return
        await self.find_and_remove_deleted_pods()

    def is_pod_terminated(self, pod: Pod) -> bool:
        """Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).isPodTerminated"""
        pod_status, found = self.pod_status_provider.get_pod_status(pod.metadata.uid)
        if not found:
            pod_status = pod.status
        return is_pod_terminated(pod, pod_status)

    def find_and_add_new_pods(self) -> None:
        """Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).findAndAddNewPods"""
        for pod in self.pod_manager.get_pods():
            if self.is_pod_terminated(pod):
                # Do not (re)mount volumes for terminated pods.
                continue
            self.process_pod_volumes(pod)

    async def find_and_remove_deleted_pods(self) -> None:
        """Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).findAndRemoveDeletedPods"""
        running_pods: list[kubecontainer.Pod] = []
        running_pods_fetched = False
        for volume_to_mount in self.desired_state_of_world.get_volumes_to_mount():
            pod, pod_exists = self.pod_manager.get_pod_by_uid(volume_to_mount.pod.metadata.uid)
            if pod_exists:
                assert pod is not None
                # Go: if volumeToMount.PluginIsAttachable { -- never: no attachable plugin
                if not self.is_pod_terminated(pod):
                    continue
                if self.keep_terminated_pod_volumes:
                    continue

            if not running_pods_fetched:
                try:
                    running_pods = await self.kube_container_runtime.get_pods(False)
                except Exception as get_pods_err:
                    klog.error_s(
                        get_pods_err, "kubeContainerRuntime.findAndRemoveDeletedPods returned error"
                    )
                    continue
                running_pods_fetched = True
                self.time_of_last_get_pod_status = now()

            running_containers = False
            for running_pod in running_pods:
                if running_pod.id == volume_to_mount.pod.metadata.uid:
                    if len(running_pod.sandboxes) > 0 or len(running_pod.containers) > 0:
                        running_containers = True
                    break
            if running_containers:
                klog.v(4).info_s(
                    "Pod still has one or more containers in the non-exited state and will not "
                    "be removed from desired state",
                    pod=klog.kobj(volume_to_mount.pod),
                )
                continue
            exists, _, _ = self.actual_state_of_world.pod_exists_in_volume(
                volume_to_mount.pod_name, volume_to_mount.volume_name
            )
            volume_to_mount_spec_name = volume_to_mount.volume_spec.name()
            if not exists and pod_exists:
                klog.v(4).info_s(
                    "Actual state does not yet have volume mount information and pod still "
                    "exists in pod manager, skip removing volume from desired state",
                    pod=klog.kobj(volume_to_mount.pod),
                    podUID=volume_to_mount.pod.metadata.uid,
                    volumeName=volume_to_mount_spec_name,
                )
                continue
            klog.v(4).info_s(
                "Removing volume from desired state",
                pod=klog.kobj(volume_to_mount.pod),
                podUID=volume_to_mount.pod.metadata.uid,
                volumeName=volume_to_mount_spec_name,
            )
            self.desired_state_of_world.delete_pod_from_volume(
                volume_to_mount.pod_name, volume_to_mount.volume_name
            )
            self.delete_processed_pod(volume_to_mount.pod_name)

        for pod_name in self.desired_state_of_world.get_pods_with_errors():
            _, pod_exists = self.pod_manager.get_pod_by_uid(pod_name)
            if not pod_exists:
                self.desired_state_of_world.pop_pod_errors(pod_name)

    def process_pod_volumes(self, pod: Pod | None) -> None:
        """Add the volumes the pod's containers mount; a volume no plugin supports becomes an
        error of the pod, which ``WaitForAttachAndMount`` returns at once.

        Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).processPodVolumes
        """
        # Go: if pod == nil {
        if pod is None:
            return
        unique_pod_name = get_unique_pod_name(pod)
        if self.pod_previously_processed(unique_pod_name):
            return

        all_volumes_added = True
        mounts, devices = get_pod_volume_names(pod)
        # Go: for _, podVolume := range pod.Spec.Volumes {
        for pod_volume in pod.spec.volumes:
            if pod_volume.name not in mounts and pod_volume.name not in devices:
                klog.v(4).info_s(
                    "Skipping unused volume", pod=klog.kobj(pod), volumeName=pod_volume.name
                )
                continue
            try:
                volume_spec, volume_gid_value = self.create_volume_spec(pod_volume, pod)
            except ValueError as err:
                klog.error_s(
                    err, "Error processing volume", pod=klog.kobj(pod), volumeName=pod_volume.name
                )
                self.desired_state_of_world.add_error_to_pod(unique_pod_name, str(err))
                all_volumes_added = False
                continue
            try:
                self.desired_state_of_world.add_pod_to_volume(
                    unique_pod_name, pod, volume_spec, pod_volume.name, volume_gid_value
                )
            except ValueError as err:
                klog.error_s(
                    err,
                    "Failed to add volume to desiredStateOfWorld",
                    pod=klog.kobj(pod),
                    volumeName=pod_volume.name,
                    volumeSpecName=volume_spec.name(),
                )
                self.desired_state_of_world.add_error_to_pod(unique_pod_name, str(err))
                all_volumes_added = False
            else:
                klog.v(4).info_s(
                    "Added volume to desired state",
                    pod=klog.kobj(pod),
                    volumeName=pod_volume.name,
                    volumeSpecName=volume_spec.name(),
                )
            # Go omitted: if expandInUsePV { -- only persistent volumes are resized; the port has none

        # Go: if allVolumesAdded {
        if all_volumes_added:
            self.mark_pod_processed(unique_pod_name)
            # The pod was processed again: its configMaps and secrets may have changed.
            self.actual_state_of_world.mark_remount_required(unique_pod_name)
            self.desired_state_of_world.pop_pod_errors(unique_pod_name)
        elif self.pod_has_been_seen_once(unique_pod_name):
            # Second failure in a row: stop retrying until the next sync asks again.
            self.mark_pod_processed(unique_pod_name)

    def pod_previously_processed(self, pod_name: str) -> bool:
        """Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).podPreviouslyProcessed"""
        return self.processed_pods.get(pod_name, False)

    def mark_pod_processing_failed(self, pod_name: str) -> None:
        """Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).markPodProcessingFailed"""
        self.processed_pods[pod_name] = False

    def pod_has_been_seen_once(self, pod_name: str) -> bool:
        """Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).podHasBeenSeenOnce"""
        return pod_name in self.processed_pods

    def mark_pod_processed(self, pod_name: str) -> None:
        """Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).markPodProcessed"""
        self.processed_pods[pod_name] = True

    def delete_processed_pod(self, pod_name: str) -> None:
        """Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).deleteProcessedPod"""
        self.processed_pods.pop(pod_name, None)

    def create_volume_spec(self, pod_volume: Volume, pod: Pod) -> tuple[Spec, str]:
        """The volume's spec and GID annotation (always empty: that comes from a PV).

        Go: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (*desiredStateOfWorldPopulator).createVolumeSpec
        """
        pvc_source = pod_volume.volume_source.get("persistentVolumeClaim")
        if pvc_source is None and "ephemeral" in pod_volume.volume_source:
            pvc_source = {"claimName": f"{pod.metadata.name}-{pod_volume.name}"}
        if pvc_source is not None:
            # No PVCs nor PVs in the port's API server: getPVCExtractPV never finds a claim.
            claim = pvc_source.get("claimName", "")
            raise ValueError(
                f"error processing PVC {pod.metadata.namespace}/{claim}: failed to fetch PVC "
                f'from API server: persistentvolumeclaims "{claim}" not found'
            )
        return new_spec_from_volume(pod_volume), ""
