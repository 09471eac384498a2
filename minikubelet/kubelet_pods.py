"""The Kubelet's methods about pods: their API status, termination, killing and cleanup.

Go: pkg/kubelet/kubelet_pods.go

Go spreads the methods of its Kubelet type over several files; Python keeps one class per
module, so these live in [`KubeletPods`][], which
[`minikubelet.kubelet.Kubelet`][minikubelet.kubelet.Kubelet] inherits.
"""

from __future__ import annotations

import contextlib
import ipaddress
import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from minikubelet.cm.types import CgroupName, PodContainerManager
from minikubelet.container import runtime as kubecontainer
from minikubelet.container.helpers import (
    convert_pod_status_to_running_pod,
    should_container_be_restarted,
)
from minikubelet.container.runtime import PodPair, get_pod_full_name
from minikubelet.eviction.helpers import pod_is_evicted
from minikubelet.go import Chan, go, make_chan
from minikubelet.go import fmt as go_fmt
from minikubelet.k8s_io.api.core.v1 import (
    ConditionStatus,
    Container,
    ContainerState,
    ContainerStateRunning,
    ContainerStateTerminated,
    ContainerStateWaiting,
    ContainerStatus,
    Pod,
    PodCondition,
    PodConditionType,
    PodIP,
    PodPhase,
    PodSpec,
    PodStatus,
    RestartPolicy,
)
from minikubelet.k8s_io.api.core.v1.zz_generated_deepcopy import deep_copy
from minikubelet.k8s_io.apimachinery.pkg.types.uid import UID
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.qos.qos import get_pod_qos
from minikubelet.k8s_io.kubernetes.pkg.util.node.node import parse_ip
from minikubelet.status import generate
from minikubelet.types import PodConditionsByKubelet

if TYPE_CHECKING:
    from minikubelet.kubelet import Kubelet

podKillingChannelCapacity = 50
# The waiting reasons `kubectl get pod` shows before a container first runs.
PodInitializing = "PodInitializing"
ContainerCreating = "ContainerCreating"


@dataclass
class TerminatedFilterMemo:
    """Ours: filter_out_terminated_pods' last answer, and what it was computed from."""

    #: The status manager's generation it saw.
    generation: int
    pods: list[Pod] = field(default_factory=list)
    filtered: list[Pod] = field(default_factory=list)
    #: id(pod) → whether it was terminated; the pods stay alive in ``pods``, so ids are stable.
    terminated: dict[int, bool] = field(default_factory=dict)
    by_uid: dict[str, list[Pod]] = field(default_factory=dict)


