"""The API client kubelet is handed: what it may ask of the API server.

Go: staging/src/k8s.io/client-go/kubernetes/clientset.go

kubelet never knows which server answers: it is given a ``clientset.Interface`` (Go's
``kubeDeps.KubeClient``) and reaches each resource through a typed client
(``CoreV1().Pods(namespace).Get(ctx, name, opts)``). The port's [`Interface`][] flattens the
few calls the ported code makes into methods of one Protocol; the in-memory server of
``minikubelet run --api-script`` (``minikubelet.sim.fake_apiserver``) is the one that
implements it. Errors are [`StatusError`][minikubelet.k8s_io.apimachinery.pkg.api.errors.errors.StatusError]s,
as the typed clients return them.
"""

from __future__ import annotations

from typing import Any, Protocol

from minikubelet.k8s_io.api.core.v1 import Node, Pod


class Event(Protocol):
    """One change a pod watch reports (Go's ``watch.Event``): its type (``ADDED``,
    ``MODIFIED``, ``DELETED``) and the pod."""

    @property
    def type(self) -> str: ...

    @property
    def object(self) -> Pod: ...


class PodWatch(Protocol):
    """The changes to the pods of one node, in order. Go's ``watch.Interface`` hands them out
    on a channel (``ResultChan``); the port awaits them one at a time."""

    async def next(self) -> Event: ...


class Interface(Protocol):
    """Go: staging/src/k8s.io/client-go/kubernetes/clientset.go type Interface

    Only the calls the port makes, each named after the typed call it stands for.
    """

    def get_pod(self, namespace: str, name: str) -> Pod:
        """``CoreV1().Pods(namespace).Get``."""
        ...

    def create_pod(self, pod: Pod) -> Pod:
        """``CoreV1().Pods(namespace).Create`` (a mirror pod)."""
        ...

    def delete_pod(self, namespace: str, name: str, uid: str | None = None) -> None:
        """``CoreV1().Pods(namespace).Delete``, with a UID precondition when ``uid`` is given."""
        ...

    def patch_pod_status(self, namespace: str, name: str, patch_bytes: bytes) -> Pod:
        """``CoreV1().Pods(namespace).Patch`` of the ``status`` subresource (a merge patch)."""
        ...

    def list_pods(self, node_name: str) -> list[Pod]:
        """``CoreV1().Pods("").List`` with the field selector ``spec.nodeName=<node>``."""
        ...

    def watch_pods(self, node_name: str) -> PodWatch:
        """``CoreV1().Pods("").Watch`` with the same field selector."""
        ...

    def get_node(self, name: str) -> Node:
        """``CoreV1().Nodes().Get``."""
        ...

    def create_node(self, node: Node) -> Node:
        """``CoreV1().Nodes().Create`` (kubelet registers its node)."""
        ...

    def update_node_status(self, node: Node) -> Node:
        """``CoreV1().Nodes().Patch`` of the ``status`` subresource (Go's
        ``nodeutil.PatchNodeStatus``): the node's status becomes ``node``'s."""
        ...

    def get_object(self, kind: str, namespace: str, name: str) -> dict[str, Any]:
        """``CoreV1().ConfigMaps(namespace).Get`` or ``Secrets(namespace).Get`` by ``kind``."""
        ...

    def create_token(self, namespace: str, service_account: str) -> str:
        """``CoreV1().ServiceAccounts(namespace).CreateToken``: a token for a projected volume."""
        ...
