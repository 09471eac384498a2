"""github.com/opencontainers/runc."""
