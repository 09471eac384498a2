"""The eviction helpers: thresholds from flags, which are met, the conditions they raise, and the
order pods are evicted in.

The cases' inputs and expected outcomes are those of kubelet's own tables in
pkg/kubelet/eviction/helpers_test.go (facts, restated here in our code).
"""

from __future__ import annotations

import pytest

from minikubelet.eviction.api import (
    OpLessThan,
    SignalAllocatableMemoryAvailable,
    SignalImageFsAvailable,
    SignalImageFsInodesFree,
    SignalMemoryAvailable,
    SignalNodeFsAvailable,
    SignalNodeFsInodesFree,
    SignalPIDAvailable,
    Threshold,
    ThresholdValue,
    to_float32,
)
from minikubelet.eviction.helpers import (
    compare_threshold_value,
    disk,
    eviction_message,
    exceed_disk_requests,
    exceed_memory_requests,
    make_signal_observations,
    memory,
    node_conditions,
    node_conditions_last_observed_at,
    node_conditions_observed_since,
    ordered_by,
    parse_threshold_config,
    pod_is_evicted,
    priority,
    rank_memory_pressure,
    resourceInodes,
    sort_by_eviction_priority,
    thresholds_first_observed_at,
    thresholds_met,
    thresholds_met_grace_period,
    thresholds_updated_stats,
)
from minikubelet.eviction.types import (
    SignalObservation,
    fsStatsLocalVolumeSource,
    fsStatsLogs,
    fsStatsRoot,
)
from minikubelet.k8s_io.api.core.v1 import NodeMemoryPressure, PodStatus
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1 import (
    ContainerStats,
    FsStats,
    MemoryStats,
    NodeStats,
    PodStats,
    RuntimeStats,
    Summary,
)
from tests.eviction.pods import (
    DEFAULT,
    HIGH,
    LOW,
    disk_stats,
    empty_dir,
    inode_stats,
    memory_stats,
    pod,
    ref,
    resources,
    stats_of,
)

Q = Quantity.parse
ALL_FS = [fsStatsRoot, fsStatsLogs, fsStatsLocalVolumeSource]


def q(value: str) -> ThresholdValue:
    return ThresholdValue(quantity=Q(value))


def pct(value: float) -> ThresholdValue:
    """A share, as a Go float32 literal holds it."""
    return ThresholdValue(percentage=to_float32(value))


def same(a: list[Threshold], b: list[Threshold]) -> bool:
    """Equal as sets, as kubelet's test compares them (Go parses the flags' maps in any order)."""

    def eq(x: Threshold, y: Threshold) -> bool:
        return (
            x.grace_period == y.grace_period
            and x.operator == y.operator
            and x.signal == y.signal
            and compare_threshold_value(x.value, y.value)
            and (
                (x.min_reclaim is None and y.min_reclaim is None)
                or (
                    x.min_reclaim is not None
                    and y.min_reclaim is not None
                    and compare_threshold_value(x.min_reclaim, y.min_reclaim)
                )
            )
        )

    return len(a) == len(b) and all(any(eq(x, y) for y in b) for x in a)


# --- ParseThresholdConfig -----------------------------------------------------------------------

