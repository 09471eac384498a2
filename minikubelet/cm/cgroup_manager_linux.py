"""Cgroup names for each driver, and the manager that creates, updates and removes cgroups.

Go: pkg/kubelet/cm/cgroup_manager_linux.go

kubelet names a cgroup by its parts (``[kubepods burstable pod<uid>]``); the cgroup driver
spells the name as a path: ``cgroupfs`` joins the parts (``/kubepods/burstable/pod<uid>``),
``systemd`` makes nested slices (``/kubepods.slice/kubepods-burstable.slice/…``). The driver
must be the container runtime's, or the runtime puts containers elsewhere.

Go hands the cgroup to runc's libcontainer, which writes the controllers' files under
``/sys/fs/cgroup``. The port writes them into the node's tree it is handed
([`CgroupFS`][minikubelet.cm.types.CgroupFS], the simulated node's): [`CgroupManagerImpl.create`][],
``update``, ``destroy``, ``exists`` and ``pids`` are ours where they touch it, and say so.
"""

from __future__ import annotations

from minikubelet.cm.helpers_linux import MinShares
from minikubelet.cm.types import (
    CgroupConfig,
    CgroupFS,
    CgroupName,
    ResourceConfig,
    systemdSuffix,
    unescape_systemd_cgroup_name,
)
from minikubelet.github_com.opencontainers.runc.libcontainer.cgroups.fs.fs import HugePageSizes
from minikubelet.go import Panic
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.helpers import (
    huge_page_unit_size_from_byte_size,
)

__all__ = [
    "CgroupManagerImpl",
    "RootCgroupName",
    "new_cgroup_manager",
    "new_cgroup_name",
    "parse_cgroupfs_to_cgroup_name",
    "parse_systemd_to_cgroup_name",
]

#: Go: libcontainerCgroupfs, libcontainerSystemd (type libcontainerCgroupManagerType).
libcontainerCgroupfs = "cgroupfs"
libcontainerSystemd = "systemd"

#: The root of the tree. Go: RootCgroupName
RootCgroupName = CgroupName(())


def new_cgroup_name(base: CgroupName, *components: str) -> CgroupName:
    """``base`` with ``components`` added below it; raises `Panic` (Go panics) for a part with
    ``/`` or ``_``: the systemd driver turns ``-`` into ``_``, so ``_`` must stay free for the
    way back.

    Go: pkg/kubelet/cm/cgroup_manager_linux.go NewCgroupName
    """
    for component in components:
        if "/" in component or "_" in component:
            raise Panic(f'invalid character in component ["{component}"] of CgroupName')
    return CgroupName((*base, *components))


def parse_systemd_to_cgroup_name(name: str) -> CgroupName:
    """The name back from a systemd path: its last slice, split at the dashes.

    Go: pkg/kubelet/cm/cgroup_manager_linux.go ParseSystemdToCgroupName
    """
    driver_name = name.rstrip("/").rsplit("/", 1)[-1] or "/"
    driver_name = driver_name.removesuffix(systemdSuffix)
    parts = driver_name.split("-")
    return CgroupName(unescape_systemd_cgroup_name(part) for part in parts)


def parse_cgroupfs_to_cgroup_name(name: str) -> CgroupName:
    """The name back from a cgroupfs path: its parts; ``"/"`` is the root.

    Go: pkg/kubelet/cm/cgroup_manager_linux.go ParseCgroupfsToCgroupName
    """
    components = name.removeprefix("/").split("/")
    if len(components) == 1 and components[0] == "":
        components = []
    return CgroupName(components)


