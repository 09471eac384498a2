"""Container garbage collection: removing dead containers and sandboxes from the runtime.

Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go

Every minute kubelet asks its runtime to collect garbage
([`Kubelet.start_garbage_collection`][minikubelet.kubelet.Kubelet.start_garbage_collection]).
Without it, each restart of a crash-looping container leaves one more exited container behind,
and every relist, status and sync of the pod gets slower as they pile up. With v1.21's defaults
(``MinAge`` 0, ``MaxPerPodContainer`` 1, ``MaxContainers`` -1) kubelet keeps the newest dead
container of each (pod, container name), which ``kubectl logs --previous`` reads, and the newest
sandbox of each pod that still exists.

Kubelet never collects a running container, a ready sandbox, or a sandbox that still holds a
container.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from minikubelet.container.container_gc import GCPolicy
from minikubelet.container.runtime import ContainerID
from minikubelet.go import now
from minikubelet.k8s_io.apimachinery.pkg.util.errors.errors import new_aggregate
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.cri_api.pkg.apis.services import RuntimeService
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kuberuntime.labels import get_container_info_from_labels

if TYPE_CHECKING:
    from minikubelet.kuberuntime.kuberuntime_manager import (
        KubeGenericRuntimeManager,
        PodStateProvider,
    )


class ContainerGC:
    """The runtime manager's garbage collector.

    Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go type containerGC
    """

    def __init__(
        self,
        client: RuntimeService,
        pod_state_provider: PodStateProvider,
        manager: KubeGenericRuntimeManager,
    ) -> None:
        self.client = client
        self.manager = manager
        self.pod_state_provider = pod_state_provider

    async def enforce_max_containers_per_evict_unit(
        self, evict_units: ContainersByEvictUnit, max_containers: int
    ) -> None:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go (*containerGC).enforceMaxContainersPerEvictUnit"""
        for key in evict_units:
            to_remove = len(evict_units[key]) - max_containers

            if to_remove > 0:
                evict_units[key] = await self.remove_oldest_n(evict_units[key], to_remove)

    async def remove_oldest_n(
        self, containers: list[ContainerGCInfo], to_remove: int
    ) -> list[ContainerGCInfo]:
        """Remove the ``to_remove`` oldest containers, oldest first; return the ones kept.

        Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go (*containerGC).removeOldestN
        """
        from minikubelet.kuberuntime.kuberuntime_manager import reasonUnknown  # (import cycle)

        num_to_keep = len(containers) - to_remove
        if num_to_keep > 0:
            containers.sort(key=by_created)
        # Go walks the slice from its end: after the sort above, from the oldest.
        for i in range(len(containers) - 1, num_to_keep - 1, -1):
            if containers[i].unknown:
                # A container in an unknown state may still run: stop it first.
                id = ContainerID(type=self.manager.runtime_name, id=containers[i].id)
                message = "Container is in unknown state, try killing it before removal"
                err = await self.manager.kill_container(
                    None, id, containers[i].name, message, reasonUnknown, None
                )
                if err is not None:
                    klog.error_s(err, "Failed to stop container", containerID=containers[i].id)
                    continue
            err = await self.manager.remove_container(containers[i].id)
            if err is not None:
                klog.error_s(err, "Failed to remove container", containerID=containers[i].id)

        # Counted as removed even where a removal failed, so that the next pass is no harsher.
        return containers[:num_to_keep]

    async def remove_oldest_n_sandboxes(
        self, sandboxes: list[SandboxGCInfo], to_remove: int
    ) -> None:
        """Remove the inactive ones among the ``to_remove`` oldest sandboxes.

        Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go (*containerGC).removeOldestNSandboxes
        """
        num_to_keep = len(sandboxes) - to_remove
        if num_to_keep > 0:
            sandboxes.sort(key=sandbox_by_created)
        for i in range(len(sandboxes) - 1, num_to_keep - 1, -1):
            if not sandboxes[i].active:
                await self.remove_sandbox(sandboxes[i].id)

    async def remove_sandbox(self, sandbox_id: str) -> None:
        """Stop the sandbox (should kubelet not have stopped it yet), then remove it.

        Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go (*containerGC).removeSandbox
        """
        klog.v(4).info_s("Removing sandbox", sandboxID=sandbox_id)
        try:
            await self.client.stop_pod_sandbox(sandbox_id)
        except Exception as err:
            klog.error_s(err, "Failed to stop sandbox before removing", sandboxID=sandbox_id)
            return
        try:
            await self.client.remove_pod_sandbox(sandbox_id)
        except Exception as err:
            klog.error_s(err, "Failed to remove sandbox", sandboxID=sandbox_id)

    async def evictable_containers(self, min_age: float) -> ContainersByEvictUnit:
        """The containers that are not running and were created at least ``min_age`` seconds
        ago, grouped by (pod UID, container name). Raises the runtime's error.

        Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go (*containerGC).evictableContainers
        """
        containers = await self.manager.get_kubelet_containers(True)

        evict_units = ContainersByEvictUnit()
        # In nanoseconds, the unit of the runtime's creation times (Go compares time.Time values).
        newest_gc_time = round(now().add(-min_age) * 1e9)
        for container in containers:
            if container.state == runtimeapi.ContainerState_CONTAINER_RUNNING:
                continue

            created_at = container.created_at
            if newest_gc_time < created_at:
                continue

            labeled_info = get_container_info_from_labels(container.labels)
            container_info = ContainerGCInfo(
                id=container.id,
                name=container.metadata.name if container.metadata is not None else "",
                create_time=created_at,
                unknown=container.state == runtimeapi.ContainerState_CONTAINER_UNKNOWN,
            )
            key = EvictUnit(uid=labeled_info.pod_uid, name=container_info.name)
            evict_units.setdefault(key, []).append(container_info)

        return evict_units

    async def evict_containers(
        self, gc_policy: GCPolicy, all_sources_ready: bool, evict_terminated_pods: bool
    ) -> Exception | None:
        """Remove the dead containers the policy does not keep.

        Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go (*containerGC).evictContainers
        """
        try:
            evict_units = await self.evictable_containers(gc_policy.min_age)
        except Exception as err:
            return err

        # Only once every source has been seen: before that, a pod not yet known to kubelet
        # would look deleted.
        if all_sources_ready:
            for key, unit in list(evict_units.items()):
                if self.pod_state_provider.is_pod_deleted(key.uid) or (
                    self.pod_state_provider.is_pod_terminated(key.uid) and evict_terminated_pods
                ):
                    await self.remove_oldest_n(unit, len(unit))
                    del evict_units[key]

        if gc_policy.max_per_pod_container >= 0:
            await self.enforce_max_containers_per_evict_unit(
                evict_units, gc_policy.max_per_pod_container
            )

        if (
            gc_policy.max_containers >= 0
            and evict_units.num_containers() > gc_policy.max_containers
        ):
            # The same share for every evict unit, at least one each.
            num_containers_per_evict_unit = (
                gc_policy.max_containers // evict_units.num_evict_units()
            )
            if num_containers_per_evict_unit < 1:
                num_containers_per_evict_unit = 1
            await self.enforce_max_containers_per_evict_unit(
                evict_units, num_containers_per_evict_unit
            )

            # Still too many: the oldest go, whichever pod they belong to.
            num_containers = evict_units.num_containers()
            if num_containers > gc_policy.max_containers:
                flattened: list[ContainerGCInfo] = []
                for key in evict_units:
                    flattened.extend(evict_units[key])
                flattened.sort(key=by_created)

                await self.remove_oldest_n(flattened, num_containers - gc_policy.max_containers)
        return None

    async def evict_sandboxes(self, evict_terminated_pods: bool) -> Exception | None:
        """Remove the sandboxes that are not ready, hold no container, and are not the newest
        of a pod that still exists.

        Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go (*containerGC).evictSandboxes
        """
        try:
            containers = await self.manager.get_kubelet_containers(True)
        except Exception as err:
            return err

        try:
            sandboxes = await self.manager.get_kubelet_sandboxes(True)
        except Exception as err:
            return err

        sandbox_ids = {container.pod_sandbox_id for container in containers}

        sandboxes_by_pod: dict[str, list[SandboxGCInfo]] = {}
        for sandbox in sandboxes:
            pod_uid = sandbox.metadata.uid if sandbox.metadata is not None else ""
            sandbox_info = SandboxGCInfo(id=sandbox.id, create_time=sandbox.created_at)

            if sandbox.state == runtimeapi.PodSandboxState_SANDBOX_READY:
                sandbox_info.active = True

            if sandbox.id in sandbox_ids:
                sandbox_info.active = True

            sandboxes_by_pod.setdefault(pod_uid, []).append(sandbox_info)

        for pod_uid, pod_sandboxes in sandboxes_by_pod.items():
            if self.pod_state_provider.is_pod_deleted(pod_uid) or (
                self.pod_state_provider.is_pod_terminated(pod_uid) and evict_terminated_pods
            ):
                # The pod is gone: every inactive sandbox goes, the newest one too.
                await self.remove_oldest_n_sandboxes(pod_sandboxes, len(pod_sandboxes))
            else:
                # The pod still exists: its newest sandbox stays, active or not.
                await self.remove_oldest_n_sandboxes(pod_sandboxes, len(pod_sandboxes) - 1)
        return None

    async def garbage_collect(
        self, gc_policy: GCPolicy, all_sources_ready: bool, evict_terminated_pods: bool
    ) -> Exception | None:
        """Remove dead containers by the policy, then the sandboxes left empty.

        Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go (*containerGC).GarbageCollect
        """
        errors: list[Exception] = []
        err = await self.evict_containers(gc_policy, all_sources_ready, evict_terminated_pods)
        if err is not None:
            errors.append(err)

        err = await self.evict_sandboxes(evict_terminated_pods)
        if err is not None:
            errors.append(err)

        # Go omitted: if err := cgc.evictPodLogsDirectories(allSourcesReady); err != nil { -- the port writes no log files or directories
        return new_aggregate(errors)


