"""The key a store files an object under.

Go: staging/src/k8s.io/client-go/tools/cache/store.go
"""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import Pod


def meta_namespace_key_func(obj: Pod) -> str:
    """``namespace/name`` (or ``name`` without a namespace).

    Go: staging/src/k8s.io/client-go/tools/cache/store.go MetaNamespaceKeyFunc
    """
    if obj.metadata.namespace:
        return f"{obj.metadata.namespace}/{obj.metadata.name}"
    return obj.metadata.name