class CgroupManagerImpl:
    """The cgroup manager of one driver, on the node's cgroup file system.

    Go: pkg/kubelet/cm/cgroup_manager_linux.go type cgroupManagerImpl

    Go keeps the mounted controllers (``subsystems``) and a libcontainer adapter; the port
    keeps the driver's name and the simulated tree, whose one set of paths stands for every
    controller's.
    """

    def __init__(self, fs: CgroupFS, cgroup_manager_type: str) -> None:
        self.fs = fs
        self.cgroup_manager_type = cgroup_manager_type

    def name(self, name: CgroupName) -> str:
        """The driver's spelling of ``name``, always as a path.

        Go: pkg/kubelet/cm/cgroup_manager_linux.go (*cgroupManagerImpl).Name
        """
        if self.cgroup_manager_type == libcontainerSystemd:
            return name.to_systemd()
        return name.to_cgroupfs()

    def cgroup_name(self, name: str) -> CgroupName:
        """Go: pkg/kubelet/cm/cgroup_manager_linux.go (*cgroupManagerImpl).CgroupName"""
        if self.cgroup_manager_type == libcontainerSystemd:
            return parse_systemd_to_cgroup_name(name)
        return parse_cgroupfs_to_cgroup_name(name)

    def exists(self, name: CgroupName) -> bool:
        """Whether the cgroup is there.

        Go: pkg/kubelet/cm/cgroup_manager_linux.go (*cgroupManagerImpl).Exists

        Ours: Go checks the cgroup's directory under every controller it cares about (cpu,
        cpuacct, cpuset, memory, systemd, pids, and hugetlb when mounted); the simulated
        tree has one path for all of them.
        """
        return self.fs.exists(self.name(name))

    def destroy(self, cgroup_config: CgroupConfig) -> None:
        """Remove the cgroup (and any cgroup left under it).

        Go: pkg/kubelet/cm/cgroup_manager_linux.go (*cgroupManagerImpl).Destroy

        Ours: Go asks libcontainer's manager to remove the cgroup's directory under every
        controller; here it leaves the simulated tree.
        """
        self.fs.remove(self.name(cgroup_config.name))

    def to_resources(self, resource_config: ResourceConfig | None) -> dict[str, int | str]:
        """The controller files a cgroup's settings become, as libcontainer writes them.

        Go: pkg/kubelet/cm/cgroup_manager_linux.go (*cgroupManagerImpl).toResources

        Go fills a libcontainer ``Resources`` (and allows every device); libcontainer then
        writes only its non-zero fields. The port goes straight to those files: ``cpu.shares``,
        ``cpu.cfs_quota_us``, ``cpu.cfs_period_us``, ``memory.limit_in_bytes``, ``pids.max``
        and one ``hugetlb.<size>.limit_in_bytes`` per page size of the machine (0 for a size
        the settings do not name).
        """
        files: dict[str, int | str] = {}
        if resource_config is None:
            return files
        if resource_config.memory is not None and resource_config.memory != 0:
            files["memory.limit_in_bytes"] = resource_config.memory
        # Go: if resourceConfig.CpuShares != nil {
        if resource_config.cpu_shares is not None and resource_config.cpu_shares != 0:
            # The simulated node has cgroup v1; on v2 Go writes cpu.weight instead.
            files["cpu.shares"] = resource_config.cpu_shares
        if resource_config.cpu_quota is not None and resource_config.cpu_quota != 0:
            files["cpu.cfs_quota_us"] = resource_config.cpu_quota
        if resource_config.cpu_period is not None and resource_config.cpu_period != 0:
            files["cpu.cfs_period_us"] = resource_config.cpu_period
        if resource_config.pids_limit is not None and resource_config.pids_limit != 0:
            files["pids.max"] = (
                resource_config.pids_limit if resource_config.pids_limit > 0 else "max"
            )
        page_sizes = set()
        # Go: for pageSize, limit := range resourceConfig.HugePageLimit {
        for page_size, limit in resource_config.huge_page_limit.items():
            try:
                size_string = huge_page_unit_size_from_byte_size(page_size)
            except ValueError as err:
                klog.info_s("Invalid pageSize", err=err)
                continue
            files[f"hugetlb.{size_string}.limit_in_bytes"] = limit
            page_sizes.add(size_string)
        # Go: for _, pageSize := range cgroupfs.HugePageSizes {
        for size in HugePageSizes:
            if size in page_sizes:
                continue
            files[f"hugetlb.{size}.limit_in_bytes"] = 0
        return files

    def update(self, cgroup_config: CgroupConfig) -> None:
        """Write the cgroup's settings; raises ``FileNotFoundError`` when it does not exist.

        Go: pkg/kubelet/cm/cgroup_manager_linux.go (*cgroupManagerImpl).Update

        Ours: Go has libcontainer's manager ``Set`` the resources; here the files go into the
        simulated tree. The node has the hugetlb controller, so huge page limits are kept.
        """
        resource_config = cgroup_config.resource_parameters
        resources = self.to_resources(resource_config)
        self.fs.write(self.name(cgroup_config.name), resources)

    def create(self, cgroup_config: CgroupConfig) -> None:
        """Make the cgroup (and its missing parents), then write its settings.

        Go: pkg/kubelet/cm/cgroup_manager_linux.go (*cgroupManagerImpl).Create

        Ours: Go's ``manager.Apply(-1)`` makes the directories under every controller; here
        they are made in the simulated tree.
        """
        self.fs.mkdir_all(self.name(cgroup_config.name))
        # Go: if err := m.Update(cgroupConfig); err != nil {
        try:
            self.update(cgroup_config)
        except OSError as err:
            # Go: utilruntime.HandleError(fmt.Errorf("cgroup update failed %v", err)) logs it.
            klog.error_s(None, f"cgroup update failed {err}")

    def pids(self, name: CgroupName) -> list[int]:
        """The processes in the cgroup and the cgroups under it.

        Go: pkg/kubelet/cm/cgroup_manager_linux.go (*cgroupManagerImpl).Pids

        Ours: Go reads every ``cgroup.procs`` file under the cgroup. The fake runtime's
        containers are no processes, so the simulated cgroups hold none.
        """
        return []

    def reduce_cpu_limits(self, cgroup_name: CgroupName) -> None:
        """Lower the cgroup's ``cpu.shares`` to the least there is.

        Go: pkg/kubelet/cm/cgroup_manager_linux.go (*cgroupManagerImpl).ReduceCPULimits
        """
        minimum_cpu_shares = MinShares
        resources = ResourceConfig(cpu_shares=minimum_cpu_shares)
        container_config = CgroupConfig(name=cgroup_name, resource_parameters=resources)
        self.update(container_config)


def new_cgroup_manager(fs: CgroupFS, cgroup_driver: str) -> CgroupManagerImpl:
    """The cgroup manager for ``cgroup_driver`` (``systemd``, or anything else: cgroupfs).

    Go: pkg/kubelet/cm/cgroup_manager_linux.go NewCgroupManager

    Go takes the mounted subsystems where the port takes the node's cgroup tree.
    """
    manager_type = libcontainerCgroupfs
    if cgroup_driver == libcontainerSystemd:
        manager_type = libcontainerSystemd
    return CgroupManagerImpl(fs, manager_type)
