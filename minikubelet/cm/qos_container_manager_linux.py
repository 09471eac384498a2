"""The QoS cgroups: ``kubepods/burstable`` and ``kubepods/besteffort``, and their CPU weights.

Go: pkg/kubelet/cm/qos_container_manager_linux.go

Guaranteed pods sit directly in ``kubepods``; the two other classes get a cgroup each, made
when the container manager starts. The BestEffort cgroup always has the least CPU weight (2
shares); the Burstable cgroup's weight follows the CPU its pods request, so
[`QOSContainerManagerImpl.update_cgroups`][] runs whenever a pod's cgroup is made or a pod is
killed, and once a minute.
"""

from __future__ import annotations

from collections.abc import Callable

from minikubelet.cm.cgroup_manager_linux import new_cgroup_name
from minikubelet.cm.helpers_linux import MinShares, milli_cpu_to_shares
from minikubelet.cm.types import (
    CgroupConfig,
    CgroupManager,
    CgroupName,
    QOSContainersInfo,
    ResourceConfig,
)
from minikubelet.github_com.opencontainers.runc.libcontainer.cgroups.fs.fs import HugePageSizes
from minikubelet.go import Minute, go
from minikubelet.k8s_io.api.core.v1 import (
    Pod,
    PodQOSBestEffort,
    PodQOSBurstable,
    PodQOSClass,
    ResourceCPU,
    ResourceList,
)
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import until
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.api.v1.resource.helpers import pod_requests_and_limits
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.qos.qos import get_pod_qos

__all__ = ["QOSContainerManagerImpl", "QOSContainerManagerNoop", "new_qos_container_manager"]

#: How often the QoS cgroups' settings are written again.
periodicQOSCgroupUpdateInterval = 1 * Minute

ActivePodsFunc = Callable[[], list[Pod]]


