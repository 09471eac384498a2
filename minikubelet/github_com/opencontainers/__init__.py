"""github.com/opencontainers."""
