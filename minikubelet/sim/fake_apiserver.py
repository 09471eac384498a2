"""Ours: an in-memory API server for ``minikubelet run --api-script``.

Not a port. A kubelet that takes pods from an API server also writes to it: it registers its
node, patches each pod's status, creates and deletes the mirror pods of its static pods, and
deletes a pod once it has terminated after a graceful delete. This server keeps pods and nodes
in memory and takes those writes, so that the status manager's sync, mirror pods and the final
delete run as in Go. The script's events are writes by the rest of the cluster (a scheduler
binding pods here, a user deleting one) replayed at their times.

It does what the real API server does on the paths kubelet exercises: a new object gets a UID,
a creation time and a resource version; a new pod gets the ``Pending`` phase and its QoS class
(as ``podStrategy.PrepareForCreate`` does); an update of a pod keeps its status, a status patch
keeps everything else; a delete with a UID precondition refuses another pod of the same name.
Each change goes, in order, to every watch of pods bound to the node.

Errors carry the API's reason (``NotFound``, ``AlreadyExists``, ``Conflict``) and message.
"""

from __future__ import annotations

import base64
import copy
import json
import uuid
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from minikubelet.config.manifest import pod_from_dict, pod_to_dict
from minikubelet.go import Chan, make_chan, now
from minikubelet.k8s_io.api.core.v1 import Node, Pod, PodPhase
from minikubelet.k8s_io.apimachinery.pkg.api.errors.errors import StatusError
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.qos.qos import get_pod_qos
from minikubelet.k8s_io.kubernetes.pkg.util.pod.pod import apply_merge_patch

__all__ = ["FakeAPIServer", "Watch", "WatchEvent"]


@dataclass(frozen=True)
class WatchEvent:
    """One change a watch reports: ``ADDED``, ``MODIFIED`` or ``DELETED``, and the object."""

    type: str
    object: Pod


@dataclass
class Watch:
    """The changes to the pods bound to one node, in the order they happened."""

    node_name: str
    pending: deque[WatchEvent] = field(default_factory=deque)
    #: Holds a token while ``pending`` may be non-empty (capacity 1: never blocks a writer).
    wake: Chan[None] = field(default_factory=lambda: make_chan(1, name="watch"))

    def push(self, event: WatchEvent) -> None:
        self.pending.append(event)
        self.wake.try_send(None)

    async def next(self) -> WatchEvent:
        """The next change, waiting for one if there is none yet."""
        while not self.pending:
            await self.wake.recv()
        return self.pending.popleft()


