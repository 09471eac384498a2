"""github.com/opencontainers/runc/libcontainer/cgroups/systemd."""
