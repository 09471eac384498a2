"""The eviction manager: pressure, grace periods, min-reclaim, the transition period, admission,
critical pods and node-level reclaim.

The scenarios and their expected outcomes are those of kubelet's own tests in
pkg/kubelet/eviction/eviction_manager_test.go (TestMemoryPressure, TestAdmitUnderNodeConditions,
TestMinReclaim, TestNodeReclaimFuncs, TestCriticalPodsAreNotEvicted), restated in our code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minikubelet import go
from minikubelet.eviction.api import (
    SignalMemoryAvailable,
    SignalNodeFsAvailable,
    Threshold,
    ThresholdValue,
)
from minikubelet.eviction.eviction_manager import ManagerImpl, new_manager
from minikubelet.eviction.types import Config
from minikubelet.k8s_io.api.core.v1 import (
    NodeDiskPressure,
    NodeMemoryPressure,
    ObjectReference,
    Pod,
    PodStatus,
    Toleration,
)
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1 import (
    ContainerStats,
    FsStats,
    MemoryStats,
    NodeStats,
    PodStats,
    RuntimeStats,
    Summary,
)
from minikubelet.lifecycle.interfaces import PodAdmitAttributes
from tests.eviction.pods import DEFAULT, HIGH, LOW, disk_stats, memory_stats, pod, resources

Q = Quantity.parse


class FakeClock:
    """The manager reads only ``now()``; a test steps it."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def now(self) -> float:
        return self.t

    def step(self, seconds: float) -> None:
        self.t += seconds


@dataclass
class FakeSummaryProvider:
    result: Summary

    def get(self, update_stats: bool) -> Summary:
        return self.result


@dataclass
class DiskInfo:
    dedicated: bool = False

    def has_dedicated_image_fs(self) -> bool:
        return self.dedicated


@dataclass
class PodKiller:
    """Records what the manager asks to kill."""

    killed: list[tuple[Pod, PodStatus, int | None]] = field(default_factory=list)

    async def kill(self, p: Pod, status: PodStatus, grace_period_override: int | None) -> None:
        self.killed.append((p, status, grace_period_override))

    def take(self) -> tuple[Pod, PodStatus, int | None] | None:
        got = self.killed[-1] if self.killed else None
        self.killed.clear()
        return got


@dataclass
class DiskGC:
    """Frees disk: after a GC the summary becomes ``after_gc`` (when given)."""

    provider: FakeSummaryProvider
    after_gc: Summary | None = None
    image_gc: bool = False
    container_gc: bool = False

    async def delete_unused_images(self) -> None:
        self.image_gc = True
        if self.after_gc is not None:
            self.provider.result = self.after_gc

    async def delete_all_unused_containers(self) -> None:
        self.container_gc = True
        if self.after_gc is not None:
            self.provider.result = self.after_gc


def memory_summary(available: str, stats: list[PodStats]) -> Summary:
    """The node and the pods' cgroup both with ``available`` free and as much in use."""
    value = Q(available).value()
    return Summary(
        node=NodeStats(
            memory=MemoryStats(available_bytes=value, working_set_bytes=value),
            system_containers=[
                ContainerStats(
                    name="pods", memory=MemoryStats(available_bytes=value, working_set_bytes=value)
                )
            ],
        ),
        pods=list(stats),
    )


def disk_summary(root_fs_available: str, image_fs_available: str, stats: list[PodStats]) -> Summary:
    root, image = Q(root_fs_available).value(), Q(image_fs_available).value()
    return Summary(
        node=NodeStats(
            fs=FsStats(available_bytes=root, capacity_bytes=2 * root),
            runtime=RuntimeStats(image_fs=FsStats(available_bytes=image, capacity_bytes=2 * image)),
        ),
        pods=list(stats),
    )


