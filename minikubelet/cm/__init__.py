"""kubelet's container manager (Go's package ``pkg/kubelet/cm``), as far as pods go: the QoS
cgroup tree and each pod's cgroup.

The managers here decide *which* cgroups exist and *what* their limits are, as kubelet does;
the cgroup file system they write to is handed in
([`CgroupFS`][minikubelet.cm.types.CgroupFS]: the simulated node's tree), reached only through
[`CgroupManagerImpl`][minikubelet.cm.cgroup_manager_linux.CgroupManagerImpl].
"""