PARSE_CASES = {
    "no values": ([], {}, {}, {}, {}, []),
    "all memory eviction values": (
        ["pods"],
        {"memory.available": "150Mi"},
        {"memory.available": "300Mi"},
        {"memory.available": "30s"},
        {"memory.available": "0"},
        [
            Threshold(SignalAllocatableMemoryAvailable, OpLessThan, q("150Mi"), 0, q("0")),
            Threshold(SignalMemoryAvailable, OpLessThan, q("150Mi"), 0, q("0")),
            Threshold(SignalMemoryAvailable, OpLessThan, q("300Mi"), 30, q("0")),
        ],
    ),
    "all memory eviction values in percentages": (
        [],
        {"memory.available": "10%"},
        {"memory.available": "30%"},
        {"memory.available": "30s"},
        {"memory.available": "5%"},
        [
            Threshold(SignalMemoryAvailable, OpLessThan, pct(0.1), 0, pct(0.05)),
            Threshold(SignalMemoryAvailable, OpLessThan, pct(0.3), 30, pct(0.05)),
        ],
    ),
    "disk eviction values": (
        [],
        {"imagefs.available": "150Mi", "nodefs.available": "100Mi"},
        {"imagefs.available": "300Mi", "nodefs.available": "200Mi"},
        {"imagefs.available": "30s", "nodefs.available": "30s"},
        {"imagefs.available": "2Gi", "nodefs.available": "1Gi"},
        [
            Threshold(SignalImageFsAvailable, OpLessThan, q("150Mi"), 0, q("2Gi")),
            Threshold(SignalNodeFsAvailable, OpLessThan, q("100Mi"), 0, q("1Gi")),
            Threshold(SignalImageFsAvailable, OpLessThan, q("300Mi"), 30, q("2Gi")),
            Threshold(SignalNodeFsAvailable, OpLessThan, q("200Mi"), 30, q("1Gi")),
        ],
    ),
    "inode eviction values": (
        [],
        {"imagefs.inodesFree": "150Mi", "nodefs.inodesFree": "100Mi"},
        {"imagefs.inodesFree": "300Mi", "nodefs.inodesFree": "200Mi"},
        {"imagefs.inodesFree": "30s", "nodefs.inodesFree": "30s"},
        {"imagefs.inodesFree": "2Gi", "nodefs.inodesFree": "1Gi"},
        [
            Threshold(SignalImageFsInodesFree, OpLessThan, q("150Mi"), 0, q("2Gi")),
            Threshold(SignalNodeFsInodesFree, OpLessThan, q("100Mi"), 0, q("1Gi")),
            Threshold(SignalImageFsInodesFree, OpLessThan, q("300Mi"), 30, q("2Gi")),
            Threshold(SignalNodeFsInodesFree, OpLessThan, q("200Mi"), 30, q("1Gi")),
        ],
    ),
    "disable via 0%": ([], {"memory.available": "0%"}, {"memory.available": "0%"}, {}, {}, []),
    "disable via 100%": (
        [],
        {"memory.available": "100%"},
        {"memory.available": "100%"},
        {},
        {},
        [],
    ),
}


@pytest.mark.parametrize("name", list(PARSE_CASES))
def test_parse_threshold_config(name):
    allocatable, hard, soft, grace, reclaim, expected = PARSE_CASES[name]
    assert same(parse_threshold_config(allocatable, hard, soft, grace, reclaim), expected)


BAD_CASES = {
    "invalid-signal": (
        {"mem.available": "150Mi"},
        {},
        {},
        {},
        "unsupported eviction signal mem.available",
    ),
    "hard-signal-negative": (
        {"memory.available": "-150Mi"},
        {},
        {},
        {},
        "eviction threshold memory.available must be positive: -150Mi",
    ),
    "hard-signal-negative-percentage": (
        {"memory.available": "-15%"},
        {},
        {},
        {},
        "eviction percentage threshold memory.available must be >= 0%: -15%",
    ),
    "soft-signal-negative": (
        {},
        {"memory.available": "-150Mi"},
        {},
        {},
        "eviction threshold memory.available must be positive: -150Mi",
    ),
    "valid-and-invalid-signal": (
        {"memory.available": "150Mi", "invalid.foo": "150Mi"},
        {},
        {},
        {},
        "unsupported eviction signal invalid.foo",
    ),
    "soft-no-grace-period": (
        {},
        {"memory.available": "150Mi"},
        {},
        {},
        "grace period must be specified for the soft eviction threshold memory.available",
    ),
    "soft-negative-grace-period": (
        {},
        {"memory.available": "150Mi"},
        {"memory.available": "-30s"},
        {},
        "invalid eviction grace period specified: -30s, must be a positive value",
    ),
    "negative-reclaim": (
        {},
        {},
        {},
        {"memory.available": "-300Mi"},
        "negative eviction minimum reclaim specified for memory.available",
    ),
    "over 100%": ({"memory.available": "101%"}, {}, {}, {}, "must be <= 100%: 101%"),
}


@pytest.mark.parametrize("name", list(BAD_CASES))
def test_parse_threshold_config_refuses_with_kubelets_message(name):
    hard, soft, grace, reclaim, message = BAD_CASES[name]
    with pytest.raises(ValueError, match=message.replace("+", r"\+")):
        parse_threshold_config([], hard, soft, grace, reclaim)


