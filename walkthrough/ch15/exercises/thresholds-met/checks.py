"""What ch15/thresholds-met checks in your ``thresholds_met``.

The cases are those of kubelet's TestThresholdsMet and TestPercentageThresholdsMet
(pkg/kubelet/eviction/helpers_test.go), restated.
"""

from __future__ import annotations

from minikubelet.eviction import helpers
from minikubelet.eviction.api import (
    SignalMemoryAvailable,
    SignalNodeFsAvailable,
    Threshold,
    ThresholdValue,
    to_float32,
)
from minikubelet.eviction.types import SignalObservation
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from walkthrough.expect import expect_equal

Q = Quantity.parse
HARD = Threshold(
    SignalMemoryAvailable,
    value=ThresholdValue(quantity=Q("1Gi")),
    min_reclaim=ThresholdValue(quantity=Q("500Mi")),
)
MEMORY_20 = Threshold(
    SignalMemoryAvailable,
    value=ThresholdValue(percentage=to_float32(0.2)),
    min_reclaim=ThresholdValue(percentage=to_float32(0.05)),
)
NODEFS_30 = Threshold(SignalNodeFsAvailable, value=ThresholdValue(percentage=to_float32(0.3)))


def seen(available: str, capacity: str = "8Gi") -> SignalObservation:
    return SignalObservation(capacity=Q(capacity), available=Q(available))


def met(threshold: Threshold, available: str, capacity: str = "8Gi", enforce: bool = False) -> bool:
    got = helpers.thresholds_met(
        [threshold], {threshold.signal: seen(available, capacity)}, enforce
    )
    return got == [threshold]


def check_a_threshold_is_met_below_its_value() -> None:
    expect_equal(
        [met(HARD, a) for a in ("500Mi", "2Gi", "1Gi")],
        [True, False, False],
        en="memory.available<1Gi: with 500Mi free the threshold is met, with 2Gi it is not, and "
        "with exactly 1Gi it is not either (the signal must fall below the threshold).",
        zh="memory.available<1Gi：剩 500Mi 时阈值被触及，剩 2Gi 时没有；正好剩 1Gi 时也没有（信号必须低于阈值）。",
    )


def check_a_percentage_is_a_share_of_the_capacity() -> None:
    got = helpers.thresholds_met(
        [MEMORY_20, NODEFS_30],
        {
            SignalMemoryAvailable: seen("300Mi", "1000Mi"),
            SignalNodeFsAvailable: seen("100Gi", "1000Gi"),
        },
        False,
    )
    expect_equal(
        got,
        [NODEFS_30],
        en="memory.available<20% of 1000Mi is 200Mi (300Mi free: not met); nodefs.available<30% "
        "of 1000Gi is 300Gi (100Gi free: met). A percentage is taken of the signal's capacity.",
        zh="1000Mi 的 memory.available<20% 是 200Mi（剩 300Mi：未触及）；1000Gi 的 nodefs.available<30% 是 300Gi（剩 100Gi：已触及）。百分比是按信号的容量计算的。",
    )


def check_under_pressure_the_minimum_reclaim_counts_too() -> None:
    expect_equal(
        [met(HARD, a, enforce=True) for a in ("1.05Gi", "1.5Gi", "2Gi")],
        [True, False, False],
        en="With the minimum reclaim enforced (the node is already under pressure), memory.available"
        "<1Gi with a minimum reclaim of 500Mi stays met until more than 1Gi + 500Mi is free: met "
        "at 1.05Gi, not at exactly 1.5Gi, not at 2Gi.",
        zh="在计入最小回收量时（节点已处于压力之下），最小回收量为 500Mi 的 memory.available<1Gi 会一直算作被触及，直到空闲量超过 1Gi + 500Mi：1.05Gi 时被触及，正好 1.5Gi 时不算，2Gi 时也不算。",
    )
    expect_equal(
        [met(MEMORY_20, a, "1000Mi", enforce=True) for a in ("225Mi", "300Mi")],
        [True, False],
        en="Percentages too: 20% of 1000Mi plus a minimum reclaim of 5% of it is 250Mi; 225Mi "
        "free is still under pressure, 300Mi is not. Both shares are of the capacity.",
        zh="百分比也一样：1000Mi 的 20% 加上 5% 的最小回收量是 250Mi；剩 225Mi 仍在压力之下，剩 300Mi 就不是了。两个比例都是按容量计算的。",
    )


def check_the_minimum_reclaim_only_counts_when_enforced() -> None:
    expect_equal(
        met(HARD, "1.05Gi", enforce=False),
        False,
        en="Without enforcing the minimum reclaim (the first look of each pass), memory.available"
        "<1Gi with 1.05Gi free is not met: the minimum reclaim only keeps a pressure going, it "
        "never starts one.",
        zh="不计入最小回收量时（每一轮的第一次检查），剩 1.05Gi 的 memory.available<1Gi 没有被触及：最小回收量只会让已有的压力持续，从不会引发新的压力。",
    )
