"""Small helpers of the runtime manager: CRI ↔ kubelet conversions, orderings, log paths, the
back-off key of a container, namespace modes.

Go: pkg/kubelet/kuberuntime/helpers.go

Go's sort types (``podSandboxByCreated``, ``containerStatusByCreated`` …) are key functions here,
used with ``sorted(..., key=…, reverse=…)``. The methods of ``kubeGenericRuntimeManager`` defined
in the Go file are in [`HelperMethods`][], which the manager inherits.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from minikubelet.container.helpers import hash_container, sandbox_to_container_state
from minikubelet.container.runtime import (
    Container,
    ContainerID,
    ContainerStateCreated,
    ContainerStateExited,
    ContainerStateRunning,
    ContainerStateUnknown,
    RuntimeCondition,
    RuntimeStatus,
    State,
    Status,
)
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.api.core.v1.annotation_key_constants import (
    SeccompContainerAnnotationKeyPrefix,
    SeccompLocalhostProfileNamePrefix,
    SeccompPodAnnotationKey,
)
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kuberuntime.labels import (
    LabeledContainerInfo,
    containerHashLabel,
    get_container_info_from_annotations,
    get_container_info_from_labels,
)
from minikubelet.types import (
    KubernetesContainerNameLabel,
    KubernetesPodNameLabel,
    KubernetesPodNamespaceLabel,
    KubernetesPodUIDLabel,
)

if TYPE_CHECKING:
    from minikubelet.kuberuntime.kuberuntime_manager import KubeGenericRuntimeManager

# Go declares it in kuberuntime_manager.go; here it sits with the helpers that use it.
podLogsRootDirectory = "/var/log/pods"


def pod_sandbox_by_created(s: runtimeapi.PodSandbox) -> int:
    """Sort key for newest first, with ``reverse=True``.

    Go: pkg/kubelet/kuberuntime/helpers.go type podSandboxByCreated
    """
    return s.created_at


def container_status_by_created(c: Status) -> float:
    """Sort key for newest first, with ``reverse=True``.

    Go: pkg/kubelet/kuberuntime/helpers.go type containerStatusByCreated
    """
    return c.created_at


def to_kube_container_state(state: runtimeapi.ContainerState) -> State:
    """Go: pkg/kubelet/kuberuntime/helpers.go toKubeContainerState"""
    match state:
        # Go: case runtimeapi.ContainerState_CONTAINER_CREATED:
        case runtimeapi.ContainerState_CONTAINER_CREATED:
            return ContainerStateCreated
        # Go: case runtimeapi.ContainerState_CONTAINER_RUNNING:
        case runtimeapi.ContainerState_CONTAINER_RUNNING:
            return ContainerStateRunning
        # Go: case runtimeapi.ContainerState_CONTAINER_EXITED:
        case runtimeapi.ContainerState_CONTAINER_EXITED:
            return ContainerStateExited
        # Go: case runtimeapi.ContainerState_CONTAINER_UNKNOWN:
        case runtimeapi.ContainerState_CONTAINER_UNKNOWN:
            return ContainerStateUnknown
    return ContainerStateUnknown


def to_runtime_protocol(protocol: v1.Protocol) -> runtimeapi.Protocol:
    """Go: pkg/kubelet/kuberuntime/helpers.go toRuntimeProtocol"""
    match protocol:
        # Go: case v1.ProtocolTCP:
        case v1.ProtocolTCP:
            return runtimeapi.Protocol_TCP
        # Go: case v1.ProtocolUDP:
        case v1.ProtocolUDP:
            return runtimeapi.Protocol_UDP
        # Go: case v1.ProtocolSCTP:
        case v1.ProtocolSCTP:
            return runtimeapi.Protocol_SCTP
    klog.info_s("Unknown protocol, defaulting to TCP", protocol=protocol)
    return runtimeapi.Protocol_TCP


class HelperMethods:
    """The methods of ``kubeGenericRuntimeManager`` defined in helpers.go."""

    def to_kube_container(
        self: KubeGenericRuntimeManager, c: runtimeapi.Container | None
    ) -> Container:
        """A CRI container as a kubelet [`Container`][]; ValueError for an incomplete one.

        Go: pkg/kubelet/kuberuntime/helpers.go (*kubeGenericRuntimeManager).toKubeContainer
        """
        if c is None or c.id == "" or c.image is None:
            raise ValueError("unable to convert a nil pointer to a runtime container")

        annotated_info = get_container_info_from_annotations(c.annotations)
        return Container(
            id=ContainerID(self.runtime_name, c.id),
            name=c.metadata.name if c.metadata is not None else "",
            image_id=c.image_ref,
            image=c.image.image,
            hash=annotated_info.hash,
            state=to_kube_container_state(c.state),
        )

    def sandbox_to_kube_container(
        self: KubeGenericRuntimeManager, s: runtimeapi.PodSandbox | None
    ) -> Container:
        """A sandbox as a kubelet [`Container`][] (so that the PLEG sees sandboxes too).

        Go: pkg/kubelet/kuberuntime/helpers.go (*kubeGenericRuntimeManager).sandboxToKubeContainer
        """
        if s is None or s.id == "":
            raise ValueError("unable to convert a nil pointer to a runtime container")

        return Container(
            id=ContainerID(self.runtime_name, s.id),
            state=sandbox_to_container_state(s.state),
        )

    async def get_image_user(self: KubeGenericRuntimeManager, image: str) -> tuple[int | None, str]:
        """(uid, user name) the image runs as; one of them is set (root, 0, if neither).

        Go: pkg/kubelet/kuberuntime/helpers.go (*kubeGenericRuntimeManager).getImageUser
        """
        image_status = await self.image_service.image_status(runtimeapi.ImageSpec(image=image))

        if image_status is not None:
            if image_status.uid is not None:
                return image_status.uid.value, ""

            if image_status.username != "":
                return None, image_status.username

        return 0, ""  # an image that names no user runs as root

    def get_seccomp_profile_path(
        self: KubeGenericRuntimeManager, annotations: dict[str, str], container_name: str
    ) -> str:
        """The container's seccomp profile, as the deprecated annotations give it: the
        container's own, else the pod's, else none (``""``).

        Go: pkg/kubelet/kuberuntime/helpers.go (*kubeGenericRuntimeManager).getSeccompProfilePath

        Go looks at the container's and the pod's ``securityContext.seccompProfile`` fields
        first; the API here has neither, so only the annotations count.
        """
        if container_name != "":
            profile = annotations.get(SeccompContainerAnnotationKeyPrefix + container_name)
            if profile is not None:
                return annotation_profile(profile, self.seccomp_profile_root)

        profile = annotations.get(SeccompPodAnnotationKey)
        if profile is not None:
            return annotation_profile(profile, self.seccomp_profile_root)

        return ""

    def get_seccomp_profile(self: KubeGenericRuntimeManager) -> runtimeapi.SecurityProfile:
        """The container's seccomp profile as a field: ``Unconfined`` unless a
        ``seccompProfile`` says otherwise.

        Go: pkg/kubelet/kuberuntime/helpers.go (*kubeGenericRuntimeManager).getSeccompProfile

        The API here has no ``seccompProfile`` field (Go reads the container's, then the
        pod's), so the answer is Go's last one; the annotations only set the path above.
        """
        return runtimeapi.SecurityProfile(profile_type=runtimeapi.SecurityProfile_Unconfined)


def annotation_profile(profile: str, profile_root_path: str) -> str:
    """A ``localhost/<name>`` profile becomes ``localhost/<root>/<name>``; others stay.

    Go: pkg/kubelet/kuberuntime/helpers.go annotationProfile
    """
    if profile.startswith(SeccompLocalhostProfileNamePrefix):
        name = profile.removeprefix(SeccompLocalhostProfileNamePrefix)
        fname = posixpath.join(profile_root_path, name)
        return SeccompLocalhostProfileNamePrefix + fname
    return profile


def is_init_container_failed(status: Status) -> bool:
    """An init container failed: it exited non-zero, or its state is unknown.

    Go: pkg/kubelet/kuberuntime/helpers.go isInitContainerFailed
    """
    if status.state == ContainerStateExited and status.exit_code != 0:
        return True

    return status.state == ContainerStateUnknown


def get_stable_key(pod: v1.Pod, container: v1.Container) -> str:
    """The back-off key of a container: pod, container and the hash of its spec (so that a
    changed spec starts a new back-off).

    Go: pkg/kubelet/kuberuntime/helpers.go getStableKey
    """
    hash = format(hash_container(container), "x")
    m = pod.metadata
    return f"{m.name}_{m.namespace}_{m.uid}_{container.name}_{hash}"


logPathDelimiter = "_"


def build_container_logs_path(container_name: str, restart_count: int) -> str:
    """Go: pkg/kubelet/kuberuntime/helpers.go buildContainerLogsPath"""
    return posixpath.join(container_name, f"{restart_count}.log")


def build_pod_logs_directory(pod_namespace: str, pod_name: str, pod_uid: str) -> str:
    """``/var/log/pods/<namespace>_<name>_<uid>``.

    Go: pkg/kubelet/kuberuntime/helpers.go BuildPodLogsDirectory
    """
    return posixpath.join(
        podLogsRootDirectory, logPathDelimiter.join([pod_namespace, pod_name, pod_uid])
    )


def to_kube_runtime_status(status: runtimeapi.RuntimeStatus) -> RuntimeStatus:
    """Go: pkg/kubelet/kuberuntime/helpers.go toKubeRuntimeStatus"""
    conditions = [
        RuntimeCondition(type=c.type, status=c.status, reason=c.reason, message=c.message)
        for c in status.conditions
    ]
    return RuntimeStatus(conditions=conditions)


def ipc_namespace_for_pod(pod: v1.Pod | None) -> runtimeapi.NamespaceMode:
    """Go: pkg/kubelet/kuberuntime/helpers.go ipcNamespaceForPod"""
    if pod is not None and pod.spec.host_ipc:
        return runtimeapi.NamespaceMode_NODE
    return runtimeapi.NamespaceMode_POD


def network_namespace_for_pod(pod: v1.Pod | None) -> runtimeapi.NamespaceMode:
    """Go: pkg/kubelet/kuberuntime/helpers.go networkNamespaceForPod"""
    if pod is not None and pod.spec.host_network:
        return runtimeapi.NamespaceMode_NODE
    return runtimeapi.NamespaceMode_POD


def pid_namespace_for_pod(pod: v1.Pod | None) -> runtimeapi.NamespaceMode:
    """Go: pkg/kubelet/kuberuntime/helpers.go pidNamespaceForPod"""
    if pod is not None and pod.spec.host_pid:
        return runtimeapi.NamespaceMode_NODE
    # Not POD, the zero value: each container sees only its own processes unless the pod
    # shares one namespace (shareProcessNamespace, a field the port's API does not have).
    return runtimeapi.NamespaceMode_CONTAINER


def namespaces_for_pod(pod: v1.Pod | None) -> runtimeapi.NamespaceOption:
    """Go: pkg/kubelet/kuberuntime/helpers.go namespacesForPod"""
    return runtimeapi.NamespaceOption(
        ipc=ipc_namespace_for_pod(pod),
        network=network_namespace_for_pod(pod),
        pid=pid_namespace_for_pod(pod),
    )


_POD_LABELS = (
    KubernetesPodNameLabel,
    KubernetesPodNamespaceLabel,
    KubernetesPodUIDLabel,
    KubernetesContainerNameLabel,
)

#: What ``toKubeContainer`` reads of a CRI container, besides its ID.
_ContainerKey = tuple[int, str, str, str, str | None]


class ListingMemo:
    """Ours, not kubelet's: each container the runtime lists is converted once, not once a relist.

    The PLEG relists every second (kubelet's loop, kept as it is), and each relist calls
    ``GetPods``, which turns every CRI container and sandbox into a kubelet [`Container`][] and
    reads the pod it belongs to from its labels. Go allocates these afresh each time; in Python
    the conversions were over half of ``GetPods``. The memo keeps the last result for each
    container ID and hands it back while every field the conversion reads is unchanged (compared
    by value, so a container whose state changed in place is converted again; the labels, which
    CRI never changes, by identity). ``GetPods`` still visits every container and sandbox of
    every listing.

    Not kept: a conversion that logged (a pod label or the hash annotation missing or malformed),
    so the lines Go writes on each listing are still written each time; a conversion that
    failed. (The other annotations go through the identity memo of
    [`get_container_info_from_annotations`][minikubelet.kuberuntime.labels.get_container_info_from_annotations],
    as before.)

    The results are shared between listings: nothing in the port changes a listed
    ``Container``. ``tests/kuberuntime/test_listing_memo.py`` holds the memo to fresh
    conversions, in place changes included, and over a whole run of a node.
    """

    def __init__(self) -> None:
        self.labels: dict[str, tuple[dict[str, str], LabeledContainerInfo]] = {}
        self.containers: dict[str, tuple[_ContainerKey, Container]] = {}
        self.sandboxes: dict[str, tuple[int, Container]] = {}

    def container_info_from_labels(self, c: runtimeapi.Container) -> LabeledContainerInfo:
        """``getContainerInfoFromLabels(c.Labels)``, kept while the labels are the same object.

        CRI sets a container's labels when it is created and never changes them; the runtime
        hands back the same dict on each listing (a runtime that makes a new one misses).
        """
        hit = self.labels.get(c.id)
        if hit is not None and hit[0] is c.labels:
            return hit[1]
        info = get_container_info_from_labels(c.labels)
        if all(label in c.labels for label in _POD_LABELS):
            self.labels[c.id] = (c.labels, info)
        return info

    def to_kube_container(
        self, m: KubeGenericRuntimeManager, c: runtimeapi.Container | None
    ) -> Container:
        """``m.toKubeContainer(c)``, kept while what it reads is equal; raises as it does."""
        if c is None or c.id == "" or c.image is None:
            return m.to_kube_container(c)
        key = (
            c.state,
            c.metadata.name if c.metadata is not None else "",
            c.image_ref,
            c.image.image,
            c.annotations.get(containerHashLabel),
        )
        hit = self.containers.get(c.id)
        if hit is not None and hit[0] == key:
            return hit[1]
        converted = m.to_kube_container(c)
        # Only a hash that parsed without a log line (it reads back as written).
        if key[4] is not None and format(converted.hash, "x") == key[4]:
            self.containers[c.id] = (key, converted)
        return converted

    def sandbox_to_kube_container(
        self, m: KubeGenericRuntimeManager, s: runtimeapi.PodSandbox | None
    ) -> Container:
        """``m.sandboxToKubeContainer(s)``, kept while the sandbox's state is equal."""
        if s is None or s.id == "":
            return m.sandbox_to_kube_container(s)
        hit = self.sandboxes.get(s.id)
        if hit is not None and hit[0] == s.state:
            return hit[1]
        converted = m.sandbox_to_kube_container(s)
        self.sandboxes[s.id] = (s.state, converted)
        return converted

    def forget_unlisted(
        self, sandboxes: list[runtimeapi.PodSandbox], containers: list[runtimeapi.Container]
    ) -> None:
        """After a listing of everything: drop what the runtime no longer has, once the memo
        holds more than twice what it listed (so the memo stays as big as the runtime)."""
        if len(self.sandboxes) > 2 * len(sandboxes) + 64:
            listed = {s.id for s in sandboxes}
            self.sandboxes = {k: v for k, v in self.sandboxes.items() if k in listed}
        if len(self.containers) + len(self.labels) > 4 * len(containers) + 64:
            listed = {c.id for c in containers}
            self.containers = {k: v for k, v in self.containers.items() if k in listed}
            self.labels = {k: v for k, v in self.labels.items() if k in listed}
