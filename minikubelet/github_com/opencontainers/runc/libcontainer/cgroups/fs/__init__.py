"""github.com/opencontainers/runc/libcontainer/cgroups/fs."""
