"""The piece of client-go's cache that kubelet's config sources use."""