def test_v1_21_default_thresholds_and_their_allocatable_twin():
    from minikubelet.apis.config.types import KubeletConfiguration

    cfg = KubeletConfiguration()
    got = parse_threshold_config(
        cfg.enforce_node_allocatable,
        cfg.eviction_hard,
        cfg.eviction_soft,
        cfg.eviction_soft_grace_period,
        cfg.eviction_minimum_reclaim,
    )
    assert same(
        got,
        [
            Threshold(SignalMemoryAvailable, value=q("100Mi")),
            Threshold(SignalNodeFsAvailable, value=pct(0.1)),
            Threshold(SignalNodeFsInodesFree, value=pct(0.05)),
            Threshold(SignalImageFsAvailable, value=pct(0.15)),
            Threshold(SignalAllocatableMemoryAvailable, value=q("100Mi")),
        ],
    )
    assert all(t.grace_period == 0 for t in got)  # all hard


def test_a_percentage_is_a_float32_share_of_the_capacity():
    # 10% of 100Gi is not 10Gi exactly: Go keeps 0.1 as a float32 (0.100000001490116…).
    nodefs = Threshold(SignalNodeFsAvailable, value=ThresholdValue(percentage=0.1))
    (parsed,) = parse_threshold_config([], {"nodefs.available": "10%"}, {}, {}, {})
    assert parsed.value.percentage != 0.1
    capacity = Q("100Gi")
    just_above = 10 * 1024**3 + 1
    obs = {SignalNodeFsAvailable: SignalObservation(capacity, Quantity.from_int(just_above))}
    # float64(100Gi) * float32(0.1) = 10737418400, above 10Gi + 1: still met.
    assert thresholds_met([parsed], obs, False) == [parsed]
    assert thresholds_met([nodefs], obs, False) == []


# --- ranking --------------------------------------------------------------------------------------


def names(pods):
    return [p.metadata.name for p in pods]


def test_ordered_by_exceeds_request_memory():
    below = pod("below-requests", LOW, resources(memory="200Mi"))
    exceeds = pod("exceeds-requests", HIGH, resources(memory="100Mi"))
    stats = stats_of(
        {
            "below-requests": memory_stats(below, "199Mi"),
            "exceeds-requests": memory_stats(exceeds, "101Mi"),
        }
    )
    pods = [below, exceeds]
    ordered_by(exceed_memory_requests(stats)).sort(pods)
    assert names(pods) == ["exceeds-requests", "below-requests"]


def test_ordered_by_exceeds_request_disk():
    below = pod("below-requests", LOW, resources(disk="200Mi"))
    exceeds = pod("exceeds-requests", HIGH, resources(disk="100Mi"))
    stats = stats_of(
        {
            "below-requests": disk_stats(below, "100Mi", "99Mi", "0Mi"),
            "exceeds-requests": disk_stats(exceeds, "90Mi", "11Mi", "0Mi"),
        }
    )
    pods = [below, exceeds]
    ordered_by(exceed_disk_requests(stats, ALL_FS, "ephemeral-storage")).sort(pods)
    assert names(pods) == ["exceeds-requests", "below-requests"]


def test_ordered_by_priority():
    low = pod("low-priority", -134)
    medium = pod("medium-priority", 1, resources("100m", "100Mi"), resources("200m", "200Mi"))
    high = pod("high-priority", 12534, resources("200m", "200Mi"), resources("200m", "200Mi"))
    pods = [high, medium, low]
    ordered_by(priority).sort(pods)
    assert names(pods) == ["low-priority", "medium-priority", "high-priority"]


def test_ordered_by_memory_relative_to_request():
    table = {
        "best-effort-high": ({}, {}, "500Mi"),
        "best-effort-low": ({}, {}, "300Mi"),
        "burstable-high": (resources(memory="100Mi"), resources(memory="1Gi"), "800Mi"),
        "burstable-low": (resources(memory="100Mi"), resources(memory="1Gi"), "300Mi"),
        "guaranteed-high": (resources(memory="1Gi"), resources(memory="1Gi"), "800Mi"),
        "guaranteed-low": (resources(memory="1Gi"), resources(memory="1Gi"), "200Mi"),
    }
    pods = [pod(n, DEFAULT, r, lim) for n, (r, lim, _) in table.items()]
    stats = stats_of({p.metadata.name: memory_stats(p, table[p.metadata.name][2]) for p in pods})
    ordered_by(memory(stats)).sort(pods)
    assert names(pods) == [
        "burstable-high",
        "best-effort-high",
        "best-effort-low",
        "burstable-low",
        "guaranteed-high",
        "guaranteed-low",
    ]