def _ram_in_bytes(size: str) -> int:
    """``"2MB"`` → 2097152: a page size as runc names it, in bytes (go-units' ``RAMInBytes``,
    which reads the units as powers of 1024)."""
    units = {"KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40, "PB": 1 << 50}
    return int(size[:-2]) * units[size[-2:]]


class QOSContainerManagerImpl:
    """Go: pkg/kubelet/cm/qos_container_manager_linux.go type qosContainerManagerImpl

    Go's mutex is left out: goroutines here switch only at an ``await``, and
    ``update_cgroups`` has none.
    """

    def __init__(
        self,
        cgroup_manager: CgroupManager,
        cgroup_root: CgroupName,
        qos_reserved: dict[str, int],
    ) -> None:
        self.qos_containers_info = QOSContainersInfo()
        self.cgroup_manager = cgroup_manager
        self.active_pods: ActivePodsFunc = list
        self.get_node_allocatable: Callable[[], ResourceList] = dict
        self.cgroup_root = cgroup_root
        self.qos_reserved = qos_reserved
        #: Ours: the last pod list summed, and its Burstable CPU requests (see
        #: set_cpu_cgroup_config).
        self.burstable_request_memo: tuple[list[Pod], int] = ([], 0)

    def get_qos_containers_info(self) -> QOSContainersInfo:
        """Go: pkg/kubelet/cm/qos_container_manager_linux.go (*qosContainerManagerImpl).GetQOSContainersInfo"""
        return self.qos_containers_info

    def start(
        self, get_node_allocatable: Callable[[], ResourceList], active_pods: ActivePodsFunc
    ) -> None:
        """Make (or update) the Burstable and BestEffort cgroups, then keep them up to date
        once a minute; raises ``RuntimeError`` with Go's message when the root is missing or a
        cgroup cannot be made.

        Go: pkg/kubelet/cm/qos_container_manager_linux.go (*qosContainerManagerImpl).Start
        """
        cm = self.cgroup_manager
        root_container = self.cgroup_root
        if not cm.exists(root_container):
            raise RuntimeError(f"root container {root_container} doesn't exist")

        # Guaranteed pods get no cgroup of their class: they sit in the root.
        qos_classes: dict[PodQOSClass, CgroupName] = {
            PodQOSBurstable: new_cgroup_name(root_container, PodQOSBurstable.lower()),
            PodQOSBestEffort: new_cgroup_name(root_container, PodQOSBestEffort.lower()),
        }

        # Go: for qosClass, containerName := range qosClasses {
        for qos_class, container_name in qos_classes.items():
            resource_parameters = ResourceConfig()
            if qos_class == PodQOSBestEffort:
                min_shares = MinShares
                resource_parameters.cpu_shares = min_shares

            container_config = CgroupConfig(
                name=container_name, resource_parameters=resource_parameters
            )

            self.set_huge_pages_unbounded(container_config)

            if not cm.exists(container_name):
                try:
                    cm.create(container_config)
                except Exception as err:
                    raise RuntimeError(
                        f"failed to create top level {qos_class} QOS cgroup : {err}"
                    ) from err
            else:
                try:
                    cm.update(container_config)
                except Exception as err:
                    raise RuntimeError(
                        f"failed to update top level {qos_class} QOS cgroup : {err}"
                    ) from err
        self.qos_containers_info = QOSContainersInfo(
            guaranteed=root_container,
            burstable=qos_classes[PodQOSBurstable],
            best_effort=qos_classes[PodQOSBestEffort],
        )
        self.get_node_allocatable = get_node_allocatable
        self.active_pods = active_pods

        async def update() -> None:
            try:
                self.update_cgroups()
            except Exception as err:
                klog.info_s("Failed to reserve QoS requests", err=err)

        # Go: go wait.Until(func() {
        go(until, update, periodicQOSCgroupUpdateInterval, None, name="qosCgroupUpdate")

    def set_huge_pages_unbounded(self, cgroup_config: CgroupConfig) -> None:
        """A limit of 2**62 bytes for every huge page size: the QoS cgroups do not cap them.

        Go: pkg/kubelet/cm/qos_container_manager_linux.go (*qosContainerManagerImpl).setHugePagesUnbounded
        """
        huge_page_limit: dict[int, int] = {}
        for page_size in HugePageSizes:
            page_size_bytes = _ram_in_bytes(page_size)
            huge_page_limit[page_size_bytes] = 1 << 62
        assert cgroup_config.resource_parameters is not None
        cgroup_config.resource_parameters.huge_page_limit = huge_page_limit

    def set_huge_pages_config(self, configs: dict[PodQOSClass, CgroupConfig]) -> None:
        """Go: pkg/kubelet/cm/qos_container_manager_linux.go (*qosContainerManagerImpl).setHugePagesConfig"""
        for v in configs.values():
            self.set_huge_pages_unbounded(v)

    def set_cpu_cgroup_config(self, configs: dict[PodQOSClass, CgroupConfig]) -> None:
        """BestEffort: 2 shares. Burstable: the shares of the CPU all Burstable pods request.

        Go: pkg/kubelet/cm/qos_container_manager_linux.go (*qosContainerManagerImpl).setCPUCgroupConfig
        """
        pods = self.active_pods()
        # Ours: kubelet calls this before making each pod's cgroup, so adding up every active
        # pod each time is n² work for n pods, which Python cannot afford at 10,000 pods. When
        # the list begins with the pods summed last time (the same objects, in order), only the
        # new ones are added; the sum is the one Go computes (tests/cm holds it to a fresh one).
        # The lists are compared in C: same objects compare by identity, and equal pods request
        # the same CPU.
        last_pods, last_sum = self.burstable_request_memo
        start, burstable_pod_cpu_request = 0, 0
        if pods[: len(last_pods)] == last_pods:
            start, burstable_pod_cpu_request = len(last_pods), last_sum
        # Go: for i := range pods {
        for pod in pods[start:]:
            qos_class = get_pod_qos(pod)
            if qos_class != PodQOSBurstable:
                continue
            req, _ = pod_requests_and_limits(pod)
            if (request := req.get(ResourceCPU)) is not None:
                burstable_pod_cpu_request += request.milli_value()
        self.burstable_request_memo = (list(pods), burstable_pod_cpu_request)

        best_effort_cpu_shares = MinShares
        best_effort = configs[PodQOSBestEffort].resource_parameters
        assert best_effort is not None
        best_effort.cpu_shares = best_effort_cpu_shares

        burstable_cpu_shares = milli_cpu_to_shares(burstable_pod_cpu_request)
        burstable = configs[PodQOSBurstable].resource_parameters
        assert burstable is not None
        burstable.cpu_shares = burstable_cpu_shares

    def update_cgroups(self) -> None:
        """Write the QoS cgroups' settings as the active pods make them; raises the first
        cgroup's error.

        Go: pkg/kubelet/cm/qos_container_manager_linux.go (*qosContainerManagerImpl).UpdateCgroups
        """
        qos_configs: dict[PodQOSClass, CgroupConfig] = {
            PodQOSBurstable: CgroupConfig(
                name=self.qos_containers_info.burstable, resource_parameters=ResourceConfig()
            ),
            PodQOSBestEffort: CgroupConfig(
                name=self.qos_containers_info.best_effort, resource_parameters=ResourceConfig()
            ),
        }

        self.set_cpu_cgroup_config(qos_configs)

        self.set_huge_pages_config(qos_configs)

        # Go omitted: if utilfeature.DefaultFeatureGate.Enabled(kubefeatures.QOSReserved) { -- an alpha gate, off in v1.21: the memory reservation (--qos-reserved) is not ported
        # Go omitted: case v1.ResourceMemory: -- inside the QOSReserved gate (setMemoryReserve)
        # Go omitted: for _, config := range qosConfigs { -- inside the QOSReserved gate (the first try)
        # Go omitted: case v1.ResourceMemory: -- inside the QOSReserved gate (retrySetMemoryReserve)

        # Go: for _, config := range qosConfigs {
        for config in qos_configs.values():
            try:
                self.cgroup_manager.update(config)
            except Exception as err:
                klog.error_s(err, "Failed to update QoS cgroup configuration")
                raise

        klog.v(4).info_s("Updated QoS cgroup configuration")


class QOSContainerManagerNoop:
    """With ``--cgroups-per-qos=false``: no QoS cgroups.

    Go: pkg/kubelet/cm/qos_container_manager_linux.go type qosContainerManagerNoop
    """

    def __init__(self, cgroup_root: CgroupName) -> None:
        self.cgroup_root = cgroup_root

    def get_qos_containers_info(self) -> QOSContainersInfo:
        """Go: pkg/kubelet/cm/qos_container_manager_linux.go (*qosContainerManagerNoop).GetQOSContainersInfo"""
        return QOSContainersInfo()

    def start(
        self, get_node_allocatable: Callable[[], ResourceList], active_pods: ActivePodsFunc
    ) -> None:
        """Go: pkg/kubelet/cm/qos_container_manager_linux.go (*qosContainerManagerNoop).Start"""

    def update_cgroups(self) -> None:
        """Go: pkg/kubelet/cm/qos_container_manager_linux.go (*qosContainerManagerNoop).UpdateCgroups"""


def new_qos_container_manager(
    cgroup_root: CgroupName,
    cgroups_per_qos: bool,
    qos_reserved: dict[str, int],
    cgroup_manager: CgroupManager,
) -> QOSContainerManagerImpl | QOSContainerManagerNoop:
    """Go: pkg/kubelet/cm/qos_container_manager_linux.go NewQOSContainerManager

    Go passes the whole ``NodeConfig``; the port passes the two fields it reads.
    """
    if not cgroups_per_qos:
        return QOSContainerManagerNoop(cgroup_root)

    return QOSContainerManagerImpl(cgroup_manager, cgroup_root, qos_reserved)
