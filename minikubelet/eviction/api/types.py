"""Eviction signals, and the thresholds that say when a signal calls for evicting pods.

Go: pkg/kubelet/eviction/api/types.go

A threshold such as ``memory.available<100Mi`` (kubelet's ``--eviction-hard``) is a
[`Threshold`][]: the signal, the operator (always *less than*), the value (a quantity or a share
of the capacity) and, for a soft threshold, how long it must hold before kubelet acts.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import StrEnum

from minikubelet.k8s_io.apimachinery.pkg.api.resource import Format, Quantity

__all__ = [
    "OpForSignal",
    "OpLessThan",
    "Signal",
    "SignalAllocatableMemoryAvailable",
    "SignalImageFsAvailable",
    "SignalImageFsInodesFree",
    "SignalMemoryAvailable",
    "SignalNodeFsAvailable",
    "SignalNodeFsInodesFree",
    "SignalPIDAvailable",
    "Threshold",
    "ThresholdOperator",
    "ThresholdValue",
    "get_threshold_quantity",
    "to_float32",
]


class Signal(StrEnum):
    """What the eviction manager measures on the node.

    Go: pkg/kubelet/eviction/api/types.go type Signal
    """

    #: The node's memory capacity minus its working set.
    MEMORY_AVAILABLE = "memory.available"
    #: Free bytes on the filesystem of kubelet's directory, logs and emptyDir volumes.
    NODE_FS_AVAILABLE = "nodefs.available"
    NODE_FS_INODES_FREE = "nodefs.inodesFree"
    #: Free bytes on the filesystem of the runtime's images and writable layers.
    IMAGE_FS_AVAILABLE = "imagefs.available"
    IMAGE_FS_INODES_FREE = "imagefs.inodesFree"
    #: The memory pods may use (their cgroup's limit) minus the pods' working set.
    ALLOCATABLE_MEMORY_AVAILABLE = "allocatableMemory.available"
    PID_AVAILABLE = "pid.available"


SignalMemoryAvailable = Signal.MEMORY_AVAILABLE
SignalNodeFsAvailable = Signal.NODE_FS_AVAILABLE
SignalNodeFsInodesFree = Signal.NODE_FS_INODES_FREE
SignalImageFsAvailable = Signal.IMAGE_FS_AVAILABLE
SignalImageFsInodesFree = Signal.IMAGE_FS_INODES_FREE
SignalAllocatableMemoryAvailable = Signal.ALLOCATABLE_MEMORY_AVAILABLE
SignalPIDAvailable = Signal.PID_AVAILABLE


class ThresholdOperator(StrEnum):
    """Go: pkg/kubelet/eviction/api/types.go type ThresholdOperator"""

    LESS_THAN = "LessThan"


OpLessThan = ThresholdOperator.LESS_THAN

#: Go: pkg/kubelet/eviction/api/types.go OpForSignal: every signal counts what is left, so every
#: threshold is met when the signal falls *below* its value.
OpForSignal: dict[Signal, ThresholdOperator] = {
    SignalMemoryAvailable: OpLessThan,
    SignalNodeFsAvailable: OpLessThan,
    SignalNodeFsInodesFree: OpLessThan,
    SignalImageFsAvailable: OpLessThan,
    SignalImageFsInodesFree: OpLessThan,
    SignalAllocatableMemoryAvailable: OpLessThan,
    SignalPIDAvailable: OpLessThan,
}


def to_float32(x: float) -> float:
    """``x`` rounded to the nearest float32, as Go's ``float32(x)`` (ours: Python has only
    float64). A percentage threshold is a float32 in Go, and ``10%`` of a capacity depends on it:
    float32(0.1) is 0.100000001490116…"""
    result: float = struct.unpack("f", struct.pack("f", x))[0]
    return result


@dataclass(frozen=True, slots=True)
class ThresholdValue:
    """A quantity, or (when ``quantity`` is None) a share of the capacity.

    Go: pkg/kubelet/eviction/api/types.go type ThresholdValue
    """

    quantity: Quantity | None = None
    #: A float32 share of the capacity (0.1 for ``10%``).
    percentage: float = 0.0


@dataclass(frozen=True, slots=True)
class Threshold:
    """When eviction should happen: ``signal`` below ``value`` for ``grace_period`` seconds.

    Go: pkg/kubelet/eviction/api/types.go type Threshold

    Frozen and hashable: the eviction manager keys maps by thresholds, as Go keys a map by the
    struct. Go's key compares the quantity *pointers*; here two thresholds with equal values are
    the same key. Only a soft threshold with a zero grace period equal to a hard one could tell
    the two apart, and kubelet's flags never make one.
    """

    signal: Signal
    operator: ThresholdOperator = OpLessThan
    value: ThresholdValue = ThresholdValue()
    #: Seconds the threshold must be met before pods are evicted; 0 for a hard threshold.
    grace_period: float = 0.0
    #: How much more than the threshold must be free again before the pressure counts as over.
    min_reclaim: ThresholdValue | None = None


def get_threshold_quantity(value: ThresholdValue, capacity: Quantity) -> Quantity:
    """The threshold as a quantity: the quantity itself, or the share of ``capacity``.

    Go: pkg/kubelet/eviction/api/types.go GetThresholdQuantity
    """
    if value.quantity is not None:
        return value.quantity
    # Go multiplies in float64 and truncates toward zero (int64 conversion).
    return Quantity.from_int(int(float(capacity.value()) * value.percentage), Format.BINARY_SI)
