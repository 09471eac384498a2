"""Each pod's cgroup: its name under its QoS class, making it, finding and removing it.

Go: pkg/kubelet/cm/pod_container_manager_linux.go

A pod's cgroup is ``pod<uid>`` under its QoS class's cgroup: ``kubepods/pod<uid>`` for a
Guaranteed pod, ``kubepods/burstable/pod<uid>``, ``kubepods/besteffort/pod<uid>``. The runtime
puts the pod's sandbox and containers under it (it is their ``cgroup_parent``).
"""

from __future__ import annotations

from minikubelet.cm.cgroup_manager_linux import new_cgroup_name
from minikubelet.cm.helpers_linux import (
    get_pod_cgroup_name_suffix,
    podCgroupNamePrefix,
    resource_config_for_pod,
)
from minikubelet.cm.types import (
    CgroupConfig,
    CgroupFS,
    CgroupManager,
    CgroupName,
    QOSContainersInfo,
    ResourceConfig,
)
from minikubelet.k8s_io.api.core.v1 import Pod, PodQOSClass
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.qos.qos import get_pod_qos

__all__ = ["PodContainerManagerImpl", "PodContainerManagerNoop"]


class PodContainerManagerImpl:
    """Pod cgroups under the QoS cgroups, with the pod's limits.

    Go: pkg/kubelet/cm/pod_container_manager_linux.go type podContainerManagerImpl

    ``subsystems`` is where Go keeps the mounted controllers, which ``GetAllPodsFromCgroups``
    reads; here it is the node's simulated cgroup tree, one set of paths for all of them.
    """

    def __init__(
        self,
        qos_containers_info: QOSContainersInfo,
        subsystems: CgroupFS,
        cgroup_manager: CgroupManager,
        pod_pids_limit: int,
        enforce_cpu_limits: bool,
        cpu_cfs_quota_period: int,
    ) -> None:
        self.qos_containers_info = qos_containers_info
        self.subsystems = subsystems
        self.cgroup_manager = cgroup_manager
        #: --pod-max-pids (-1: no limit).
        self.pod_pids_limit = pod_pids_limit
        #: --cpu-cfs-quota.
        self.enforce_cpu_limits = enforce_cpu_limits
        #: --cpu-cfs-quota-period, in microseconds.
        self.cpu_cfs_quota_period = cpu_cfs_quota_period

    def apply_limits(self, pod: Pod) -> None:
        """Does nothing, as in v1.21: the pod's limits are set when its cgroup is made.

        Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerImpl).applyLimits
        """

    def exists(self, pod: Pod) -> bool:
        """Whether the pod's cgroup is there.

        Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerImpl).Exists
        """
        pod_container_name, _ = self.get_pod_container_name(pod)
        return self.cgroup_manager.exists(pod_container_name)

    def ensure_exists(self, pod: Pod) -> None:
        """Make the pod's cgroup, with its limits, unless it is there; raises ``RuntimeError``
        with Go's message when that fails.

        Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerImpl).EnsureExists

        A cgroup that exists is left as it is: a pod's limits are written once.
        """
        # Go: podContainerName, _ := m.GetPodContainerName(pod)
        pod_container_name, _ = self.get_pod_container_name(pod)
        # Go: alreadyExists := m.Exists(pod)
        already_exists = self.exists(pod)
        # Go: if !alreadyExists {
        if not already_exists:
            # Go: containerConfig := &CgroupConfig{
            container_config = CgroupConfig(
                name=pod_container_name,
                resource_parameters=resource_config_for_pod(
                    pod, self.enforce_cpu_limits, self.cpu_cfs_quota_period
                ),
            )
            # Go: if m.podPidsLimit > 0 {
            if self.pod_pids_limit > 0:
                assert container_config.resource_parameters is not None
                container_config.resource_parameters.pids_limit = self.pod_pids_limit
            # Go: if err := m.cgroupManager.Create(containerConfig); err != nil {
            try:
                self.cgroup_manager.create(container_config)
            except Exception as err:
                raise RuntimeError(
                    f"failed to create container for {pod_container_name} : {err}"
                ) from err
        # Go: if err := m.applyLimits(pod); err != nil {
        self.apply_limits(pod)

    def get_pod_container_name(self, pod: Pod) -> tuple[CgroupName, str]:
        """The pod's cgroup name, and the driver's spelling of it.

        Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerImpl).GetPodContainerName
        """
        pod_qos = get_pod_qos(pod)
        parent_container = CgroupName(())
        match pod_qos:
            # Go: case v1.PodQOSGuaranteed:
            case PodQOSClass.GUARANTEED:
                parent_container = self.qos_containers_info.guaranteed
            # Go: case v1.PodQOSBurstable:
            case PodQOSClass.BURSTABLE:
                parent_container = self.qos_containers_info.burstable
            # Go: case v1.PodQOSBestEffort:
            case PodQOSClass.BEST_EFFORT:
                parent_container = self.qos_containers_info.best_effort
        pod_container = get_pod_cgroup_name_suffix(pod.metadata.uid)

        cgroup_name = new_cgroup_name(parent_container, pod_container)
        cgroupfs_name = self.cgroup_manager.name(cgroup_name)

        return cgroup_name, cgroupfs_name

    def try_killing_cgroup_processes(self, pod_cgroup: CgroupName) -> None:
        """Kill every process left in the pod's cgroup, trying up to five times; raises the
        errors of the last try.

        Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerImpl).tryKillingCgroupProcesses

        The simulated cgroups hold no processes (see ``CgroupManagerImpl.pids``), so the port
        returns at the first check, as Go does for an empty cgroup; the killing loop is left
        out.
        """
        pids_to_kill = self.cgroup_manager.pids(pod_cgroup)
        if len(pids_to_kill) == 0:
            return
        # Go omitted: for i := 0; i < 5; i++ { -- never reached here: no simulated cgroup holds a process

    def destroy(self, pod_cgroup: CgroupName) -> None:
        """Kill what is left in the pod's cgroup, then remove it; raises ``RuntimeError`` with
        Go's message when either fails.

        Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerImpl).Destroy
        """
        try:
            self.try_killing_cgroup_processes(pod_cgroup)
        except Exception as err:
            klog.info_s(
                "Failed to kill all the processes attached to cgroup",
                cgroupName=pod_cgroup,
                err=err,
            )
            raise RuntimeError(
                f"failed to kill all the processes attached to the {pod_cgroup} cgroups : {err}"
            ) from err

        container_config = CgroupConfig(name=pod_cgroup, resource_parameters=ResourceConfig())
        try:
            self.cgroup_manager.destroy(container_config)
        except Exception as err:
            klog.info_s("Failed to delete cgroup paths", cgroupName=pod_cgroup, err=err)
            raise RuntimeError(f"failed to delete cgroup paths for {pod_cgroup} : {err}") from err

    def reduce_cpu_limits(self, pod_cgroup: CgroupName) -> None:
        """Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerImpl).ReduceCPULimits"""
        self.cgroup_manager.reduce_cpu_limits(pod_cgroup)

    def is_pod_cgroup(self, cgroupfs: str) -> tuple[bool, str]:
        """Whether a cgroup path is a pod's (directly under a QoS cgroup), and the pod's UID.

        Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerImpl).IsPodCgroup
        """
        cgroup_name = self.cgroup_manager.cgroup_name(cgroupfs)
        qos_containers_list = (
            self.qos_containers_info.best_effort,
            self.qos_containers_info.burstable,
            self.qos_containers_info.guaranteed,
        )
        base_path = ""
        for qos_container_name in qos_containers_list:
            if len(cgroup_name) == len(qos_container_name) + 1:
                base_path = cgroup_name[len(qos_container_name)]
        if base_path == "":
            return False, ""
        if not base_path.startswith(podCgroupNamePrefix):
            return False, ""
        parts = base_path.split(podCgroupNamePrefix)
        if len(parts) != 2:
            return False, ""
        return True, parts[1]

    def get_all_pods_from_cgroups(self) -> dict[str, CgroupName]:
        """Pod UID → its cgroup, for every ``pod<uid>`` cgroup under a QoS cgroup.

        Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerImpl).GetAllPodsFromCgroups

        Go reads the QoS cgroups' directories under every mounted controller; the port lists
        them once in the simulated tree (``fs.children``), which is the one place cgroups are.
        """
        found_pods: dict[str, CgroupName] = {}
        qos_containers_list = (
            self.qos_containers_info.best_effort,
            self.qos_containers_info.burstable,
            self.qos_containers_info.guaranteed,
        )
        fs = self.subsystems
        # Go: for _, val := range m.subsystems.MountPoints {
        for qos_container_name in qos_containers_list:
            qc_conversion = self.cgroup_manager.name(qos_container_name)
            if not fs.exists(qc_conversion):
                continue
            for child in fs.children(qc_conversion):
                cgroupfs_path = qc_conversion.rstrip("/") + "/" + child
                internal_path = self.cgroup_manager.cgroup_name(cgroupfs_path)
                base_path = internal_path[len(internal_path) - 1]
                if podCgroupNamePrefix not in base_path:
                    continue
                parts = base_path.split(podCgroupNamePrefix)
                if len(parts) != 2:
                    klog.info_s(
                        "Pod cgroup manager ignored unexpected cgroup because it is not a pod",
                        path=cgroupfs_path,
                    )
                    continue
                pod_uid = parts[1]
                found_pods[pod_uid] = internal_path
        return found_pods


