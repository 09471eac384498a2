"""The reflector: keeps a store in step with what the API server lists and then watches.

Go: staging/src/k8s.io/client-go/tools/cache/reflector.go

Ours, in the reflector's home: Go's ``Reflector`` lists with paging, watches from the list's
resource version, re-lists on expiry and backs off on errors. The port's API server neither
pages nor expires a watch, so [`reflector_run`][] is the part kubelet's API source relies on:
one list, then every change in order.
"""

from __future__ import annotations

from minikubelet.k8s_io.client_go.kubernetes.clientset import Interface
from minikubelet.k8s_io.client_go.tools.cache.undelta_store import UndeltaStore


async def reflector_run(client: Interface, store: UndeltaStore, node_name: str) -> None:
    """List the pods bound to ``node_name`` into ``store``, then follow their changes.

    Ours: plays the part of client-go's ``Reflector.Run`` over a ListWatch with the field
    selector ``spec.nodeName=<node>``.
    """
    watch = client.watch_pods(node_name)
    await store.replace(client.list_pods(node_name), "")
    while True:
        event = await watch.next()
        if event.type == "ADDED":
            await store.add(event.object)
        elif event.type == "MODIFIED":
            await store.update(event.object)
        else:
            await store.delete(event.object)
