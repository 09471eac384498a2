"""Ours: how much memory and disk the simulated node and its containers use, over time.

Not a port. On a real node cAdvisor and the container runtime measure what is used; the
simulated node ([`minikubelet.sim.cri.fake_stats`][minikubelet.sim.cri.fake_stats]) follows a script
instead. The eviction manager reads the result through its stats summary.

**A scenario file** may hold the node's own usage (``node``) and the usage of the containers of
pods named ``namespace/name`` (``usage``)::

    node:
      memory:            # memory used outside the pods (system daemons, the kernel), over time:
        0s: 1Gi          #   from the start of the run …
        40s: 7600Mi      #   … and from 40 s on (each value holds until the next)
      nodefs: {capacity: 100Gi, used: 10Gi, inodes: 6553600, inodesUsed: 200000}
      imagefs: {capacity: 200Gi, used: 20Gi}   # images on a disk of their own (default: none)
      pids: {max: 4194304, used: 200}
    usage:
      default/web:
        app: {memory: 300Mi}

**A pod's annotation** holds the same per-container usage as ``usage`` does for one pod; it wins
over the file::

    metadata:
      annotations:
        minikubelet.dev/usage: |
          app: {memory: 300Mi}                      # while the container runs
          cache: {memory: {0s: 100Mi, 20s: 900Mi}}  # counted from the container's start
          logger: {logs: 50Mi, rootfs: 1Gi}

A *level* is a quantity (``300Mi``, ``1Gi``, ``1500000`` bytes) or a mapping from a time
(``0s``, ``20s``, ``1m30s``) to a quantity, each holding from its time until the next; before the
first time the level is 0. Node levels count from the start of the run; container levels from the
container's start (a restarted container starts again from its first value).

What the simulated node reports, at each measure (every synchronize of the eviction manager):

* **memory**: its capacity is the machine's (``--node-memory``); the working set is the node's
  ``memory`` plus the ``memory`` of every running container. ``memory.available`` is capacity
  minus working set; the pods' cgroup (``allocatableMemory.available``) has the same capacity and
  the containers' memory alone.
* **nodefs** (default: 100Gi, 10Gi used, 6553600 inodes, 200000 used): ``used`` plus the running
  containers' ``logs``, and their ``rootfs`` (writable layers) when images have no disk of their
  own.
* **imagefs**: with ``imagefs`` given, ``used`` plus the containers' ``rootfs``; without it, the
  image filesystem *is* the nodefs and reports the same numbers.
* **pids** (default: 4194304 at most, 200 used): ``pid.available`` is ``max`` minus ``used``.

Only running containers count: an exited container's memory is free again (its logs and layer
would still take disk on a real node; here they do not). Available amounts never go below 0 (a
real kernel would have killed something first).

A value that does not parse raises [`ScenarioError`][minikubelet.sim.cri.scenario_values.ScenarioError]
naming the file or the pod's annotation, the key and the value: a bad annotation fails the pod's
sandbox, as the other scenario annotations do.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any

from minikubelet.base.i18n import in_language
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity, QuantityError
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import cut, shown
from minikubelet.sim.cri.scenario_values import (
    as_mapping,
    cached_annotation,
    check_keys,
    parse_duration,
    scenario_error,
)

#: The annotation with the usage of a pod's containers.
UsageAnnotation = "minikubelet.dev/usage"

Gi = 1024**3


@dataclass(frozen=True, slots=True)
class Level:
    """An amount over time: ``values[i]`` from ``times[i]`` on (0 before the first time)."""

    times: tuple[float, ...] = (0.0,)
    values: tuple[int, ...] = (0,)

    def at(self, t: float) -> int:
        """The amount at ``t`` seconds."""
        i = bisect.bisect_right(self.times, t) - 1
        return self.values[i] if i >= 0 else 0


ZERO = Level()


def constant(value: int) -> Level:
    return Level((0.0,), (value,))


@dataclass(frozen=True, slots=True)
class FsScript:
    """A filesystem of the node: its size, and what is used outside the containers."""

    capacity: int
    used: Level
    inodes: int
    inodes_used: Level


@dataclass(frozen=True, slots=True)
class PidsScript:
    max: int
    used: Level


@dataclass(frozen=True, slots=True)
class NodeUsageScript:
    """The node's own usage (``node`` in a scenario file)."""

    memory: Level = ZERO
    nodefs: FsScript = FsScript(100 * Gi, constant(10 * Gi), 6553600, constant(200000))
    #: None: images share the nodefs (no dedicated image filesystem).
    imagefs: FsScript | None = None
    pids: PidsScript = PidsScript(4194304, constant(200))


@dataclass(frozen=True, slots=True)
class ContainerUsage:
    """What one container uses while it runs, counted from its start."""

    memory: Level = ZERO
    rootfs: Level = ZERO
    logs: Level = ZERO


