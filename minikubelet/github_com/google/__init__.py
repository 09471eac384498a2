"""github.com/google."""
