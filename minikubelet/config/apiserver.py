"""The API server source: the pods bound to this node, as a watch reports them.

Go: pkg/kubelet/config/apiserver.go

kubelet lists and watches the pods whose ``spec.nodeName`` is its node, keeps them in an
[`UndeltaStore`][minikubelet.k8s_io.client_go.tools.cache.undelta_store.UndeltaStore], and sends the
whole set as a SET on each change. The client is any
[`clientset.Interface`][minikubelet.k8s_io.client_go.kubernetes.clientset.Interface]; ``minikubelet
run --api-script`` hands it the fake API server
([`minikubelet.sim.fake_apiserver`][minikubelet.sim.fake_apiserver]).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minikubelet.go import Second, SendChan, go, sleep
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.client_go.kubernetes.clientset import Interface
from minikubelet.k8s_io.client_go.tools.cache.reflector import reflector_run
from minikubelet.k8s_io.client_go.tools.cache.store import meta_namespace_key_func
from minikubelet.k8s_io.client_go.tools.cache.undelta_store import UndeltaStore
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.types import ApiserverSource, PodOperation, PodUpdate

#: How often to check whether the node has synced. Go: WaitForAPIServerSyncPeriod
WaitForAPIServerSyncPeriod = 1 * Second


def new_source_apiserver(
    c: Interface,
    node_name: str,
    node_has_synced: Callable[[], bool],
    updates: SendChan[Any],
) -> None:
    """Start the API server source once the node has synced.

    Go: pkg/kubelet/config/apiserver.go NewSourceApiserver
    """
    klog.info_s("Waiting for node sync before watching apiserver pods")

    async def wait_then_watch() -> None:
        while True:
            if node_has_synced():
                klog.v(4).info_s("node sync completed")
                break
            await sleep(WaitForAPIServerSyncPeriod)
            klog.v(4).info_s("node sync has not completed yet")
        klog.info_s("Watching apiserver")
        new_source_apiserver_from_lw(c, node_name, updates)

    go(wait_then_watch, name="sourceApiserver")


def new_source_apiserver_from_lw(c: Interface, node_name: str, updates: SendChan[Any]) -> None:
    """Feed the watch into an UndeltaStore that sends every change as a SET.

    Go: pkg/kubelet/config/apiserver.go newSourceApiserverFromLW
    """

    async def send(objs: list[Pod]) -> None:
        await updates.send(PodUpdate(pods=list(objs), op=PodOperation.SET, source=ApiserverSource))

    r = UndeltaStore(send, meta_namespace_key_func)
    go(reflector_run, c, r, node_name, name="reflector.Run")