PRIORITY_MEMORY = {
    # name: (priority, memory request, working set) — in the expected eviction order.
    "above-requests-low-priority-high-usage": (LOW, "", "500Mi"),
    "above-requests-low-priority-low-usage": (LOW, "", "50Mi"),
    "above-requests-high-priority-high-usage": (HIGH, "100Mi", "600Mi"),
    "above-requests-high-priority-low-usage": (HIGH, "100Mi", "150Mi"),
    "below-requests-low-priority-high-usage": (LOW, "1Gi", "800Mi"),
    "below-requests-low-priority-low-usage": (LOW, "1Gi", "200Mi"),
    "below-requests-high-priority-high-usage": (HIGH, "1Gi", "800Mi"),
    "below-requests-high-priority-low-usage": (HIGH, "1Gi", "200Mi"),
}


def test_rank_memory_pressure_orders_by_exceeding_then_priority_then_usage():
    pods = [pod(n, prio, resources(memory=req)) for n, (prio, req, _) in PRIORITY_MEMORY.items()]
    stats = stats_of(
        {p.metadata.name: memory_stats(p, PRIORITY_MEMORY[p.metadata.name][2]) for p in pods}
    )
    pods.reverse()
    rank_memory_pressure(pods, stats)
    assert names(pods) == list(PRIORITY_MEMORY)


def test_a_pod_without_stats_is_evicted_first():
    measured = pod("measured", LOW)
    unmeasured = pod("unmeasured", HIGH, resources(memory="1Gi"))
    pods = [measured, unmeasured]
    rank_memory_pressure(pods, stats_of({"measured": memory_stats(measured, "900Mi")}))
    assert names(pods) == ["unmeasured", "measured"]


DISK = {
    # name: (disk request, disk limit, rootfs, logs, per local volume) — in Go's expected order.
    "best-effort-high": ("", "", "50Mi", "100Mi", "150Mi"),  # 300Mi - 0
    "burstable-high": ("100Mi", "400Mi", "150Mi", "150Mi", "50Mi"),  # 350Mi - 100Mi
    "best-effort-low": ("", "", "25Mi", "25Mi", "50Mi"),  # 100Mi - 0
    "burstable-low": ("100Mi", "400Mi", "25Mi", "35Mi", "50Mi"),  # 110Mi - 100Mi
    "guaranteed-high": ("400Mi", "400Mi", "225Mi", "100Mi", "50Mi"),  # 375Mi - 400Mi
    "guaranteed-low": ("400Mi", "400Mi", "25Mi", "45Mi", "50Mi"),  # 120Mi - 400Mi
}


def test_ordered_by_disk_relative_to_request():
    order = [
        "best-effort-high",
        "best-effort-low",
        "burstable-high",
        "burstable-low",
        "guaranteed-high",
        "guaranteed-low",
    ]
    pods = [
        pod(
            n,
            DEFAULT,
            resources(disk=DISK[n][0]),
            resources(disk=DISK[n][1]),
            volumes=[empty_dir()],
        )
        for n in order
    ]
    stats = stats_of({p.metadata.name: disk_stats(p, *DISK[p.metadata.name][2:]) for p in pods})
    ordered_by(disk(stats, ALL_FS, "ephemeral-storage")).sort(pods)
    assert names(pods) == list(DISK)


def test_ordered_by_inodes():
    low, medium, high = (pod(n, volumes=[empty_dir()]) for n in ("low", "medium", "high"))
    stats = stats_of(
        {
            "low": inode_stats(low, "50000", "100000", "50000"),
            "medium": inode_stats(medium, "100000", "150000", "50000"),
            "high": inode_stats(high, "200000", "150000", "50000"),
        }
    )
    pods = [low, medium, high]
    ordered_by(disk(stats, ALL_FS, resourceInodes)).sort(pods)
    assert names(pods) == ["high", "medium", "low"]


def test_ordered_by_priority_then_inodes():
    table = {
        "low-priority-high-usage": (LOW, ("50000", "100000", "250000")),
        "low-priority-low-usage": (LOW, ("60000", "30000", "10000")),
        "high-priority-high-usage": (HIGH, ("150000", "150000", "50000")),
        "high-priority-low-usage": (HIGH, ("10000", "40000", "100000")),
    }
    pods = [pod(n, prio, volumes=[empty_dir()]) for n, (prio, _) in table.items()]
    stats = stats_of({p.metadata.name: inode_stats(p, *table[p.metadata.name][1]) for p in pods})
    pods.reverse()
    ordered_by(priority, disk(stats, ALL_FS, resourceInodes)).sort(pods)
    assert names(pods) == list(table)


