"""The pod manager: kubelet's source of truth for which pods it should be running.

Go: pkg/kubelet/pod/pod_manager.go

It indexes the pods of every source by UID and by full name, and keeps static pods and their
*mirror pods* (the API server's read-only copies) side by side. The secret and config-map managers
that Go registers pods with are left out: there are no secrets here.
"""

from __future__ import annotations

from minikubelet.container.runtime import get_pod_full_name
from minikubelet.k8s_io.api.core.v1 import Pod
from minikubelet.pod.mirror_client import MirrorClient, get_hash_from_mirror_pod, get_pod_hash
from minikubelet.types import is_mirror_pod, is_static_pod


class BasicManager:
    """Go: pkg/kubelet/pod/pod_manager.go type basicManager

    Go's maps iterate in random order; Python's dicts keep insertion order, so [`get_pods`][]
    lists pods in the order kubelet learnt about them and runs repeat exactly.
    """

    def __init__(self, client: MirrorClient) -> None:
        """Go: pkg/kubelet/pod/pod_manager.go NewBasicPodManager"""
        # Go embeds the MirrorClient in the manager; here its two methods are delegated.
        self.mirror_client = client
        self.set_pods([])

    def create_mirror_pod(self, pod: Pod) -> None:
        """Go: pkg/kubelet/pod/mirror_client.go MirrorClient.CreateMirrorPod"""
        self.mirror_client.create_mirror_pod(pod)

    def delete_mirror_pod(self, pod_full_name: str, uid: str | None) -> bool:
        """Go: pkg/kubelet/pod/mirror_client.go MirrorClient.DeleteMirrorPod"""
        return self.mirror_client.delete_mirror_pod(pod_full_name, uid)

    def set_pods(self, new_pods: list[Pod]) -> None:
        """Go: pkg/kubelet/pod/pod_manager.go (*basicManager).SetPods"""
        self.pod_by_uid: dict[str, Pod] = {}
        self.pod_by_full_name: dict[str, Pod] = {}
        self.mirror_pod_by_uid: dict[str, Pod] = {}
        self.mirror_pod_by_full_name: dict[str, Pod] = {}
        #: mirror pod UID → the static pod's UID.
        self.translation_by_uid: dict[str, str] = {}
        self.update_pods_internal(*new_pods)

    def add_pod(self, pod: Pod) -> None:
        """Go: pkg/kubelet/pod/pod_manager.go (*basicManager).AddPod"""
        self.update_pod(pod)

    def update_pod(self, pod: Pod) -> None:
        """Go: pkg/kubelet/pod/pod_manager.go (*basicManager).UpdatePod"""
        self.update_pods_internal(pod)

    def update_pods_internal(self, *pods: Pod) -> None:
        """Go: pkg/kubelet/pod/pod_manager.go (*basicManager).updatePodsInternal"""
        for pod in pods:
            pod_full_name = get_pod_full_name(pod)
            if is_mirror_pod(pod):
                mirror_pod_uid = pod.metadata.uid
                self.mirror_pod_by_uid[mirror_pod_uid] = pod
                self.mirror_pod_by_full_name[pod_full_name] = pod
                p = self.pod_by_full_name.get(pod_full_name)
                if p is not None:
                    self.translation_by_uid[mirror_pod_uid] = p.metadata.uid
            else:
                resolved_pod_uid = pod.metadata.uid
                self.pod_by_uid[resolved_pod_uid] = pod
                self.pod_by_full_name[pod_full_name] = pod
                mirror = self.mirror_pod_by_full_name.get(pod_full_name)
                if mirror is not None:
                    self.translation_by_uid[mirror.metadata.uid] = resolved_pod_uid

    def delete_pod(self, pod: Pod) -> None:
        """Go: pkg/kubelet/pod/pod_manager.go (*basicManager).DeletePod"""
        pod_full_name = get_pod_full_name(pod)
        if is_mirror_pod(pod):
            self.mirror_pod_by_uid.pop(pod.metadata.uid, None)
            self.mirror_pod_by_full_name.pop(pod_full_name, None)
            self.translation_by_uid.pop(pod.metadata.uid, None)
        else:
            self.pod_by_uid.pop(pod.metadata.uid, None)
            self.pod_by_full_name.pop(pod_full_name, None)

    def get_pods(self) -> list[Pod]:
        """Every regular (non-mirror) pod.

        Go: pkg/kubelet/pod/pod_manager.go (*basicManager).GetPods
        """
        return list(self.pod_by_uid.values())

    def get_pods_and_mirror_pods(self) -> tuple[list[Pod], list[Pod]]:
        """Go: pkg/kubelet/pod/pod_manager.go (*basicManager).GetPodsAndMirrorPods"""
        return list(self.pod_by_uid.values()), list(self.mirror_pod_by_uid.values())

    def get_pod_by_uid(self, uid: str) -> tuple[Pod | None, bool]:
        """Go: pkg/kubelet/pod/pod_manager.go (*basicManager).GetPodByUID"""
        pod = self.pod_by_uid.get(uid)
        return pod, pod is not None

    def translate_pod_uid(self, uid: str) -> str:
        """A mirror pod's UID → its static pod's UID; any other UID unchanged.

        Go: pkg/kubelet/pod/pod_manager.go (*basicManager).TranslatePodUID
        """
        if uid == "":
            return uid
        return self.translation_by_uid.get(uid, uid)

    def get_uid_translations(self) -> tuple[dict[str, str], dict[str, str]]:
        """``(pod_to_mirror, mirror_to_pod)``: each static pod's mirror UID ("" while it has no
        mirror pod), and the reverse.

        Go: pkg/kubelet/pod/pod_manager.go (*basicManager).GetUIDTranslations
        """
        pod_to_mirror: dict[str, str] = {}
        mirror_to_pod: dict[str, str] = {}
        # Every static pod first maps to "": no mirror pod yet.
        for uid, pod in self.pod_by_uid.items():
            if not is_static_pod(pod):
                continue
            pod_to_mirror[uid] = ""
        for k, v in self.translation_by_uid.items():
            mirror_to_pod[k] = v
            pod_to_mirror[v] = k
        return pod_to_mirror, mirror_to_pod

    def get_orphaned_mirror_pod_names(self) -> list[str]:
        """Full names of mirror pods whose static pod is gone.

        Go: pkg/kubelet/pod/pod_manager.go (*basicManager).GetOrphanedMirrorPodNames
        """
        return [n for n in self.mirror_pod_by_full_name if n not in self.pod_by_full_name]

    def is_mirror_pod_of(self, mirror_pod: Pod, pod: Pod) -> bool:
        """Go: pkg/kubelet/pod/pod_manager.go (*basicManager).IsMirrorPodOf"""
        if (
            pod.metadata.name != mirror_pod.metadata.name
            or pod.metadata.namespace != mirror_pod.metadata.namespace
        ):
            return False
        hash_, ok = get_hash_from_mirror_pod(mirror_pod)
        if not ok:
            return False
        return hash_ == get_pod_hash(pod)

    def get_mirror_pod_by_pod(self, pod: Pod) -> tuple[Pod | None, bool]:
        """Go: pkg/kubelet/pod/pod_manager.go (*basicManager).GetMirrorPodByPod"""
        mirror_pod = self.mirror_pod_by_full_name.get(get_pod_full_name(pod))
        return mirror_pod, mirror_pod is not None

    def get_pod_by_mirror_pod(self, mirror_pod: Pod) -> tuple[Pod | None, bool]:
        """Go: pkg/kubelet/pod/pod_manager.go (*basicManager).GetPodByMirrorPod"""
        pod = self.pod_by_full_name.get(get_pod_full_name(mirror_pod))
        return pod, pod is not None
