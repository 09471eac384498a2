"""github.com/opencontainers/runc/libcontainer/cgroups: what kubelet reads of runc's cgroup code."""
