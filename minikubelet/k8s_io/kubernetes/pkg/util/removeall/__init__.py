"""k8s.io/kubernetes/pkg/util/removeall: removing a tree without crossing a mount point."""