class KubeletPods:
    """The methods of Go's Kubelet defined in kubelet_pods.go."""

    def list_pods_from_disk(self: Kubelet) -> list[str]:
        """The UIDs of the pods that have a directory on disk, in the disk's order.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).listPodsFromDisk
        """
        fs = self.fs
        # Go: podInfos, err := ioutil.ReadDir(kl.getPodsDir())
        pods_dir = self.get_pods_dir()
        if not fs.is_dir(pods_dir):
            raise OSError(f"open {pods_dir}: no such file or directory")
        pod_infos = fs.list_dir(pods_dir)
        # Go: pods := []types.UID{}
        pods: list[str] = []
        for name in pod_infos:
            if fs.is_dir(posixpath.join(pods_dir, name)):
                pods.append(name)
        return pods

    def get_active_pods(self: Kubelet) -> list[Pod]:
        """Every pod kubelet has that is not terminated (rejected pods are Failed, so out).

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).GetActivePods
        """
        all_pods = self.pod_manager.get_pods()
        active_pods = self.filter_out_terminated_pods(all_pods)
        return active_pods

    # Kubelet's field, written here (filter_out_terminated_pods).
    terminated_filter_cache: TerminatedFilterMemo | None

    async def kill_pod(
        self: Kubelet,
        pod: Pod | None,
        running_pod: kubecontainer.Pod | None,
        status: kubecontainer.PodStatus | None,
        grace_period_override: int | None,
    ) -> None:
        """Stop every container of a pod through the runtime.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).killPod

        Either ``running_pod`` (a runtime pod) or ``status`` (its runtime status) must be given.
        """
        # Go: if runningPod != nil {
        if running_pod is not None:
            p = running_pod
        elif status is not None:
            p = convert_pod_status_to_running_pod(self.container_runtime.type(), status)
        else:
            raise ValueError("one of the two arguments must be non-nil: runningPod, status")

        # Go: if err := kl.containerRuntime.KillPod(pod, p, gracePeriodOverride); err != nil {
        err = await self.container_runtime.kill_pod(pod, p, grace_period_override)
        if err is not None:
            raise err
        # Go: if err := kl.containerManager.UpdateQOSCgroups(); err != nil {
        try:
            self.container_manager.update_qos_cgroups()
        except Exception as qos_err:
            klog.v(2).info_s("Failed to update QoS cgroups while killing pod", err=qos_err)

    def get_pod_cgroup_parent(self: Kubelet, pod: Pod) -> str:
        """The pod's cgroup as the driver spells it: the runtime's ``cgroup_parent`` for the
        sandbox and its containers.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).GetPodCgroupParent
        """
        pcm = self.container_manager.new_pod_container_manager()
        _, cgroup_parent = pcm.get_pod_container_name(pod)
        return cgroup_parent

    def make_pod_data_dirs(self: Kubelet, pod: Pod) -> None:
        """Make the pod's directory on disk, with its ``volumes`` and ``plugins``.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).makePodDataDirs

        Raises where Go returns the error of ``os.MkdirAll``; a directory already there is none.
        """
        uid = pod.metadata.uid
        # Go: if err := os.MkdirAll(kl.getPodDir(uid), 0750); err != nil && !os.IsExist(err) {
        self.fs.mkdir_all(self.get_pod_dir(uid))
        # Go: if err := os.MkdirAll(kl.getPodVolumesDir(uid), 0750); err != nil && !os.IsExist(err) {
        self.fs.mkdir_all(self.get_pod_volumes_dir(uid))
        # Go: if err := os.MkdirAll(kl.getPodPluginsDir(uid), 0750); err != nil && !os.IsExist(err) {
        self.fs.mkdir_all(self.get_pod_plugins_dir(uid))

    def pod_and_containers_are_terminal(self: Kubelet, pod: Pod) -> tuple[bool, bool]:
        """``(containers_terminal, pod_worker_terminal)``: nothing runs / nothing more to do.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).podAndContainersAreTerminal
        """
        status, ok = self.status_manager.get_pod_status(pod.metadata.uid)
        if not ok:
            # No cached status yet (kubelet may just have restarted): use the API's.
            status = pod.status
        # Two ways to the end: a final phase (no restarts left), or deletion once nothing runs.
        containers_terminal = not_running(status.container_statuses)
        pod_worker_terminal = status.phase in (PodPhase.FAILED, PodPhase.SUCCEEDED) or (
            pod.metadata.deletion_timestamp is not None and containers_terminal
        )
        return containers_terminal, pod_worker_terminal

    def pod_is_terminated(self: Kubelet, pod: Pod) -> bool:
        """Go: pkg/kubelet/kubelet_pods.go (*Kubelet).podIsTerminated"""
        _, pod_worker_terminal = self.pod_and_containers_are_terminal(pod)
        return pod_worker_terminal

    def is_pod_terminated(self: Kubelet, uid: str) -> bool:
        """Whether the pod is gone, in a terminal phase, or being deleted with no container left
        running.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).IsPodTerminated
        """
        pod, pod_found = self.pod_manager.get_pod_by_uid(uid)
        if not pod_found:
            return True
        assert pod is not None
        return self.pod_is_terminated(pod)

    def is_pod_deleted(self: Kubelet, uid: str) -> bool:
        """Whether the pod is gone, or being deleted with no container left running.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).IsPodDeleted

        An evicted pod counts as deleted too.
        """
        pod, pod_found = self.pod_manager.get_pod_by_uid(uid)
        if not pod_found:
            return True
        assert pod is not None
        status, status_found = self.status_manager.get_pod_status(pod.metadata.uid)
        if not status_found:
            status = pod.status
        return pod_is_evicted(status) or (
            pod.metadata.deletion_timestamp is not None and not_running(status.container_statuses)
        )

    def pod_resources_are_reclaimed_now(self: Kubelet, pod: Pod) -> bool:
        """Whether nothing of the pod is left on the node, by its latest status.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).podResourcesAreReclaimed

        Go's two methods differ only in the case of their first letter; the port names this one
        ``…_now``: it looks the status up, then asks [`pod_resources_are_reclaimed`][].
        """
        status, ok = self.status_manager.get_pod_status(pod.metadata.uid)
        if not ok:
            status = pod.status
        return self.pod_resources_are_reclaimed(pod, status)

    def pod_resources_are_reclaimed(self: Kubelet, pod: Pod, status: PodStatus) -> bool:
        """Whether nothing of a terminated pod is left on the node: no container running, none
        still recorded by the runtime, no volume mounted, no pod cgroup. Only then may the
        status manager delete the pod from the API server.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).PodResourcesAreReclaimed
        """
        if not not_running(status.container_statuses):
            klog.v(3).info_s(
                "Pod is terminated, but some containers are still running", pod=klog.kobj(pod)
            )
            return False
        try:
            runtime_status = self.pod_cache.get(pod.metadata.uid)
        except Exception as err:
            klog.v(3).info_s(
                "Pod is terminated, Error getting runtimeStatus from the podCache",
                pod=klog.kobj(pod),
                err=err,
            )
            return False
        if len(runtime_status.container_statuses) > 0:
            # Exited containers still count: the deletor removes them first.
            klog.v(3).info_s(
                "Pod is terminated, but some containers have not been cleaned up",
                pod=klog.kobj(pod),
                status="".join(
                    go_fmt.sprintf("%+v ", s) for s in runtime_status.container_statuses
                ),
            )
            return False
        if self.pod_volumes_exist(pod.metadata.uid) and not self.keep_terminated_pod_volumes:
            klog.v(3).info_s(
                "Pod is terminated, but some volumes have not been cleaned up", pod=klog.kobj(pod)
            )
            return False
        # Go: if kl.kubeletConfiguration.CgroupsPerQOS {
        if self.kubelet_configuration.cgroups_per_qos:
            pcm = self.container_manager.new_pod_container_manager()
            if pcm.exists(pod):
                klog.v(3).info_s(
                    "Pod is terminated, but pod cgroup sandbox has not been cleaned up",
                    pod=klog.kobj(pod),
                )
                return False
        return True

    def filter_out_terminated_pods(self: Kubelet, pods: list[Pod]) -> list[Pod]:
        """The pods that are not terminated.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).filterOutTerminatedPods

        ``HandlePodAdditions`` calls this for every new pod with all the pods so far, and
        ``UpdateQOSCgroups`` (through ``GetActivePods``) before every pod's cgroup is made: n²
        status lookups for n pods, which in Python makes 10,000 pods take minutes. So the port
        remembers its last answer ([`TerminatedFilterMemo`][]): when ``pods`` begins with the
        last list it was given (the same pod objects), only the new pods, and the old ones
        whose status changed since (the status manager's ``changed_uids``), are looked at.
        The result is the same list Go computes.
        """
        sm = self.status_manager
        last = self.terminated_filter_cache
        if last is None or pods[: len(last.pods)] != last.pods:
            last = self.terminated_filter_cache = TerminatedFilterMemo(sm.generation)
            new = pods
        else:
            new = pods[len(last.pods) :]
        flipped = False
        for uid in set(sm.changed_uids[last.generation : sm.generation]):
            for p in last.by_uid.get(uid, ()):
                terminated = self.pod_is_terminated(p)
                if terminated != last.terminated[id(p)]:
                    last.terminated[id(p)] = terminated
                    flipped = True
        for p in new:
            last.terminated[id(p)] = self.pod_is_terminated(p)
            last.by_uid.setdefault(p.metadata.uid, []).append(p)
        if flipped:
            last.filtered = [p for p in pods if not last.terminated[id(p)]]
        else:
            last.filtered.extend(p for p in new if not last.terminated[id(p)])
        last.pods = list(pods)
        last.generation = sm.generation
        return list(last.filtered)

    def remove_orphaned_pod_statuses(
        self: Kubelet, pods: list[Pod], mirror_pods: list[Pod]
    ) -> None:
        """Forget the cached statuses of pods that are gone.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).removeOrphanedPodStatuses
        """
        pod_uids = {pod.metadata.uid: True for pod in pods}
        for pod in mirror_pods:
            pod_uids[pod.metadata.uid] = True
        self.status_manager.remove_orphaned_statuses(pod_uids)

    def delete_orphaned_mirror_pods(self: Kubelet) -> None:
        """Delete mirror pods whose static pod is gone.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).deleteOrphanedMirrorPods
        """
        pod_full_names = self.pod_manager.get_orphaned_mirror_pod_names()
        for pod_fullname in pod_full_names:
            if not self.pod_killer.is_pod_pending_termination_by_pod_name(pod_fullname):
                try:
                    self.pod_manager.delete_mirror_pod(pod_fullname, None)
                except Exception as err:
                    klog.error_s(
                        err, "Encountered error when deleting mirror pod", podName=pod_fullname
                    )
                else:
                    klog.v(3).info_s("Deleted pod", podName=pod_fullname)

    async def handle_pod_cleanups(self: Kubelet) -> None:
        """Housekeeping: stop workers, probes and containers of pods that should not exist.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).HandlePodCleanups
        """
        # The pod cgroups are listed before the pods, so that a pod added meanwhile is not
        # taken for an orphan.
        cgroup_pods: dict[str, CgroupName] = {}
        # Go: if kl.cgroupsPerQOS {
        if self.cgroups_per_qos:
            pcm = self.container_manager.new_pod_container_manager()
            try:
                cgroup_pods = pcm.get_all_pods_from_cgroups()
            except Exception as err:
                raise RuntimeError(
                    f"failed to get list of pods that still exist on cgroup mounts: {err}"
                ) from err

        # Go: allPods, mirrorPods := kl.podManager.GetPodsAndMirrorPods()
        all_pods, mirror_pods = self.pod_manager.get_pods_and_mirror_pods()
        # A pod in a final phase never runs again, so its workers and probes can go too.
        # Go: activePods := kl.filterOutTerminatedPods(allPods)
        active_pods = self.filter_out_terminated_pods(all_pods)

        # Go: desiredPods := make(map[types.UID]sets.Empty)
        desired_pods = {pod.metadata.uid for pod in active_pods}
        # Go: kl.podWorkers.ForgetNonExistingPodWorkers(desiredPods)
        self.pod_workers.forget_non_existing_pod_workers(desired_pods)
        # Go: kl.probeManager.CleanupPods(desiredPods)
        self.probe_manager.cleanup_pods(desired_pods)

        # Go: runningPods, err := kl.runtimeCache.GetPods()
        try:
            running_pods = await self.runtime_cache.get_pods()
        except Exception as err:
            klog.error_s(err, "Error listing containers")
            raise
        # Go: for _, pod := range runningPods {
        for pod in running_pods:
            if pod.id not in desired_pods:
                await self.pod_killer.kill_pod(PodPair(api_pod=None, running_pod=pod))

        # Go: kl.removeOrphanedPodStatuses(allPods, mirrorPods)
        self.remove_orphaned_pod_statuses(all_pods, mirror_pods)
        # Past the cache, as in Go: the kills above may not show there yet.
        # Go: runningPods, err = kl.containerRuntime.GetPods(false)
        try:
            running_pods = await self.container_runtime.get_pods(False)
        except Exception as err:
            klog.error_s(err, "Error listing containers")
            raise

        # Terminated pods are among all_pods: their volumes stay until they are deleted.
        # Go: err = kl.cleanupOrphanedPodDirs(allPods, runningPods)
        try:
            self.cleanup_orphaned_pod_dirs(all_pods, running_pods)
        except Exception as err:
            # The other cleanups run all the same.
            klog.error_s(err, "Failed cleaning up orphaned pod directories")
        # Go: kl.deleteOrphanedMirrorPods()
        self.delete_orphaned_mirror_pods()

        # Go: if kl.cgroupsPerQOS {
        if self.cgroups_per_qos:
            pcm = self.container_manager.new_pod_container_manager()
            self.cleanup_orphaned_pod_cgroups(pcm, cgroup_pods, active_pods)

        # Go: kl.backOff.GC()
        self.back_off.gc()

    def cleanup_orphaned_pod_cgroups(
        self: Kubelet,
        pcm: PodContainerManager,
        cgroup_pods: dict[str, CgroupName],
        active_pods: list[Pod],
    ) -> None:
        """Remove the cgroups of pods that should not run any more, once their kill is over
        and their volumes are gone (until then, only lower their CPU weight).

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).cleanupOrphanedPodCgroups
        """
        # Go: podSet := sets.NewString()
        pod_set = {pod.metadata.uid for pod in active_pods}

        # Go: for uid, val := range cgroupPods {
        for uid, val in cgroup_pods.items():
            # Go: if podSet.Has(string(uid)) {
            if uid in pod_set:
                continue

            # A pod still in its grace period keeps its cgroup.
            # Go: if kl.podKiller.IsPodPendingTerminationByUID(uid) {
            if self.pod_killer.is_pod_pending_termination_by_uid(uid):
                klog.v(3).info_s("Pod is pending termination", podUID=uid)
                continue
            # Memory-backed volumes are charged to the cgroup: it stays until they are gone,
            # with the least CPU weight meanwhile.
            # Go: if podVolumesExist := kl.podVolumesExist(uid); podVolumesExist && !kl.keepTerminatedPodVolumes {
            if self.pod_volumes_exist(uid) and not self.keep_terminated_pod_volumes:
                klog.v(3).info_s(
                    "Orphaned pod found, but volumes not yet removed.  Reducing cpu to minimum",
                    podUID=uid,
                )
                try:
                    pcm.reduce_cpu_limits(val)
                except Exception as err:
                    klog.info_s(
                        "Failed to reduce cpu time for pod pending volume cleanup",
                        podUID=uid,
                        err=err,
                    )
                continue
            # Go: klog.V(3).InfoS("Orphaned pod found, removing pod cgroups", "podUID", uid)
            klog.v(3).info_s("Orphaned pod found, removing pod cgroups", podUID=uid)
            # Errors are left to the next housekeeping, which tries again.
            # Go: go pcm.Destroy(val)
            go(_destroy_ignoring_error, pcm, val, name=f"destroy pod{uid}")

    def generate_api_pod_status(
        self: Kubelet, pod: Pod, pod_status: kubecontainer.PodStatus
    ) -> PodStatus:
        """The pod's API status, computed from what the runtime reports.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).generateAPIPodStatus
        """
        # Go: klog.V(3).InfoS("Generating pod status"
        klog.v(3).info_s("Generating pod status", pod=klog.kobj(pod))

        # Go: s := kl.convertStatusToAPIStatus(pod, podStatus)
        s = self.convert_status_to_api_status(pod, pod_status)

        # The active deadline handler is the one sync handler here (DeadlineExceeded).
        # Go: for _, podSyncHandler := range kl.PodSyncHandlers {
        for pod_sync_handler in self.pod_sync_handlers:
            # Go: if result := podSyncHandler.ShouldEvict(pod); result.Evict {
            result = pod_sync_handler.should_evict(pod)
            if result.evict:
                s.phase = PodPhase.FAILED
                s.reason = result.reason
                s.message = result.message
                # Go: return *s
                return s

        # Go: spec := &pod.Spec
        spec = pod.spec
        # Go: allStatus := append(
        all_status = [*s.container_statuses, *s.init_container_statuses]
        # Go: s.Phase = getPhase(spec, allStatus)
        s.phase = get_phase(spec, all_status)
        # A pod that has reached a final phase never leaves it.
        # Go: if pod.Status.Phase == v1.PodFailed || pod.Status.Phase == v1.PodSucceeded {
        if (
            pod.status.phase in (PodPhase.FAILED, PodPhase.SUCCEEDED)
            and s.phase != pod.status.phase
        ):
            klog.error_s(
                None,
                "Pod attempted illegal phase transition",
                originalStatusPhase=pod.status.phase,
                apiStatusPhase=s.phase,
                apiStatus=go_fmt.Ptr(s),
            )
            s.phase = pod.status.phase

        # Sets each container's started and ready from the probe results.
        # Go: kl.probeManager.UpdatePodStatus(pod.UID, s)
        self.probe_manager.update_pod_status(pod.metadata.uid, s)
        # Go: s.Conditions = append(s.Conditions, status.GeneratePodInitializedCondition(
        s.conditions.append(
            generate.generate_pod_initialized_condition(spec, s.init_container_statuses, s.phase)
        )
        # Go: s.Conditions = append(s.Conditions, status.GeneratePodReadyCondition(
        s.conditions.append(
            generate.generate_pod_ready_condition(spec, s.conditions, s.container_statuses, s.phase)
        )
        # Go: s.Conditions = append(s.Conditions, status.GenerateContainersReadyCondition(
        s.conditions.append(
            generate.generate_containers_ready_condition(spec, s.container_statuses, s.phase)
        )
        # No transition times here: the status manager sets them when it stores the status.
        # Go: s.Conditions = append(s.Conditions, v1.PodCondition{
        s.conditions.append(
            PodCondition(type=PodConditionType.POD_SCHEDULED, status=ConditionStatus.TRUE)
        )
        if self.kube_client is not None:
            try:
                host_ips = self.get_host_ips_any_way()
            except Exception as err:
                klog.v(4).info_s("Cannot get host IPs", err=err)
            else:
                s.host_ip = host_ips[0]
                # A pod on the host's network has the host's IPs (both, on a dual-stack node).
                if pod.spec.host_network and s.pod_ip == "":
                    s.pod_ip = host_ips[0]
                    s.pod_ips = [PodIP(ip=s.pod_ip)]
                    if len(host_ips) == 2:
                        s.pod_ips.append(PodIP(ip=host_ips[1]))
        # Go: return *s
        return s

    def convert_status_to_api_status(
        self: Kubelet, pod: Pod, pod_status: kubecontainer.PodStatus
    ) -> PodStatus:
        """The API status from the runtime's: IPs, QoS class, container statuses, conditions.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).convertStatusToAPIStatus
        """
        api_pod_status = PodStatus()

        # The runtime may report the pod's IPs in any order: the first one of the node's family
        # becomes the pod IP, then the first of the other family (dual-stack) follows.
        pod_ips: list[PodIP] = []
        if len(self.node_ips) == 0 or _is_ipv4_string(self.node_ips[0]):
            valid_primary_ip, valid_secondary_ip = _is_ipv4_string, _is_ipv6_string
        else:
            valid_primary_ip, valid_secondary_ip = _is_ipv6_string, _is_ipv4_string
        for ip in pod_status.ips:
            if valid_primary_ip(ip):
                pod_ips.append(PodIP(ip=ip))
                break
        for ip in pod_status.ips:
            if valid_secondary_ip(ip):
                pod_ips.append(PodIP(ip=ip))
                break
        api_pod_status.pod_ips = pod_ips
        if len(pod_ips) > 0:
            api_pod_status.pod_ip = pod_ips[0].ip

        # Pods created before v1.6 have no QoS class yet; every status carries it since.
        api_pod_status.qos_class = get_pod_qos(pod)

        old_pod_status, found = self.status_manager.get_pod_status(pod.metadata.uid)
        if not found:
            old_pod_status = pod.status

        api_pod_status.container_statuses = self.convert_to_api_container_statuses(
            pod,
            pod_status,
            old_pod_status.container_statuses,
            pod.spec.containers,
            len(pod.spec.init_containers) > 0,
            False,
        )
        api_pod_status.init_container_statuses = self.convert_to_api_container_statuses(
            pod,
            pod_status,
            old_pod_status.init_container_statuses,
            pod.spec.init_containers,
            len(pod.spec.init_containers) > 0,
            True,
        )
        # Conditions set by others (a controller's readiness gate) pass through unchanged.
        for c in pod.status.conditions:
            if c.type not in PodConditionsByKubelet:
                api_pod_status.conditions.append(c)
        return api_pod_status

    def convert_to_api_container_statuses(
        self: Kubelet,
        pod: Pod,
        pod_status: kubecontainer.PodStatus,
        previous_status: list[ContainerStatus],
        containers: list[Container],
        has_init_containers: bool,
        is_init_container: bool,
    ) -> list[ContainerStatus]:
        """The API statuses of a list of containers, from the runtime's and the previous ones.

        Go: pkg/kubelet/kubelet_pods.go (*Kubelet).convertToAPIContainerStatuses
        """

        def convert_container_status(
            cs: kubecontainer.Status, old_status: ContainerStatus | None
        ) -> ContainerStatus:
            cid = str(cs.id)
            status = ContainerStatus(
                name=cs.name,
                restart_count=cs.restart_count,
                image=cs.image,
                image_id=cs.image_id,
                container_id=cid,
            )
            # Go: case cs.State == kubecontainer.ContainerStateRunning:
            if cs.state == kubecontainer.ContainerStateRunning:
                status.state.running = ContainerStateRunning(started_at=cs.started_at)
            # Go: case cs.State == kubecontainer.ContainerStateCreated:
            # Go: case cs.State == kubecontainer.ContainerStateExited:
            elif cs.state in (
                kubecontainer.ContainerStateCreated,
                kubecontainer.ContainerStateExited,
            ):
                status.state.terminated = ContainerStateTerminated(
                    exit_code=cs.exit_code,
                    reason=cs.reason,
                    message=cs.message,
                    started_at=cs.started_at,
                    finished_at=cs.finished_at,
                    container_id=cid,
                )
            # Go: case cs.State == kubecontainer.ContainerStateUnknown && oldStatus != nil && oldStatus.State.Running != nil:
            elif (
                cs.state == kubecontainer.ContainerStateUnknown
                and old_status is not None
                and old_status.state.running is not None
            ):
                # The container was running and is now gone: most likely the node rebooted.
                status.state.terminated = ContainerStateTerminated(
                    reason="ContainerStatusUnknown",
                    message="The container could not be located when the pod was terminated",
                    exit_code=137,  # 128 + SIGKILL: reads as a failure
                )
                # The restart count normally comes from the runtime; here the container is gone,
                # so count this termination as a restart.
                status.restart_count = old_status.restart_count + 1
            # Go: default:
            else:
                # The container is being created: no more information than that yet.
                status.state.waiting = ContainerStateWaiting()
            return status

        old_statuses = {status.name: status for status in previous_status}

        # Every container starts as waiting; the runtime's statuses below overwrite what they can.
        statuses: dict[str, ContainerStatus] = {}
        default_reason = PodInitializing if has_init_containers else ContainerCreating
        for container in containers:
            status = ContainerStatus(
                name=container.name,
                image=container.image,
                state=ContainerState(waiting=ContainerStateWaiting(reason=default_reason)),
            )
            old_status = old_statuses.get(container.name)
            if old_status is not None:
                if old_status.state.terminated is not None:
                    status = deep_copy(old_status)
                else:
                    status.restart_count = old_status.restart_count
                    status.last_state = deep_copy(old_status.last_state)
            statuses[container.name] = status

        for container in containers:
            found = any(container.name == cs.name for cs in pod_status.container_statuses)
            if found:
                continue

            # A container that was running, is gone from the runtime, while the pod is being
            # deleted: record that it terminated with an unknown status.
            old_status = old_statuses.get(container.name)
            if old_status is None:
                continue
            if old_status.state.terminated is not None:
                continue
            if old_status.state.running is None:
                continue
            if pod.metadata.deletion_timestamp is None:
                continue

            status = statuses[container.name]
            waiting = status.state.waiting
            is_default_waiting_status = waiting is not None and waiting.reason == default_reason
            if not is_default_waiting_status:
                # Leave a status already set by the runtime alone.
                continue
            if status.last_state.terminated is not None:
                # If the last termination state is set, it was set by the runtime.
                continue

            # A last state makes getPhase count the container as stopped, not waiting.
            status.last_state.terminated = ContainerStateTerminated(
                reason="ContainerStatusUnknown",
                message="The container could not be located when the pod was deleted.  "
                "The container used to be Running",
                exit_code=137,
            )
            statuses[container.name] = status

        # Newest first: the current container, then the previous one (its last state).
        runtime_statuses = sorted(
            pod_status.container_statuses, key=lambda cs: cs.created_at, reverse=True
        )
        container_seen: dict[str, int] = {}
        for c_status in runtime_statuses:
            c_name = c_status.name
            if c_name not in statuses:
                continue
            if container_seen.get(c_name, 0) >= 2:
                continue
            status = convert_container_status(c_status, old_statuses.get(c_name))
            if container_seen.get(c_name, 0) == 0:
                statuses[c_name] = status
            else:
                statuses[c_name].last_state = status.state
            container_seen[c_name] = container_seen.get(c_name, 0) + 1

        # A container whose last start failed shows why it waits (the reason cache): ErrImagePull,
        # CrashLoopBackOff …
        for container in containers:
            if is_init_container:
                s = pod_status.find_container_status_by_name(container.name)
                if (
                    s is not None
                    and s.state == kubecontainer.ContainerStateExited
                    and s.exit_code == 0
                ):
                    continue
            # If the container should not be restarted, its status is final.
            if not should_container_be_restarted(container, pod, pod_status):
                continue
            status = statuses[container.name]
            reason, ok = self.reason_cache.get(pod.metadata.uid, container.name)
            if not ok or reason is None:
                # No failure recorded for it: keep its status.
                continue
            if status.state.terminated is not None:
                status.last_state = status.state
            status.state = ContainerState(
                waiting=ContainerStateWaiting(reason=str(reason.err), message=reason.message)
            )
            statuses[container.name] = status

        if is_init_container:
            # In the order of the spec, as kubetypes.SortStatusesOfInitContainers does.
            return [statuses[c.name] for c in pod.spec.init_containers if c.name in statuses]
        # By name, as sort.Sort(kubetypes.SortedContainerStatuses(...)) does.
        return sorted(statuses.values(), key=lambda s: s.name)