class FakeAPIServer:
    """Pods and nodes in memory, with the calls kubelet makes (see the module docstring)."""

    def __init__(self) -> None:
        self.pods: dict[str, Pod] = {}
        self.nodes: dict[str, Node] = {}
        self.resource_version = 0
        self.watches: list[Watch] = []
        #: (kind, "namespace/name") → a configMap or secret, as the script wrote it.
        self.objects: dict[tuple[str, str], dict[str, Any]] = {}

    # --- bookkeeping ---------------------------------------------------------------------------

    def _next_version(self) -> str:
        self.resource_version += 1
        return str(self.resource_version)

    def _new_uid(self, kind: str, namespace: str, name: str) -> str:
        # Stable per run (a real UID is random): the kind, the name and when it was made.
        return str(
            uuid.uuid5(uuid.NAMESPACE_URL, f"{kind}/{namespace}/{name}/{self.resource_version}")
        )

    def _notify(self, kind: str, pod: Pod) -> None:
        for w in self.watches:
            if pod.spec.node_name == w.node_name:
                w.push(WatchEvent(kind, copy.deepcopy(pod)))

    @staticmethod
    def _key(namespace: str, name: str) -> str:
        return f"{namespace}/{name}"

    # --- pods ----------------------------------------------------------------------------------

    def create_pod(self, pod: Pod, *, existed_before: bool = False) -> Pod:
        """Store a new pod: a fresh UID, creation time and version, status Pending.

        ``existed_before`` (the script's pods only) keeps a UID and creation time the object
        already has: it stands for a pod created before the run.
        """
        meta = pod.metadata
        key = self._key(meta.namespace, meta.name)
        if key in self.pods:
            raise StatusError("AlreadyExists", f'pods "{meta.name}" already exists')
        stored = copy.deepcopy(pod)
        stored.metadata.resource_version = self._next_version()
        if not (existed_before and meta.uid):
            stored.metadata.uid = self._new_uid("pod", meta.namespace, meta.name)
        if not (existed_before and meta.creation_timestamp is not None):
            stored.metadata.creation_timestamp = float(now())
        stored.metadata.deletion_timestamp = None
        stored.status = type(pod.status)(phase=PodPhase.PENDING, qos_class=get_pod_qos(stored))
        self.pods[key] = stored
        self._notify("ADDED", stored)
        return copy.deepcopy(stored)

    def _existing(self, namespace: str, name: str) -> Pod:
        pod = self.pods.get(self._key(namespace, name))
        if pod is None:
            raise StatusError("NotFound", f'pods "{name}" not found')
        return pod

    def _modified(self, stored: Pod) -> Pod:
        """Store a changed pod under a new version and tell the watches."""
        stored.metadata.resource_version = self._next_version()
        self.pods[self._key(stored.metadata.namespace, stored.metadata.name)] = stored
        self._notify("MODIFIED", stored)
        return copy.deepcopy(stored)

    def get_pod(self, namespace: str, name: str) -> Pod:
        return copy.deepcopy(self._existing(namespace, name))

    def update_pod(self, pod: Pod) -> Pod:
        """Replace a pod's metadata and spec; its status stays the server's."""
        old = self._existing(pod.metadata.namespace, pod.metadata.name)
        stored = copy.deepcopy(pod)
        stored.metadata.uid = old.metadata.uid
        stored.metadata.creation_timestamp = old.metadata.creation_timestamp
        stored.status = old.status
        return self._modified(stored)

    def update_pod_status(self, pod: Pod) -> Pod:
        """Replace a pod's status (the ``status`` subresource); everything else stays."""
        stored = copy.deepcopy(self._existing(pod.metadata.namespace, pod.metadata.name))
        stored.status = copy.deepcopy(pod.status)
        return self._modified(stored)

    def patch_pod_status(self, namespace: str, name: str, patch_bytes: bytes) -> Pod:
        """Apply a merge patch to a pod's status (the ``status`` subresource)."""
        old = self._existing(namespace, name)
        patch = json.loads(patch_bytes)
        want_uid = patch.get("metadata", {}).get("uid")
        if want_uid is not None and want_uid != old.metadata.uid:
            raise StatusError(
                "Conflict",
                f'Operation cannot be fulfilled on pods "{name}": the UID in the precondition '
                f"({want_uid}) does not match the UID in record ({old.metadata.uid}). The object "
                "might have been deleted and then recreated",
            )
        data = pod_to_dict(old)
        data["status"] = apply_merge_patch(data.get("status", {}), patch.get("status", {}))
        patched = pod_from_dict(data, source=f"status patch of pod {namespace}/{name}")
        stored = copy.deepcopy(old)
        stored.status = patched.status
        return self._modified(stored)

    def delete_pod(self, namespace: str, name: str, uid: str | None = None) -> None:
        """Remove a pod at once (grace period 0), if its UID is ``uid`` when given."""
        old = self._existing(namespace, name)
        if uid is not None and uid != old.metadata.uid:
            raise StatusError(
                "Conflict",
                f'Operation cannot be fulfilled on pods "{name}": Precondition failed: UID in '
                f"precondition: {uid}, UID in object meta: {old.metadata.uid}",
            )
        del self.pods[self._key(namespace, name)]
        self.resource_version += 1
        self._notify("DELETED", old)

    def list_pods(self, node_name: str) -> list[Pod]:
        """The pods bound to ``node_name`` (a list with ``fieldSelector=spec.nodeName=…``)."""
        return [copy.deepcopy(p) for p in self.pods.values() if p.spec.node_name == node_name]

    def watch_pods(self, node_name: str) -> Watch:
        """A watch of the pods bound to ``node_name``, from now on."""
        w = Watch(node_name)
        self.watches.append(w)
        return w

    # --- nodes ---------------------------------------------------------------------------------

    def create_node(self, node: Node) -> Node:
        name = node.metadata.name
        if name in self.nodes:
            raise StatusError("AlreadyExists", f'nodes "{name}" already exists')
        stored = copy.deepcopy(node)
        stored.metadata.resource_version = self._next_version()
        stored.metadata.uid = self._new_uid("node", "", name)
        stored.metadata.creation_timestamp = float(now())
        self.nodes[name] = stored
        return copy.deepcopy(stored)

    def get_node(self, name: str) -> Node:
        node = self.nodes.get(name)
        if node is None:
            raise StatusError("NotFound", f'nodes "{name}" not found')
        return copy.deepcopy(node)

    def update_node_status(self, node: Node) -> Node:
        """Replace the stored node's status (kubelet patches it; the patch's result is the same)."""
        stored = self.nodes.get(node.metadata.name)
        if stored is None:
            raise StatusError("NotFound", f'nodes "{node.metadata.name}" not found')
        stored.status = copy.deepcopy(node.status)
        stored.metadata.resource_version = self._next_version()
        return copy.deepcopy(stored)

    # --- configMaps, secrets, tokens -----------------------------------------------------------

    def get_object(self, kind: str, namespace: str, name: str) -> dict[str, Any]:
        """A configMap or secret; ``NotFound`` as kubelet's managers word it (``configmap "x"
        not found``: the singular resource)."""
        obj = self.objects.get((kind, self._key(namespace, name)))
        if obj is None:
            raise StatusError("NotFound", f'{kind.lower()} "{name}" not found')
        return copy.deepcopy(obj)

    def create_token(self, namespace: str, service_account: str) -> str:
        """A service account token (TokenRequest): not a real JWT, but one per account."""
        return f"fake-token:{namespace}:{service_account}"

    def apply_object(self, event_type: str, obj: dict[str, Any]) -> None:
        """A scripted write of a configMap or secret (a secret's ``stringData`` is merged into
        its ``data`` as base64, as the API server does)."""
        meta = obj.get("metadata", {})
        key = (obj["kind"], self._key(meta.get("namespace") or "default", meta["name"]))
        if event_type == "DELETED":
            self.objects.pop(key, None)
            return
        stored = copy.deepcopy(obj)
        if stored["kind"] == "Secret":
            data = stored.setdefault("data", {})
            for k, v in stored.pop("stringData", {}).items():
                data[k] = base64.b64encode(v.encode()).decode()
        self.objects[key] = stored
        klog.v(5).info_s(
            "Fake API server: applied scripted event",
            type=event_type,
            object=klog.ObjectRef(meta["name"], meta.get("namespace") or "default"),
        )

    # --- the rest of the cluster ---------------------------------------------------------------

    def apply(self, event_type: str, pod: Pod, with_status: bool = False) -> None:
        """A scripted write by another client: create or update the pod (and write its status
        too when ``with_status``), or delete it.

        Lenient where a script cannot know what kubelet did meanwhile: deleting a pod kubelet
        already deleted does nothing.
        """
        meta = pod.metadata
        exists = self._key(meta.namespace, meta.name) in self.pods
        if event_type == "DELETED":
            if exists:
                self.delete_pod(meta.namespace, meta.name)
            return
        if exists:
            self.update_pod(pod)
        else:
            self.create_pod(pod, existed_before=True)
        if with_status:
            self.update_pod_status(pod)
        klog.v(5).info_s(
            "Fake API server: applied scripted event", type=event_type, pod=klog.kobj(pod)
        )
