"""github.com/google/cadvisor: what the node measures of its machine."""