MEMORY_PODS = [
    # (name, priority, requests, limits, working set)
    (
        "guaranteed-low-priority-high-usage",
        LOW,
        resources("100m", "1Gi"),
        resources("100m", "1Gi"),
        "900Mi",
    ),
    (
        "burstable-below-requests",
        DEFAULT,
        resources("100m", "100Mi"),
        resources("200m", "1Gi"),
        "50Mi",
    ),
    (
        "burstable-above-requests",
        DEFAULT,
        resources("100m", "100Mi"),
        resources("200m", "1Gi"),
        "400Mi",
    ),
    ("best-effort-high-priority-high-usage", HIGH, {}, {}, "400Mi"),
    ("best-effort-low-priority-low-usage", LOW, {}, {}, "100Mi"),
]


def memory_pods() -> tuple[list[Pod], list[PodStats]]:
    pods, stats = [], []
    for name, prio, req, lim, ws in MEMORY_PODS:
        p = pod(name, prio, req, lim)
        pods.append(p)
        stats.append(memory_stats(p, ws))
    return pods, stats


def make_manager(
    thresholds: list[Threshold], summary: Summary, killer: PodKiller, gc: DiskGC | None = None
) -> tuple[ManagerImpl, FakeSummaryProvider, FakeClock, Recorder]:
    provider = FakeSummaryProvider(summary)
    clock = FakeClock()
    recorder = Recorder()
    disk_gc = gc if gc is not None else DiskGC(provider)
    disk_gc.provider = provider
    manager, admit_handler = new_manager(
        provider,
        Config(
            pressure_transition_period=300, max_pod_grace_period_seconds=5, thresholds=thresholds
        ),
        killer.kill,
        lambda p: (None, False),
        disk_gc,
        disk_gc,
        recorder,
        ObjectReference(kind="Node", name="test", uid="test"),
        clock,  # type: ignore[arg-type]
    )
    assert admit_handler is manager
    return manager, provider, clock, recorder


def admits(manager: ManagerImpl, p: Pod) -> bool:
    return go.run(manager.admit, PodAdmitAttributes(pod=p)).admit


def sync(
    manager: ManagerImpl, pods: list[Pod], disk_info: DiskInfo | None = None
) -> list[Pod] | None:
    return go.run(manager.synchronize, disk_info or DiskInfo(), lambda: list(pods))


HARD_1GI = Threshold(SignalMemoryAvailable, value=ThresholdValue(quantity=Q("1Gi")))
SOFT_2GI = Threshold(
    SignalMemoryAvailable, value=ThresholdValue(quantity=Q("2Gi")), grace_period=120
)


def test_memory_pressure_soft_then_hard_then_transition_period():
    pods, stats = memory_pods()
    to_evict = pods[4]  # best-effort-low-priority-low-usage
    killer = PodKiller()
    manager, provider, clock, recorder = make_manager(
        [HARD_1GI, SOFT_2GI], memory_summary("2Gi", stats), killer
    )
    best_effort = pod("best-admit")
    burstable = pod("burst-admit", DEFAULT, resources("100m", "100Mi"), resources("200m", "200Mi"))

    sync(manager, pods)
    assert not manager.is_under_memory_pressure()
    assert admits(manager, best_effort) and admits(manager, burstable)

    # The soft threshold is met: pressure at once, but no eviction before its grace period.
    clock.step(60)
    provider.result = memory_summary("1500Mi", stats)
    sync(manager, pods)
    assert manager.is_under_memory_pressure()
    assert killer.take() is None

    # Past the grace period: the first-ranked pod is evicted with the soft grace period.
    clock.step(180)
    sync(manager, pods)
    assert manager.is_under_memory_pressure()
    killed = killer.take()
    assert killed is not None
    assert killed[0] is to_evict and killed[2] == 5
    assert killed[1].phase == "Failed" and killed[1].reason == "Evicted"
    assert killed[1].message == (
        "The node was low on resource: memory. Container best-effort-low-priority-low-usage "
        "was using 100Mi, which exceeds its request of 0. "
    )

    # Pressure gone.
    clock.step(20 * 60)
    provider.result = memory_summary("3Gi", stats)
    sync(manager, pods)
    assert not manager.is_under_memory_pressure()

    # The hard threshold: evicted at once, with no grace period; BestEffort pods are refused.
    clock.step(60)
    provider.result = memory_summary("500Mi", stats)
    sync(manager, pods)
    assert manager.is_under_memory_pressure()
    killed = killer.take()
    assert killed is not None and killed[0] is to_evict and killed[2] == 0
    assert not admits(manager, best_effort) and admits(manager, burstable)

    # Memory back, but the condition stays for the transition period (5 min).
    clock.step(60)
    provider.result = memory_summary("2Gi", stats)
    sync(manager, pods)
    assert manager.is_under_memory_pressure()
    assert killer.take() is None
    assert not admits(manager, best_effort) and admits(manager, burstable)

    clock.step(5 * 60)
    sync(manager, pods)
    assert not manager.is_under_memory_pressure()
    assert killer.take() is None
    assert admits(manager, best_effort) and admits(manager, burstable)

    # The node was told why, and the pod has its Evicted event.
    reasons = [(e.object.name, e.reason) for e in recorder.events]
    assert reasons.count(("test", "EvictionThresholdMet")) == 2
    evicted = [e for e in recorder.events if e.reason == "Evicted"]
    assert len(evicted) == 2 and evicted[0].annotations == {
        "offending_containers": "best-effort-low-priority-low-usage",
        "offending_containers_usage": "100Mi",
        "starved_resource": "memory",
    }


