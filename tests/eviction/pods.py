"""Pods and stats for the eviction tests, shaped as kubelet's own eviction tests make them."""

from __future__ import annotations

from minikubelet.k8s_io.api.core.v1 import (
    Container,
    Pod,
    PodSpec,
    ResourceList,
    ResourceRequirements,
    Volume,
)
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.apimachinery.pkg.apis.meta.v1 import ObjectMeta
from minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1 import (
    ContainerStats,
    FsStats,
    MemoryStats,
    PodReference,
    PodStats,
    VolumeStats,
)

LOW, DEFAULT, HIGH = -1, 0, 1


def resources(cpu: str = "", memory: str = "", disk: str = "") -> ResourceList:
    out: ResourceList = {}
    if cpu:
        out["cpu"] = Quantity.parse(cpu)
    if memory:
        out["memory"] = Quantity.parse(memory)
    if disk:
        out["ephemeral-storage"] = Quantity.parse(disk)
    return out


def pod(
    name: str,
    priority: int = DEFAULT,
    requests: ResourceList | None = None,
    limits: ResourceList | None = None,
    *,
    volumes: list[Volume] | None = None,
    annotations: dict[str, str] | None = None,
) -> Pod:
    """A pod of one container named after it, in namespace ``default``, UID ``uid-<name>``."""
    return Pod(
        metadata=ObjectMeta(
            name=name, namespace="default", uid=f"uid-{name}", annotations=dict(annotations or {})
        ),
        spec=PodSpec(
            priority=priority,
            volumes=list(volumes or []),
            containers=[
                Container(
                    name=name,
                    image="busybox",
                    resources=ResourceRequirements(
                        requests=dict(requests or {}), limits=dict(limits or {})
                    ),
                )
            ],
        ),
    )


def ref(p: Pod) -> PodReference:
    return PodReference(name=p.metadata.name, namespace=p.metadata.namespace, uid=p.metadata.uid)


def memory_stats(p: Pod, working_set: str) -> PodStats:
    """Each container uses ``working_set`` (and the pod all of them)."""
    ws = Quantity.parse(working_set).value()
    return PodStats(
        pod_ref=ref(p),
        memory=MemoryStats(working_set_bytes=ws * len(p.spec.containers)),
        containers=[
            ContainerStats(name=c.name, memory=MemoryStats(working_set_bytes=ws))
            for c in p.spec.containers
        ],
    )


def disk_stats(
    p: Pod, rootfs: str, logs: str, per_local_volume: str, *, field: str = "used_bytes"
) -> PodStats:
    """Each container writes ``rootfs`` and ``logs``; each volume holds ``per_local_volume``
    (bytes, or inodes with ``field="inodes_used"``)."""

    def fs(amount: str) -> FsStats:
        return FsStats(**{field: Quantity.parse(amount).value()})

    return PodStats(
        pod_ref=ref(p),
        containers=[
            ContainerStats(name=c.name, rootfs=fs(rootfs), logs=fs(logs)) for c in p.spec.containers
        ],
        volume_stats=[
            VolumeStats(name=v.name, fs_stats=fs(per_local_volume)) for v in p.spec.volumes
        ],
    )


def inode_stats(p: Pod, rootfs: str, logs: str, per_local_volume: str) -> PodStats:
    """As [`disk_stats`][], in inodes."""
    return disk_stats(p, rootfs, logs, per_local_volume, field="inodes_used")


def stats_of(table: dict[str, PodStats]):
    """A statsFunc over pod names."""

    def stats(p: Pod) -> tuple[PodStats | None, bool]:
        s = table.get(p.metadata.name)
        return s, s is not None

    return stats


def empty_dir(name: str = "local-volume") -> Volume:
    return Volume(name=name, volume_source={"emptyDir": {}})