def _is_ipv4_string(ip: str) -> bool:
    """Go's utilnet.IsIPv4String (k8s.io/utils/net): an IPv4 address, or an IPv6 one that maps
    an IPv4 address (Go's ``To4`` accepts those)."""
    parsed = parse_ip(ip)
    if parsed is None:
        return False
    if isinstance(parsed, ipaddress.IPv6Address):
        return parsed.ipv4_mapped is not None
    return True


def _is_ipv6_string(ip: str) -> bool:
    """Go's utilnet.IsIPv6String: a valid address that is not IPv4 (mapped or not)."""
    return parse_ip(ip) is not None and not _is_ipv4_string(ip)


async def _destroy_ignoring_error(pcm: PodContainerManager, val: CgroupName) -> None:
    """``go pcm.Destroy(val)``: Go drops the error a goroutine's function returns."""
    with contextlib.suppress(Exception):
        pcm.destroy(val)


def not_running(statuses: list[ContainerStatus]) -> bool:
    """True when no container is running (each is waiting or terminated).

    Go: pkg/kubelet/kubelet_pods.go notRunning
    """
    for status in statuses:
        if status.state.terminated is None and status.state.waiting is None:
            return False
    return True


def get_phase(spec: PodSpec, info: list[ContainerStatus]) -> PodPhase:
    """The pod's phase, from its spec and its containers' statuses.

    Go: pkg/kubelet/kubelet_pods.go getPhase
    """
    by_name = {s.name: s for s in info}
    # Go: pendingInitialization := 0
    pending_initialization = 0
    failed_initialization = 0
    # Go: for _, container := range spec.InitContainers {
    for container in spec.init_containers:
        container_status = by_name.get(container.name)
        if container_status is None:
            pending_initialization += 1
            continue

        state, last = container_status.state, container_status.last_state
        # Go: case containerStatus.State.Running != nil:
        if state.running is not None:
            pending_initialization += 1
        # Go: case containerStatus.State.Terminated != nil:
        elif state.terminated is not None:
            if state.terminated.exit_code != 0:
                failed_initialization += 1
        # Go: case containerStatus.State.Waiting != nil:
        elif state.waiting is not None:
            if last.terminated is not None:
                if last.terminated.exit_code != 0:
                    failed_initialization += 1
            else:
                pending_initialization += 1
        # Go: default:
        else:
            pending_initialization += 1

    # Go: unknown := 0
    unknown = running = waiting = stopped = succeeded = 0
    # Go: for _, container := range spec.Containers {
    for container in spec.containers:
        container_status = by_name.get(container.name)
        if container_status is None:
            unknown += 1
            continue

        state, last = container_status.state, container_status.last_state
        # Go: case containerStatus.State.Running != nil:
        if state.running is not None:
            running += 1
        # Go: case containerStatus.State.Terminated != nil:
        elif state.terminated is not None:
            stopped += 1
            if state.terminated.exit_code == 0:
                succeeded += 1
        # Go: case containerStatus.State.Waiting != nil:
        elif state.waiting is not None:
            if last.terminated is not None:
                stopped += 1
            else:
                waiting += 1
        # Go: default:
        else:
            unknown += 1

    # Go: if failedInitialization > 0 && spec.RestartPolicy == v1.RestartPolicyNever {
    if failed_initialization > 0 and spec.restart_policy == RestartPolicy.NEVER:
        return PodPhase.FAILED

    # Go: case pendingInitialization > 0:
    # Go: case waiting > 0:
    if pending_initialization > 0 or waiting > 0:
        klog.v(5).info_s("Pod waiting > 0, pending")
        return PodPhase.PENDING
    # Go: case running > 0 && unknown == 0:
    if running > 0 and unknown == 0:
        return PodPhase.RUNNING
    # Go: case running == 0 && stopped > 0 && unknown == 0:
    if running == 0 and stopped > 0 and unknown == 0:
        # Every container has stopped; the restart policy decides what that means.
        if spec.restart_policy == RestartPolicy.ALWAYS:
            return PodPhase.RUNNING  # they will all be restarted
        if stopped == succeeded:
            return PodPhase.SUCCEEDED
        if spec.restart_policy == RestartPolicy.NEVER:
            return PodPhase.FAILED
        return PodPhase.RUNNING  # OnFailure: the failed ones will be restarted
    # Go: default:
    klog.v(5).info_s("Pod default case, pending")
    return PodPhase.PENDING