def _amount(value: Any, where: str) -> int:
    """A non-negative amount: a quantity (``300Mi``) or a whole number (bytes, inodes)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise scenario_error(
            where,
            f"expected a quantity like 300Mi or 1Gi, got {shown(value)}",
            f"应为 300Mi 或 1Gi 这样的数量，实际为 {shown(value)}",
        )
    if isinstance(value, int):
        amount = value
    else:
        try:
            amount = Quantity.parse(value).value()
        except QuantityError as err:
            raise scenario_error(where, str(err), in_language(err, "zh")) from None
    if amount < 0:
        raise scenario_error(
            where,
            f"an amount cannot be negative ({shown(value)})",
            f"数量不能为负数（{shown(value)}）",
        )
    return amount


def parse_level(value: Any, where: str) -> Level:
    """A quantity, or a mapping from times to quantities (see the module docstring)."""
    if not isinstance(value, dict):
        return constant(_amount(value, where))
    if not value:
        raise scenario_error(
            where,
            "expected at least one time: quantity pair, like {0s: 1Gi, 30s: 7Gi}",
            "至少要有一对“时间: 数量”，例如 {0s: 1Gi, 30s: 7Gi}",
        )
    steps: dict[float, int] = {}
    for at, amount in value.items():
        t = parse_duration(at, f"{where}: {cut(str(at))}")
        if t in steps:
            raise scenario_error(
                where,
                f"the time {shown(at)} is given twice",
                f"时间 {shown(at)} 出现了两次",
            )
        steps[t] = _amount(amount, f"{where}: {cut(str(at))}")
    times = tuple(sorted(steps))
    return Level(times, tuple(steps[t] for t in times))


def _fs(value: Any, where: str, default: FsScript) -> FsScript:
    m = as_mapping(value, where)
    check_keys(m, ("capacity", "used", "inodes", "inodesUsed"), where)
    capacity = _amount(m["capacity"], f"{where}: capacity") if "capacity" in m else default.capacity
    inodes = _amount(m["inodes"], f"{where}: inodes") if "inodes" in m else default.inodes
    if capacity == 0 or inodes == 0:
        raise scenario_error(
            where,
            "capacity and inodes must be more than 0",
            "capacity 与 inodes 必须大于 0",
        )
    return FsScript(
        capacity=capacity,
        used=parse_level(m["used"], f"{where}: used") if "used" in m else default.used,
        inodes=inodes,
        inodes_used=(
            parse_level(m["inodesUsed"], f"{where}: inodesUsed")
            if "inodesUsed" in m
            else default.inodes_used
        ),
    )


def parse_node_usage(value: Any, where: str) -> NodeUsageScript:
    """The ``node`` section of a scenario file."""
    m = as_mapping(value, where)
    check_keys(m, ("memory", "nodefs", "imagefs", "pids"), where)
    default = NodeUsageScript()
    pids = default.pids
    if "pids" in m:
        p = as_mapping(m["pids"], f"{where}: pids")
        check_keys(p, ("max", "used"), f"{where}: pids")
        pids = PidsScript(
            max=_amount(p["max"], f"{where}: pids: max") if "max" in p else default.pids.max,
            used=parse_level(p["used"], f"{where}: pids: used")
            if "used" in p
            else default.pids.used,
        )
    return NodeUsageScript(
        memory=parse_level(m["memory"], f"{where}: memory") if "memory" in m else ZERO,
        nodefs=_fs(m.get("nodefs"), f"{where}: nodefs", default.nodefs),
        imagefs=(
            _fs(m["imagefs"], f"{where}: imagefs", default.nodefs) if "imagefs" in m else None
        ),
        pids=pids,
    )


def parse_container_usage(value: Any, where: str) -> dict[str, ContainerUsage]:
    """Container name → its usage (an annotation's value, or one pod of ``usage``)."""
    out: dict[str, ContainerUsage] = {}
    for name, raw in as_mapping(value, where).items():
        at = f"{where}: {cut(str(name))}"
        m = as_mapping(raw, at)
        check_keys(m, ("memory", "rootfs", "logs"), at)
        out[str(name)] = ContainerUsage(
            memory=parse_level(m["memory"], f"{at}: memory") if "memory" in m else ZERO,
            rootfs=parse_level(m["rootfs"], f"{at}: rootfs") if "rootfs" in m else ZERO,
            logs=parse_level(m["logs"], f"{at}: logs") if "logs" in m else ZERO,
        )
    return out


def parse_usage_sections(
    m: dict[str, Any], where: str
) -> tuple[NodeUsageScript, dict[str, dict[str, ContainerUsage]]]:
    """The ``node`` and ``usage`` sections of a scenario file (``m``, its top mapping)."""
    usage: dict[str, dict[str, ContainerUsage]] = {}
    for pod, scripts in as_mapping(m.get("usage"), f"{where}: usage").items():
        if "/" not in str(pod):
            raise scenario_error(
                f"{where}: usage: {shown(pod)}",
                "expected namespace/name",
                "应为“命名空间/名称”的形式",
            )
        usage[str(pod)] = parse_container_usage(scripts, f"{where}: usage of pod {cut(str(pod))}")
    return parse_node_usage(m.get("node"), f"{where}: node"), usage


def usage_from_annotations(
    annotations: dict[str, str], pod: str
) -> dict[str, ContainerUsage] | None:
    """The container usage of a pod's annotations, if it has them (``pod`` names it in errors)."""
    text = annotations.get(UsageAnnotation)
    if text is None:
        return None
    usage: dict[str, ContainerUsage] = cached_annotation(
        text, "u", pod, UsageAnnotation, parse_container_usage
    )
    return usage