# --- thresholds ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ([], []),
        (
            [SignalNodeFsAvailable, SignalPIDAvailable, SignalMemoryAvailable],
            [SignalMemoryAvailable, SignalNodeFsAvailable, SignalPIDAvailable],
        ),
        (
            [SignalNodeFsAvailable, SignalPIDAvailable, SignalAllocatableMemoryAvailable],
            [SignalAllocatableMemoryAvailable, SignalNodeFsAvailable, SignalPIDAvailable],
        ),
        # Go's insertion sort moves each memory threshold past the earlier ones: the hard
        # memory threshold listed first ends up second.
        (
            [SignalMemoryAvailable, SignalNodeFsAvailable, SignalAllocatableMemoryAvailable],
            [SignalAllocatableMemoryAvailable, SignalMemoryAvailable, SignalNodeFsAvailable],
        ),
    ],
)
def test_sort_by_eviction_priority_puts_memory_first(given, expected):
    thresholds = [Threshold(s) for s in given]
    sort_by_eviction_priority(thresholds)
    assert [t.signal for t in thresholds] == expected


HARD = Threshold(SignalMemoryAvailable, OpLessThan, q("1Gi"), min_reclaim=q("500Mi"))


def observed(available: str, capacity: str = "8Gi", at: float = 0.0) -> SignalObservation:
    return SignalObservation(capacity=Q(capacity), available=Q(available), time=at)


@pytest.mark.parametrize(
    ("enforce_min_reclaim", "available", "met"),
    [
        (False, "500Mi", True),  # threshold-met-memory
        (False, "2Gi", False),  # threshold-not-met
        (True, "1.05Gi", True),  # threshold-met-with-min-reclaim: 1Gi + 500Mi
        (True, "2Gi", False),  # threshold-not-met-with-min-reclaim
    ],
)
def test_thresholds_met(enforce_min_reclaim, available, met):
    got = thresholds_met([HARD], {SignalMemoryAvailable: observed(available)}, enforce_min_reclaim)
    assert got == ([HARD] if met else [])


def test_thresholds_met_without_observation_is_not_met():
    assert thresholds_met([HARD], {}, False) == []


MEMORY_20 = Threshold(SignalMemoryAvailable, value=pct(0.2), min_reclaim=pct(0.05))
NODEFS_30 = Threshold(SignalNodeFsAvailable, value=pct(0.3))


@pytest.mark.parametrize(
    ("enforce", "memory_available", "nodefs_available", "expected"),
    [
        (False, "100Mi", "100Gi", [MEMORY_20, NODEFS_30]),  # BothMet
        (False, "300Mi", "400Gi", []),  # NoneMet
        (False, "300Mi", "100Gi", [NODEFS_30]),  # DiskMet
        (False, "100Mi", "400Gi", [MEMORY_20]),  # MemoryMet
        (True, "225Mi", None, [MEMORY_20]),  # MemoryMetWithMinReclaim: 20% + 5%
        (True, "300Mi", None, []),  # MemoryNotMetWithMinReclaim
    ],
)
def test_percentage_thresholds_met(enforce, memory_available, nodefs_available, expected):
    observations = {SignalMemoryAvailable: observed(memory_available, "1000Mi")}
    if nodefs_available is not None:
        observations[SignalNodeFsAvailable] = observed(nodefs_available, "1000Gi")
    assert thresholds_met([MEMORY_20, NODEFS_30], observations, enforce) == expected


UPDATED = Threshold(SignalMemoryAvailable)
T0, T1 = 1451606400.0, 1451606460.0  # 2016-01-01 00:00 and 00:01 UTC


@pytest.mark.parametrize(
    ("now", "last", "updated"),
    [
        (0.0, None, True),  # no-time
        (T0, None, True),  # no-last-observation
        (T0, T1, False),  # time-machine
        (T0, T0, False),  # same-observation
        (T1, T0, True),  # new-observation
    ],
)
def test_thresholds_updated_stats(now, last, updated):
    observations = {SignalMemoryAvailable: observed("1Gi", at=now)}
    lasts = {} if last is None else {SignalMemoryAvailable: observed("1Gi", at=last)}
    assert thresholds_updated_stats([UPDATED], observations, lasts) == (
        [UPDATED] if updated else []
    )


def test_thresholds_first_observed_at_keeps_the_first_time():
    hard = Threshold(SignalMemoryAvailable, value=q("1Gi"))
    assert thresholds_first_observed_at([], {}, T1) == {}
    assert thresholds_first_observed_at([hard], {}, T1) == {hard: T1}
    assert thresholds_first_observed_at([hard], {hard: T0}, T1) == {hard: T0}