def new_container_gc(
    client: RuntimeService,
    pod_state_provider: PodStateProvider,
    manager: KubeGenericRuntimeManager,
) -> ContainerGC:
    """Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go newContainerGC"""
    return ContainerGC(client, pod_state_provider, manager)


@dataclass(slots=True)
class ContainerGCInfo:
    """A dead container the collector may remove.

    Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go type containerGCInfo
    """

    id: str
    name: str
    #: Nanoseconds since the epoch, as the runtime reports it.
    create_time: int
    #: In an unknown state: it is stopped before it is removed.
    unknown: bool


@dataclass(slots=True)
class SandboxGCInfo:
    """A sandbox the collector may remove.

    Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go type sandboxGCInfo
    """

    id: str
    #: Nanoseconds since the epoch, as the runtime reports it.
    create_time: int
    #: Ready, or still holding a container: never removed.
    active: bool = False


@dataclass(frozen=True, slots=True)
class EvictUnit:
    """The unit kept or removed together: one container name of one pod.

    Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go type evictUnit
    """

    uid: str
    name: str


class ContainersByEvictUnit(dict[EvictUnit, list[ContainerGCInfo]]):
    """Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go type containersByEvictUnit"""

    def num_containers(self) -> int:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go (containersByEvictUnit).NumContainers"""
        return sum(len(units) for units in self.values())

    def num_evict_units(self) -> int:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go (containersByEvictUnit).NumEvictUnits"""
        return len(self)


def by_created(c: ContainerGCInfo) -> int:
    """Sort key: newest first.

    Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go type byCreated
    """
    return -c.create_time


def sandbox_by_created(s: SandboxGCInfo) -> int:
    """Sort key: newest first.

    Go: pkg/kubelet/kuberuntime/kuberuntime_gc.go type sandboxByCreated
    """
    return -s.create_time
