"""Removing a pod's dead containers as soon as they die, beyond the newest few.

Go: pkg/kubelet/pod_container_deletor.go

Each time the PLEG reports ``ContainerDied``, the sync loop calls ``cleanUpContainersInPod``,
which asks the deletor to remove the exited containers *of the same name* beyond
``containers_to_keep`` (newest kept). Removals go through a buffered channel to one goroutine
that calls the runtime's ``DeleteContainer``; when the buffer is full a request is dropped and
logged (the container garbage collector would get it later; it is not ported). The PLEG then sees
the containers gone and reports ``ContainerRemoved``.

kubelet keeps ``max(--maximum-dead-containers-per-container, 1)`` dead containers per
container name: 1 by default, so a crash-looping container leaves one dead instance for
``kubectl logs --previous``.
"""

from __future__ import annotations

from minikubelet.container.runtime import (
    ContainerID,
    ContainerStateExited,
    PodStatus,
    Runtime,
    Status,
)
from minikubelet.go import Chan, go, make_chan, select, send
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import until
from minikubelet.k8s_io.klog.v2 import klog

#: How many removal requests may wait. Go: containerDeletorBufferLimit
containerDeletorBufferLimit = 50


class PodContainerDeletor:
    """Go: pkg/kubelet/pod_container_deletor.go type podContainerDeletor"""

    def __init__(self, worker: Chan[ContainerID], containers_to_keep: int) -> None:
        self.worker = worker
        self.containers_to_keep = containers_to_keep

    async def delete_containers_in_pod(
        self, filter_container_id: str, pod_status: PodStatus, remove_all: bool
    ) -> None:
        """Queue the removal of the containers [`get_containers_to_delete_in_pod`][minikubelet.pod_container_deletor.get_containers_to_delete_in_pod] picks;
        with ``remove_all``, every exited container of the pod.

        Go: pkg/kubelet/pod_container_deletor.go (*podContainerDeletor).deleteContainersInPod
        """
        containers_to_keep = self.containers_to_keep
        if remove_all:
            containers_to_keep = 0
            filter_container_id = ""

        for candidate in get_containers_to_delete_in_pod(
            filter_container_id, pod_status, containers_to_keep
        ):
            match await select(send(self.worker, candidate.id), default=True):
                # Go: case p.worker <- candidate.ID:
                case 0, _:
                    pass
                # Go: default:
                case _:
                    klog.info_s(
                        "Failed to issue the request to remove container",
                        containerID=candidate.id,
                    )


def new_pod_container_deletor(runtime: Runtime, containers_to_keep: int) -> PodContainerDeletor:
    """A deletor, and the goroutine that removes what it is asked to, one at a time.

    Go: pkg/kubelet/pod_container_deletor.go newPodContainerDeletor
    """
    buffer: Chan[ContainerID] = make_chan(containerDeletorBufferLimit, name="containerDeletor")

    async def remove_forever() -> None:
        while True:
            id_, _ = await buffer.recv()
            assert id_ is not None  # the channel is never closed
            err = await runtime.delete_container(id_)
            if err is not None:
                klog.info_s("DeleteContainer returned error", containerID=id_, err=err)

    go(until, remove_forever, 0, None, name="podContainerDeletor")

    return PodContainerDeletor(worker=buffer, containers_to_keep=containers_to_keep)


def get_containers_to_delete_in_pod(
    filter_container_id: str, pod_status: PodStatus, containers_to_keep: int
) -> list[Status]:
    """The exited containers to remove, newest first: those of the same name as
    ``filter_container_id`` (every exited one when it is empty), past the newest
    ``containers_to_keep``.

    Go: pkg/kubelet/pod_container_deletor.go getContainersToDeleteInPod
    """
    matched_container: Status | None = None
    if filter_container_id != "":
        for container_status in pod_status.container_statuses:
            if container_status.id.id == filter_container_id:
                matched_container = container_status
                break

    if filter_container_id != "" and matched_container is None:
        klog.info_s("Container not found in pod's containers", containerID=filter_container_id)
        return []

    candidates = [
        container_status
        for container_status in pod_status.container_statuses
        if container_status.state == ContainerStateExited
        and (matched_container is None or matched_container.name == container_status.name)
    ]

    if len(candidates) <= containers_to_keep:
        return []
    # Newest first (Go: sort.Sort(containerStatusbyCreatedList), not stable; this sort is).
    candidates.sort(key=lambda s: s.created_at, reverse=True)
    return candidates[containers_to_keep:]