def test_thresholds_met_grace_period():
    hard = Threshold(SignalMemoryAvailable, value=q("1Gi"))
    soft = Threshold(SignalMemoryAvailable, value=q("2Gi"), grace_period=60)
    now = T0 + 120
    assert thresholds_met_grace_period({}, now) == []
    assert thresholds_met_grace_period({hard: now}, now) == [hard]
    assert thresholds_met_grace_period({soft: now}, now) == []
    assert thresholds_met_grace_period({soft: now - 120}, now) == [soft]


def test_node_conditions_and_their_times():
    assert node_conditions([]) == []
    assert node_conditions(
        [Threshold(SignalMemoryAvailable), Threshold(SignalAllocatableMemoryAvailable)]
    ) == [NodeMemoryPressure]
    old = T1 - 60
    assert node_conditions_last_observed_at([NodeMemoryPressure], {}, T1) == {
        NodeMemoryPressure: T1
    }
    assert node_conditions_last_observed_at(
        [NodeMemoryPressure], {NodeMemoryPressure: old}, T1
    ) == {NodeMemoryPressure: T1}
    assert node_conditions_last_observed_at([], {NodeMemoryPressure: old}, T1) == {
        NodeMemoryPressure: old
    }
    # in-period and out-of-period: observed a minute ago.
    assert node_conditions_observed_since({NodeMemoryPressure: old}, 120, T1) == [
        NodeMemoryPressure
    ]
    assert node_conditions_observed_since({NodeMemoryPressure: old}, 30, T1) == []


def test_make_signal_observations():
    gib, mib = 1024**3, 1024**2
    summary = Summary(
        node=NodeStats(
            memory=MemoryStats(available_bytes=gib, working_set_bytes=gib),
            runtime=RuntimeStats(
                image_fs=FsStats(
                    available_bytes=mib, capacity_bytes=2 * mib, inodes_free=1024, inodes=mib
                )
            ),
            fs=FsStats(available_bytes=1024, capacity_bytes=2048, inodes_free=1024, inodes=mib),
            system_containers=[
                ContainerStats(
                    name="pods", memory=MemoryStats(available_bytes=gib, working_set_bytes=gib)
                )
            ],
        )
    )
    pods = [pod("pod1"), pod("pod3")]
    summary.pods = [
        PodStats(pod_ref=ref(p), memory=MemoryStats(working_set_bytes=gib)) for p in pods
    ]
    observations, stats = make_signal_observations(summary)
    expected = {
        SignalMemoryAvailable: (gib, 2 * gib),
        SignalAllocatableMemoryAvailable: (gib, 2 * gib),
        SignalNodeFsAvailable: (1024, 2048),
        SignalNodeFsInodesFree: (1024, mib),
        SignalImageFsAvailable: (mib, 2 * mib),
        SignalImageFsInodesFree: (1024, mib),
    }
    assert {
        s: (o.available.value(), o.capacity.value()) for s, o in observations.items()
    } == expected
    for p in pods:
        found, ok = stats(p)
        assert ok and found is not None and found.memory.working_set_bytes == gib
    assert stats(pod("unknown")) == (None, False)


def test_eviction_message_names_the_containers_above_their_request():
    p = pod("web", requests=resources(memory="100Mi"))
    stats = stats_of({"web": memory_stats(p, "150Mi")})
    message, annotations = eviction_message("memory", p, stats)
    assert message == (
        "The node was low on resource: memory. "
        "Container web was using 150Mi, which exceeds its request of 100Mi. "
    )
    assert annotations == {
        "offending_containers": "web",
        "offending_containers_usage": "150Mi",
        "starved_resource": "memory",
    }
    # Below its request, the container is not named; without stats there are no annotations.
    quiet = stats_of({"web": memory_stats(p, "50Mi")})
    assert eviction_message("memory", p, quiet)[0] == "The node was low on resource: memory. "
    assert eviction_message("memory", p, stats_of({})) == (
        "The node was low on resource: memory. ",
        {},
    )


def test_pod_is_evicted():
    assert pod_is_evicted(PodStatus(phase="Failed", reason="Evicted"))
    assert not pod_is_evicted(PodStatus(phase="Failed", reason="OutOfcpu"))
    assert not pod_is_evicted(PodStatus(phase="Running", reason="Evicted"))