def test_admit_under_node_conditions():
    guaranteed = pod("guaranteed-pod", DEFAULT, resources("100m", "1Gi"), resources("100m", "1Gi"))
    burstable = pod("burstable-pod", DEFAULT, resources("100m", "1Gi"))
    best_effort = pod("best-effort-pod")
    manager, *_ = make_manager([], memory_summary("1Gi", []), PodKiller())
    pods = [guaranteed, burstable, best_effort]

    assert [admits(manager, p) for p in pods] == [True, True, True]
    manager.node_conditions = [NodeMemoryPressure]
    assert [admits(manager, p) for p in pods] == [True, True, False]
    manager.node_conditions = [NodeMemoryPressure, NodeDiskPressure]
    assert [admits(manager, p) for p in pods] == [False, False, False]


def test_refusal_reason_and_message():
    manager, *_ = make_manager([], memory_summary("1Gi", []), PodKiller())
    manager.node_conditions = [NodeMemoryPressure]
    result = go.run(manager.admit, PodAdmitAttributes(pod=pod("best-effort-pod")))
    assert (result.admit, result.reason, result.message) == (
        False,
        "Evicted",
        "The node had condition: [MemoryPressure]. ",
    )


def test_a_best_effort_pod_tolerating_memory_pressure_is_admitted():
    manager, *_ = make_manager([], memory_summary("1Gi", []), PodKiller())
    manager.node_conditions = [NodeMemoryPressure]
    tolerant = pod("tolerant")
    tolerant.spec.tolerations = [
        Toleration(key="node.kubernetes.io/memory-pressure", operator="Exists", effect="NoSchedule")
    ]
    disk_only = pod("disk-only")
    disk_only.spec.tolerations = [
        Toleration(key="node.kubernetes.io/disk-pressure", operator="Exists")
    ]
    assert admits(manager, tolerant)
    assert not admits(manager, disk_only)
    # Under disk pressure too, the toleration does not help.
    manager.node_conditions = [NodeMemoryPressure, NodeDiskPressure]
    assert not admits(manager, tolerant)


def test_critical_pods_are_admitted_and_never_evicted():
    static = pod("static", LOW, annotations={"kubernetes.io/config.source": "file"})
    killer = PodKiller()
    manager, *_ = make_manager(
        [HARD_1GI], memory_summary("500Mi", [memory_stats(static, "400Mi")]), killer
    )
    assert sync(manager, [static]) is None
    assert killer.take() is None
    assert manager.is_under_memory_pressure()
    assert admits(manager, pod("static2", annotations={"kubernetes.io/config.source": "file"}))


