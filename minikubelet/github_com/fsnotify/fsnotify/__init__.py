"""github.com/fsnotify/fsnotify: the directory watcher."""
