"""Ours: what the simulated node measures, as kubelet's stats summary — for the eviction manager.

Not a port. On a real node kubelet's summary provider (Go: pkg/kubelet/server/stats/summary.go)
asks cAdvisor for the node's and the cgroups' memory and disks, and the container runtime for
its image filesystem and containers. Here [`SimulatedNode`][] computes the same
[`Summary`][minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1.Summary] from the fake runtime's
running containers and the scenario's usage script
([`minikubelet.sim.cri.usage_scenario`][minikubelet.sim.cri.usage_scenario] says how, and the format).
It is the smallest simulation that keeps the eviction manager's reading faithful: every field
[`make_signal_observations`][minikubelet.eviction.helpers.make_signal_observations] and the ranking
functions read is filled as cAdvisor fills it, and nothing else.
"""

from __future__ import annotations

from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1 import (
    ContainerStats,
    FsStats,
    MemoryStats,
    NodeStats,
    PodReference,
    PodStats,
    RlimitStats,
    RuntimeStats,
    Summary,
    SystemContainerPods,
)
from minikubelet.sim.cri.fake_records import Container, Sandbox
from minikubelet.sim.cri.fake_runtime import FakeRuntimeService
from minikubelet.sim.cri.usage_scenario import (
    ContainerUsage,
    FsScript,
    NodeUsageScript,
    usage_from_annotations,
)


class SimulatedNode:
    """The node's measurements: a [`SummaryProvider`][minikubelet.server.stats.summary.SummaryProvider]
    and a [`DiskInfoProvider`][minikubelet.eviction.types.DiskInfoProvider] (ours).

    ``memory_capacity`` is the machine's memory in bytes (cAdvisor's ``MachineInfo``).
    """

    def __init__(self, runtime: FakeRuntimeService, memory_capacity: int) -> None:
        self.runtime = runtime
        self.memory_capacity = memory_capacity

    @property
    def script(self) -> NodeUsageScript:
        return self.runtime.scenario.node_usage

    def has_dedicated_image_fs(self) -> bool:
        """Whether the scenario gives images a filesystem of their own (``node: imagefs``)."""
        return self.script.imagefs is not None

    def get(self, update_stats: bool) -> Summary:
        """Measure now. ``update_stats`` asks cAdvisor for fresh numbers; these are always fresh."""
        now = self.runtime.clock.now()
        # Whole nanoseconds, as Go's durations: the virtual clock's float sums drift below them.
        t = round(self.runtime.elapsed(), 9)
        script = self.script
        pods = self._pod_stats(now)

        pods_working_set = sum(_memory(p) for p in pods)
        logs = sum(_used(c.logs) for p in pods for c in p.containers)
        rootfs = sum(_used(c.rootfs) for p in pods for c in p.containers)

        node_working_set = script.memory.at(t) + pods_working_set
        image_fs_script = script.imagefs
        if image_fs_script is None:
            # One disk for everything: the image filesystem is the node's.
            node_fs = _fs(script.nodefs, t, logs + rootfs, now)
            image_fs = node_fs
        else:
            node_fs = _fs(script.nodefs, t, logs, now)
            image_fs = _fs(image_fs_script, t, rootfs, now)
        return Summary(
            node=NodeStats(
                memory=_memory_stats(self.memory_capacity, node_working_set, now),
                # The pods' cgroup: limited to the machine's memory (nothing reserved here).
                system_containers=[
                    ContainerStats(
                        name=SystemContainerPods,
                        memory=_memory_stats(self.memory_capacity, pods_working_set, now),
                    )
                ],
                fs=node_fs,
                runtime=RuntimeStats(image_fs=image_fs),
                rlimit=RlimitStats(
                    time=now,
                    max_pid=script.pids.max,
                    num_of_running_processes=script.pids.used.at(t),
                ),
            ),
            pods=pods,
        )

    def _pod_stats(self, now: float) -> list[PodStats]:
        """One entry per pod with a ready sandbox, with its running containers."""
        rt = self.runtime
        by_sandbox: dict[str, list[Container]] = {}
        for c in rt.containers.values():
            if c.state == runtimeapi.ContainerState_CONTAINER_RUNNING and (
                c.end_at is None or c.end_at > round(now * 1e9)
            ):
                by_sandbox.setdefault(c.sandbox_id, []).append(c)
        result: list[PodStats] = []
        for sandbox in rt.sandboxes.values():
            if sandbox.state != runtimeapi.PodSandboxState_SANDBOX_READY:
                continue
            meta = sandbox.config.metadata or runtimeapi.PodSandboxMetadata()
            usage = self._usage_of(sandbox, f"{meta.namespace}/{meta.name}")
            containers = [
                _container_stats(c, usage.get(_name(c)), now)
                for c in by_sandbox.get(sandbox.id, [])
            ]
            memory = sum(_memory_of(c) for c in containers)
            disk = sum(_used(c.rootfs) + _used(c.logs) for c in containers)
            result.append(
                PodStats(
                    pod_ref=PodReference(
                        name=meta.name, namespace=meta.namespace, uid=sandbox.pod_uid
                    ),
                    start_time=sandbox.created_at / 1e9,
                    containers=containers,
                    memory=MemoryStats(time=now, working_set_bytes=memory, usage_bytes=memory),
                    ephemeral_storage=FsStats(time=now, used_bytes=disk),
                )
            )
        return result

    def _usage_of(self, sandbox: Sandbox, pod: str) -> dict[str, ContainerUsage]:
        """The pod's usage script: its annotation (checked when its sandbox was made), else the
        scenario file's entry."""
        usage = usage_from_annotations(sandbox.config.annotations or {}, pod)
        if usage is None:
            usage = self.runtime.scenario.usage.get(pod, {})
        return usage


def _name(c: Container) -> str:
    return c.config.metadata.name if c.config.metadata is not None else ""


def _container_stats(c: Container, usage: ContainerUsage | None, now: float) -> ContainerStats:
    """A running container's stats; its levels count from its start."""
    started = c.started_at / 1e9
    since = max(0.0, round(now - started, 9))
    u = usage if usage is not None else ContainerUsage()
    memory = u.memory.at(since)
    return ContainerStats(
        name=_name(c),
        start_time=started,
        memory=MemoryStats(time=now, working_set_bytes=memory, usage_bytes=memory),
        rootfs=FsStats(time=now, used_bytes=u.rootfs.at(since)),
        logs=FsStats(time=now, used_bytes=u.logs.at(since)),
    )


def _memory_stats(capacity: int, working_set: int, now: float) -> MemoryStats:
    """cAdvisor's memory of a cgroup with a limit: available = limit − working set (never < 0)."""
    return MemoryStats(
        time=now,
        available_bytes=max(0, capacity - working_set),
        usage_bytes=working_set,
        working_set_bytes=working_set,
    )


def _fs(script: FsScript, t: float, containers_used: int, now: float) -> FsStats:
    used = script.used.at(t) + containers_used
    inodes_used = script.inodes_used.at(t)
    return FsStats(
        time=now,
        available_bytes=max(0, script.capacity - used),
        capacity_bytes=script.capacity,
        used_bytes=used,
        inodes_free=max(0, script.inodes - inodes_used),
        inodes=script.inodes,
        inodes_used=inodes_used,
    )


def _memory(p: PodStats) -> int:
    return p.memory.working_set_bytes or 0 if p.memory is not None else 0


def _memory_of(c: ContainerStats) -> int:
    return c.memory.working_set_bytes or 0 if c.memory is not None else 0


def _used(fs: FsStats | None) -> int:
    return fs.used_bytes or 0 if fs is not None else 0
