"""Creating and deleting mirror pods: the API server's read-only copies of static pods.

Go: pkg/kubelet/pod/mirror_client.go

A mirror pod lets the cluster see a static pod: the same pod, with the annotation
``kubernetes.io/config.mirror`` holding the static pod's hash and the node as its owner. kubelet
creates it when it syncs the static pod, and deletes it when the static pod changes or goes.
Without an API server (``--manifests`` alone) both do nothing, as in Go.
"""

from __future__ import annotations

import copy
from typing import Any, Protocol

from minikubelet.container.runtime import parse_pod_full_name
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.k8s_io.apimachinery.pkg.api.errors.errors import is_conflict, is_not_found
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.types import ConfigHashAnnotationKey, ConfigMirrorAnnotationKey


class MirrorClient(Protocol):
    """Go: pkg/kubelet/pod/mirror_client.go type MirrorClient"""

    def create_mirror_pod(self, pod: Pod) -> None:
        """Go: pkg/kubelet/pod/mirror_client.go MirrorClient.CreateMirrorPod"""
        ...

    def delete_mirror_pod(self, pod_full_name: str, uid: str | None) -> bool:
        """Go: pkg/kubelet/pod/mirror_client.go MirrorClient.DeleteMirrorPod"""
        ...


class BasicMirrorClient:
    """Go: pkg/kubelet/pod/mirror_client.go type basicMirrorClient"""

    def __init__(
        self, apiserver_client: Any = None, node_name: str = "", node_getter: Any = None
    ) -> None:
        """Go: pkg/kubelet/pod/mirror_client.go NewBasicMirrorClient"""
        self.apiserver_client = apiserver_client
        self.node_name = node_name
        self.node_getter = node_getter

    def create_mirror_pod(self, pod: Pod) -> None:
        """Create the pod's mirror in the API server; raises on failure.

        Go: pkg/kubelet/pod/mirror_client.go (*basicMirrorClient).CreateMirrorPod
        """
        if self.apiserver_client is None:
            return
        copy_pod = copy.deepcopy(pod)
        hash_ = get_pod_hash(pod)
        copy_pod.metadata.annotations[ConfigMirrorAnnotationKey] = hash_

        # Mirror pods must name their node as owner (the NodeRestriction admission plugin
        # checks it): Go sets OwnerReferences to the node, found by its UID. ObjectMeta has no
        # ownerReferences in the port's API subset, so only the lookup is kept, and its error.
        try:
            self.get_node_uid()
        except Exception as err:
            raise RuntimeError(f"failed to get node UID: {err}") from err

        # On AlreadyExists Go compares the hash on the object Create returned, which is empty
        # after an error: the error is returned either way, as here.
        self.apiserver_client.create_pod(copy_pod)

    def delete_mirror_pod(self, pod_full_name: str, uid: str | None) -> bool:
        """Delete the mirror pod of that full name (and UID, if given); whether it was.

        Go: pkg/kubelet/pod/mirror_client.go (*basicMirrorClient).DeleteMirrorPod

        Raises only when the full name does not parse, as Go returns an error only then.
        """
        if self.apiserver_client is None:
            return False
        try:
            name, namespace = parse_pod_full_name(pod_full_name)
        except ValueError as err:
            klog.error_s(err, "Failed to parse a pod full name", podFullName=pod_full_name)
            raise
        klog.v(2).info_s("Deleting a mirror pod", pod=klog.ObjectRef(name, namespace), podUID=uid)
        try:
            self.apiserver_client.delete_pod(namespace, name, uid=uid)
        except Exception as err:
            # Not found or a UID conflict only mean there is nothing to delete.
            if not (is_not_found(err) or is_conflict(err)):
                klog.error_s(
                    err, "Failed deleting a mirror pod", pod=klog.ObjectRef(name, namespace)
                )
            return False
        return True

    def get_node_uid(self) -> str:
        """Go: pkg/kubelet/pod/mirror_client.go (*basicMirrorClient).getNodeUID"""
        node = self.node_getter.get_node(self.node_name)
        if node.metadata.uid == "":
            raise ValueError(f"UID unset for node {self.node_name}")
        return node.metadata.uid


def get_hash_from_mirror_pod(pod: Pod) -> tuple[str, bool]:
    """Go: pkg/kubelet/pod/mirror_client.go getHashFromMirrorPod"""
    annotations = pod.metadata.annotations or {}
    if ConfigMirrorAnnotationKey in annotations:
        return annotations[ConfigMirrorAnnotationKey], True
    return "", False


def get_pod_hash(pod: Pod) -> str:
    """Go: pkg/kubelet/pod/mirror_client.go getPodHash"""
    # Every static pod carries its hash in the config.hash annotation.
    return (pod.metadata.annotations or {}).get(ConfigHashAnnotationKey, "")