class PodKillerWithChannel:
    """Kills unwanted pods in goroutines of their own, one kill per pod at a time.

    Go: pkg/kubelet/kubelet_pods.go type podKillerWithChannel
    """

    def __init__(self, kl: Kubelet) -> None:
        """Go: pkg/kubelet/kubelet_pods.go NewPodKiller"""
        self.pod_killing_ch: Chan[PodPair] = make_chan(
            podKillingChannelCapacity, name="podKillingCh"
        )
        #: API pod UID → its full name, while its kill is pending.
        self.mirror_pod_termination_map: dict[str, str] = {}
        #: running pod UID → its full name, while its kill is pending.
        self.pod_termination_map: dict[str, str] = {}
        self.kill_pod_fn = kl.kill_pod

    def is_pod_pending_termination_by_uid(self, uid: str) -> bool:
        """Whether the pod of that UID is being killed.

        Go: pkg/kubelet/kubelet_pods.go (*podKillerWithChannel).IsPodPendingTerminationByUID
        """
        # Go omitted: pk.podKillingLock.RLock() -- goroutines here switch only at an await: no lock
        return uid in self.pod_termination_map or uid in self.mirror_pod_termination_map

    def is_pod_pending_termination_by_pod_name(self, pod_fullname: str) -> bool:
        """Whether a pod of that full name is being killed.

        Go: pkg/kubelet/kubelet_pods.go (*podKillerWithChannel).IsPodPendingTerminationByPodName
        """
        # Go omitted: pk.podKillingLock.RLock() -- goroutines here switch only at an await: no lock
        # Go: for _, name := range pk.mirrorPodTerminationMap {
        return pod_fullname in self.mirror_pod_termination_map.values() or (
            pod_fullname in self.pod_termination_map.values()
        )

    def mark_pod_terminated(self, uid: str) -> None:
        """Go: pkg/kubelet/kubelet_pods.go (*podKillerWithChannel).markPodTerminated"""
        klog.v(4).info_s("Marking pod termination", podUID=UID(uid))
        self.mirror_pod_termination_map.pop(uid, None)
        self.pod_termination_map.pop(uid, None)

    async def kill_pod(self, pod_pair: PodPair) -> None:
        """Queue a pod for killing, unless its kill is already pending.

        Go: pkg/kubelet/kubelet_pods.go (*podKillerWithChannel).KillPod
        """
        api_pod, running_pod = pod_pair.api_pod, pod_pair.running_pod
        api_pod_exists = running_pod_exists = False
        if api_pod is not None:
            uid = api_pod.metadata.uid
            api_pod_exists = uid in self.mirror_pod_termination_map
            if not api_pod_exists:
                fullname = get_pod_full_name(api_pod)
                klog.v(4).info_s(
                    "Marking api pod pending termination", podName=fullname, podUID=UID(uid)
                )
                self.mirror_pod_termination_map[uid] = fullname
        if running_pod is not None:  # always, as in Go (see PodPair)
            uid = running_pod.id
            running_pod_exists = uid in self.pod_termination_map
            if not running_pod_exists:
                fullname = running_pod.name
                klog.v(4).info_s(
                    "Marking running pod pending termination", podName=fullname, podUID=UID(uid)
                )
                self.pod_termination_map[uid] = fullname
        if api_pod_exists or running_pod_exists:
            api_uid = api_pod.metadata.uid if api_pod is not None else ""
            if api_pod_exists and running_pod_exists:
                klog.v(4).info_s(
                    "Api pod and running pod are pending termination",
                    apiPodUID=api_uid,
                    runningPodUID=running_pod.id,
                )
            elif api_pod_exists:
                klog.v(4).info_s("Api pod is pending termination", podUID=UID(api_uid))
            else:
                klog.v(4).info_s("Running pod is pending termination", podUID=UID(running_pod.id))
            return
        await self.pod_killing_ch.send(pod_pair)

    def close(self) -> None:
        """Go: pkg/kubelet/kubelet_pods.go (*podKillerWithChannel).Close"""
        self.pod_killing_ch.close()

    async def perform_pod_killing_work(self) -> None:
        """Kill each queued pod in a goroutine of its own.

        Go: pkg/kubelet/kubelet_pods.go (*podKillerWithChannel).PerformPodKillingWork
        """
        async for pod_pair in self.pod_killing_ch:
            running_pod = pod_pair.running_pod
            api_pod = pod_pair.api_pod

            async def kill(api_pod: Pod | None, running_pod: kubecontainer.Pod) -> None:
                klog.v(2).info_s("Killing unwanted pod", podName=running_pod.name)
                try:
                    await self.kill_pod_fn(api_pod, running_pod, None, None)
                except Exception as err:
                    klog.error_s(err, "Failed killing the pod", podName=running_pod.name)
                self.mark_pod_terminated(running_pod.id)

            go(kill, api_pod, running_pod, name=f"killPod {running_pod.name}")
