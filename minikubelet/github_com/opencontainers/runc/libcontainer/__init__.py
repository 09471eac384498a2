"""github.com/opencontainers/runc/libcontainer."""
