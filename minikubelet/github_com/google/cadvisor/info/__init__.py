"""github.com/google/cadvisor/info."""
