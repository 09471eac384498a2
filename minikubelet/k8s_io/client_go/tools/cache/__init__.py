"""k8s.io/client-go/tools/cache: the piece of client-go's cache that kubelet's config sources use."""
