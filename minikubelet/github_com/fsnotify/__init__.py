"""github.com/fsnotify."""
