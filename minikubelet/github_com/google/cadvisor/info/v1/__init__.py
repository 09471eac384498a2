"""github.com/google/cadvisor/info/v1: the machine's description."""