class PodContainerManagerNoop:
    """With ``--cgroups-per-qos=false``: no pod cgroups; every pod's cgroup "exists".

    Go: pkg/kubelet/cm/pod_container_manager_linux.go type podContainerManagerNoop
    """

    def __init__(self, cgroup_root: CgroupName) -> None:
        self.cgroup_root = cgroup_root

    def exists(self, pod: Pod) -> bool:
        """Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerNoop).Exists"""
        return True

    def ensure_exists(self, pod: Pod) -> None:
        """Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerNoop).EnsureExists"""

    def get_pod_container_name(self, pod: Pod) -> tuple[CgroupName, str]:
        """Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerNoop).GetPodContainerName"""
        return self.cgroup_root, ""

    def destroy(self, name: CgroupName) -> None:
        """Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerNoop).Destroy"""

    def reduce_cpu_limits(self, name: CgroupName) -> None:
        """Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerNoop).ReduceCPULimits"""

    def get_all_pods_from_cgroups(self) -> dict[str, CgroupName]:
        """Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerNoop).GetAllPodsFromCgroups"""
        return {}

    def is_pod_cgroup(self, cgroupfs: str) -> tuple[bool, str]:
        """Go: pkg/kubelet/cm/pod_container_manager_linux.go (*podContainerManagerNoop).IsPodCgroup"""
        return False, ""