def test_min_reclaim_keeps_evicting_until_it_is_freed():
    pods, stats = memory_pods()
    to_evict = pods[4]
    killer = PodKiller()
    threshold = Threshold(
        SignalMemoryAvailable,
        value=ThresholdValue(quantity=Q("1Gi")),
        min_reclaim=ThresholdValue(quantity=Q("500Mi")),
    )
    manager, provider, clock, _ = make_manager([threshold], memory_summary("2Gi", stats), killer)

    sync(manager, pods)
    assert not manager.is_under_memory_pressure()

    clock.step(60)
    provider.result = memory_summary("500Mi", stats)
    sync(manager, pods)
    killed = killer.take()
    assert manager.is_under_memory_pressure() and killed is not None and killed[0] is to_evict

    # Above the threshold but under threshold + min-reclaim: still evicting.
    clock.step(60)
    provider.result = memory_summary("1.2Gi", stats)
    sync(manager, pods)
    killed = killer.take()
    assert manager.is_under_memory_pressure() and killed is not None and killed[0] is to_evict

    # Min-reclaim freed: no more evictions; the condition waits for its transition period.
    clock.step(60)
    provider.result = memory_summary("2Gi", stats)
    sync(manager, pods)
    assert manager.is_under_memory_pressure() and killer.take() is None

    clock.step(5 * 60)
    sync(manager, pods)
    assert not manager.is_under_memory_pressure() and killer.take() is None


def test_node_reclaim_before_eviction():
    disk_pods = [
        ("low-priority-high-usage", LOW, "900Mi", ""),
        ("below-requests", DEFAULT, "", "50Mi"),
        ("above-requests", DEFAULT, "400Mi", ""),
        ("low-priority-low-usage", LOW, "100Mi", ""),
    ]
    pods, stats = [], []
    for name, prio, rootfs, logs in disk_pods:
        p = pod(name, prio, resources("100m", "1Gi"), resources("100m", "1Gi"))
        pods.append(p)
        stats.append(disk_stats(p, rootfs or "0", logs or "0", "0"))
    killer = PodKiller()
    hard = Threshold(
        SignalNodeFsAvailable,
        value=ThresholdValue(quantity=Q("1Gi")),
        min_reclaim=ThresholdValue(quantity=Q("500Mi")),
    )
    gc = DiskGC(provider=None)  # type: ignore[arg-type]
    manager, provider, clock, _ = make_manager(
        [hard], disk_summary("16Gi", "200Gi", stats), killer, gc
    )

    sync(manager, pods)
    assert not manager.is_under_disk_pressure()

    # Disk pressure, and garbage collection frees enough: nothing is evicted.
    clock.step(60)
    provider.result = disk_summary(".9Gi", "200Gi", stats)
    gc.after_gc = disk_summary("16Gi", "200Gi", stats)
    sync(manager, pods)
    assert manager.is_under_disk_pressure()
    assert gc.image_gc and gc.container_gc
    assert killer.take() is None

    # Pressure again, and garbage collection frees too little: the top pod goes.
    gc.image_gc = gc.container_gc = False
    clock.step(60)
    provider.result = disk_summary(".9Gi", "200Gi", stats)
    gc.after_gc = None
    sync(manager, pods)
    assert gc.image_gc and gc.container_gc
    killed = killer.take()
    assert killed is not None and killed[0] is pods[0] and killed[2] == 0


def test_the_monitor_waits_for_the_evicted_pod_to_be_cleaned_up():
    """Start: a pass every 10 s; after an eviction, the next pass waits until the pod is gone
    (polling every second) — here it never is, so 30 s pass first."""
    pods, stats = memory_pods()
    killer = PodKiller()
    manager, *_ = make_manager([HARD_1GI], memory_summary("500Mi", stats), killer)
    passes: list[float] = []
    real_sync = manager.synchronize

    async def counting(disk_info, pod_func):
        passes.append(go.current_runtime().clock.monotonic())
        return await real_sync(disk_info, pod_func)

    manager.synchronize = counting  # type: ignore[method-assign]

    async def main() -> None:
        manager.clock = go.current_runtime().clock
        manager.start(DiskInfo(), lambda: list(pods), lambda p: False, 10)
        await go.sleep(75)

    go.run(main)
    # 0 s: evicts; waits 30 s (timed out); 30 s: evicts; waits; 60 s: evicts.
    assert passes == [0, 30, 60]
    assert len(killer.killed) == 3
