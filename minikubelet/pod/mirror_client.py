"""Creating and deleting mirror pods: the API server's read-only copies of static pods.

Go: pkg/kubelet/pod/mirror_client.go

The port has no API server, and Go's mirror client without one does nothing at all: creating
returns at once with no error, deleting reports that nothing was deleted. That is what a kubelet
run with only ``--pod-manifest-path`` (no ``--kubeconfig``) does too.
"""

from __future__ import annotations

from typing import Any, Protocol

from minikubelet.k8s_io.api.core.v1 import Pod
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

    def __init__(self, apiserver_client: Any = None) -> None:
        """Go: pkg/kubelet/pod/mirror_client.go NewBasicMirrorClient"""
        self.apiserver_client = apiserver_client

    def create_mirror_pod(self, pod: Pod) -> None:
        """Go: pkg/kubelet/pod/mirror_client.go (*basicMirrorClient).CreateMirrorPod"""
        if self.apiserver_client is None:
            return
        raise NotImplementedError("the port has no API server client to create mirror pods with")

    def delete_mirror_pod(self, pod_full_name: str, uid: str | None) -> bool:
        """Go: pkg/kubelet/pod/mirror_client.go (*basicMirrorClient).DeleteMirrorPod"""
        if self.apiserver_client is None:
            return False
        raise NotImplementedError("the port has no API server client to delete mirror pods with")


def get_hash_from_mirror_pod(pod: Pod) -> tuple[str, bool]:
    """Go: pkg/kubelet/pod/mirror_client.go getHashFromMirrorPod"""
    annotations = pod.metadata.annotations or {}
    if ConfigMirrorAnnotationKey in annotations:
        return annotations[ConfigMirrorAnnotationKey], True
    return "", False


def get_pod_hash(pod: Pod) -> str:
    """Go: pkg/kubelet/pod/mirror_client.go getPodHash"""
    # The hash of the static pod is always in the config.hash annotation.
    return (pod.metadata.annotations or {}).get(ConfigHashAnnotationKey, "")
