"""The port's side of the oracle's eviction level: minikubelet's eviction manager (synchronize,
admit, the thresholds of parse_threshold_config, the ranking, evict_pod, wait_for_pods_cleanup)
on the virtual clock, over the simulated node's measurements of a scenario's usage script, for
its ``eviction`` steps, printed as the Go driver prints them
(tools/oracle/go/hack/oracle/evictionmode.go). Ours; no Kubernetes code.

    python -m tools.oracle.eviction_trace SCENARIO.yaml   # normalised, as the goldens are
"""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path
from typing import Any

import yaml

from minikubelet import go
from minikubelet.apis.config.types import KubeletConfiguration
from minikubelet.config.manifest import pod_from_dict
from minikubelet.eviction.api import Threshold, ThresholdValue
from minikubelet.eviction.eviction_manager import ManagerImpl, new_manager
from minikubelet.eviction.helpers import has_threshold, parse_threshold_config
from minikubelet.eviction.types import Config
from minikubelet.go.clock import VIRTUAL_EPOCH
from minikubelet.go.duration import format_duration, parse_duration
from minikubelet.k8s_io.api.core.v1 import ObjectReference, Pod, PodStatus
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Format, Quantity
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.klog.v2.klog import quote
from minikubelet.k8s_io.kubelet.pkg.apis.stats.v1alpha1 import PodReference, Summary
from minikubelet.lifecycle.interfaces import PodAdmitAttributes
from minikubelet.sim.cri.fake_stats import container_stats, measure, pod_stats
from minikubelet.sim.cri.usage_scenario import (
    ContainerUsage,
    FsScript,
    Level,
    parse_usage_sections,
    usage_from_annotations,
)
from tools.oracle.norm import sort_runs

_KLOG = re.compile(r"^([IWEF])\d{4} [\d:.]+\s+\d+ [^\]]+\] (.*)$")
#: The kubelet configuration keys a scenario may set (its ``kubeletConfig``), as the
#: KubeletConfiguration file names them.
_CONFIG_KEYS = {
    "evictionHard": "eviction_hard",
    "evictionSoft": "eviction_soft",
    "evictionSoftGracePeriod": "eviction_soft_grace_period",
    "evictionMinimumReclaim": "eviction_minimum_reclaim",
    "evictionPressureTransitionPeriod": "eviction_pressure_transition_period",
    "evictionMaxPodGracePeriod": "eviction_max_pod_grace_period",
    "enforceNodeAllocatable": "enforce_node_allocatable",
}


def kubelet_configuration(values: dict[str, Any] | None) -> KubeletConfiguration:
    """The kubelet configuration a scenario's ``kubeletConfig`` gives (v1beta1's defaults else)."""
    cfg = KubeletConfiguration()
    for key, value in (values or {}).items():
        if key not in _CONFIG_KEYS:
            raise ValueError(
                f"kubeletConfig: unknown key {key!r} (one of {', '.join(_CONFIG_KEYS)})"
            )
        if key == "evictionPressureTransitionPeriod":
            value = parse_duration(str(value))
        setattr(cfg, _CONFIG_KEYS[key], value)
    return cfg


class _Lines:
    """The step's lines, in the order they happen; klog writes into it too."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._partial = ""

    def add(self, line: str) -> None:
        self.lines.append(line)

    def write(self, text: str) -> int:
        self._partial += text
        *whole, self._partial = self._partial.split("\n")
        for line in whole:
            m = _KLOG.match(line)
            if m:
                self.add(f"klog: {m.group(1)} {m.group(2)}")
        return len(text)

    def flush(self) -> None:
        """(a stream's method; the lines are taken by ``take``)"""

    def take(self) -> list[str]:
        out, self.lines = self.lines, []
        return out


def _describe(obj: Any) -> str:
    if isinstance(obj, Pod):
        return f"Pod {obj.metadata.namespace}/{obj.metadata.name}"
    return f"{obj.kind} {obj.name}"


class _Recorder:
    """An event recorder that writes each event into the step's lines (the arguments after the
    object are EventRecorder's: type, reason, message format and its arguments)."""

    def __init__(self, out: _Lines) -> None:
        self.out = out

    def eventf(self, obj: Any, *rest: Any) -> None:
        self.annotated_eventf(obj, None, *rest)

    def annotated_eventf(self, obj: Any, annotations: dict[str, str] | None, *rest: Any) -> None:
        event_type, reason, message_fmt, *args = rest
        message = message_fmt % tuple(args) if args else message_fmt
        self.out.add(f"event: {_describe(obj)} {event_type} {reason} {message}")
        if annotations is not None:
            kv = sorted(f"{k}={v}" for k, v in annotations.items())
            self.out.add(f"annotations: {' '.join(kv)}")


@dataclasses.dataclass
class _Pod:
    pod: Pod
    usage: dict[str, ContainerUsage]
    started: float = 0.0


def _freed(fs: FsScript, amount: int) -> FsScript:
    """The filesystem with ``amount`` less used (never below 0)."""
    used = Level(fs.used.times, tuple(max(0, v - amount) for v in fs.used.values))
    return dataclasses.replace(fs, used=used)


def _value(v: ThresholdValue) -> str:
    if v.quantity is not None:
        return str(v.quantity)
    return f"{v.percentage * 100:.4g}%"


class _Run:
    def __init__(self, sc: dict[str, Any], path: str) -> None:
        self.script, usage = parse_usage_sections(sc, path)
        self.memory = Quantity.parse(str(sc.get("nodeMemory", "8Gi"))).value()
        self.image_gc = Quantity.parse(str(sc["imageGC"])).value() if "imageGC" in sc else 0
        self.images_freed = False
        self.pods: list[_Pod] = []
        for raw in sc.get("pods") or []:
            pod = pod_from_dict(raw, source=path)
            key = f"{pod.metadata.namespace}/{pod.metadata.name}"
            found = usage_from_annotations(pod.metadata.annotations, key)
            self.pods.append(_Pod(pod, found if found is not None else usage.get(key, {})))
        self.active: list[_Pod] = []
        self.killed: set[str] = set()
        self.out = _Lines()
        self.printed: list[str] = []
        self.step = 0
        cfg = kubelet_configuration(sc.get("kubeletConfig"))
        self.config = Config(
            pressure_transition_period=cfg.eviction_pressure_transition_period,
            max_pod_grace_period_seconds=cfg.eviction_max_pod_grace_period,
            thresholds=parse_threshold_config(
                cfg.enforce_node_allocatable,
                cfg.eviction_hard,
                cfg.eviction_soft,
                cfg.eviction_soft_grace_period,
                cfg.eviction_minimum_reclaim,
            ),
            kernel_memcg_notification=False,
            pod_cgroup_root="/kubepods",
        )
        self.steps: list[Any] = sc.get("eviction") or []

    # The node, as the manager measures it (a SummaryProvider and a DiskInfoProvider).
    def get(self, update_stats: bool) -> Summary:
        now = self.clock.now()
        t = round(now - VIRTUAL_EPOCH, 9)
        script = self.script
        if self.images_freed:
            if script.imagefs is None:
                script = dataclasses.replace(script, nodefs=_freed(script.nodefs, self.image_gc))
            else:
                script = dataclasses.replace(script, imagefs=_freed(script.imagefs, self.image_gc))
        pods = []
        for p in self.active:
            m = p.pod.metadata
            containers = [
                container_stats(c.name, p.started, p.usage.get(c.name), now)
                for c in p.pod.spec.containers
            ]
            ref = PodReference(name=m.name, namespace=m.namespace, uid=m.uid)
            pods.append(pod_stats(ref, p.started, containers, now))
        return measure(script, self.memory, t, now, pods)

    def has_dedicated_image_fs(self) -> bool:
        return self.script.imagefs is not None

    # The node's garbage collectors (the reclaim functions).
    async def delete_all_unused_containers(self) -> None:
        self.out.add("reclaim: DeleteAllUnusedContainers")

    async def delete_unused_images(self) -> None:
        freed = 0 if self.images_freed else self.image_gc
        self.images_freed = True
        shown = Quantity.from_int(freed, Format.BINARY_SI)
        self.out.add(f"reclaim: DeleteUnusedImages freed {shown}")

    async def kill(self, pod: Pod, status: PodStatus, grace: int | None) -> None:
        m = pod.metadata
        self.out.add(
            f"kill: {m.namespace}/{m.name} phase={status.phase} reason={status.reason} "
            f"message={quote(status.message)} gracePeriodOverride="
            f"{'nil' if grace is None else grace}"
        )
        self.killed.add(m.uid)
        self.active = [p for p in self.active if p.pod.metadata.uid != m.uid]

    def active_pods(self) -> list[Pod]:
        return [p.pod for p in self.active]

    # The trace.
    def header(self, what: str) -> None:
        self.step += 1
        self.printed.append(
            f"# step {self.step} {what} at +{format_duration(self.clock.now() - VIRTUAL_EPOCH)}"
        )

    def flush(self) -> None:
        self.printed.extend(self.out.take())

    def state(self) -> None:
        mgr = self.mgr
        conds = " ".join(str(c) for c in mgr.node_conditions)
        self.printed.append(
            f"conditions: [{conds}] memory={_go_bool(mgr.is_under_memory_pressure())} "
            f"disk={_go_bool(mgr.is_under_disk_pressure())} "
            f"pid={_go_bool(mgr.is_under_pid_pressure())}"
        )
        lines = [
            _threshold_line(t, at, has_threshold(mgr.thresholds_met, t))
            for t, at in mgr.thresholds_first_observed_at.items()
        ]
        self.printed.extend(sorted(lines))

    async def synchronize(self) -> bool:
        self.header("synchronize")
        evicted = await self.mgr.synchronize(self, self.active_pods)
        if evicted is not None:
            self.out.add(f"evicted: [{' '.join(str(klog.kobj(p)) for p in evicted)}]")
        self.flush()
        self.state()
        if evicted is None:
            return False
        await self.mgr.wait_for_pods_cleanup(lambda p: p.metadata.uid in self.killed, evicted)
        self.header("cleanup")
        self.flush()
        return True

    async def arrive(self, name: str) -> None:
        found = [p for p in self.pods if p.pod.metadata.name == name]
        if not found:
            raise ValueError(f'no pod "{name}" in the scenario')
        p = found[0]
        m = p.pod.metadata
        self.header(f"add {name}")
        res = await self.mgr.admit(PodAdmitAttributes(pod=p.pod, other_pods=self.active_pods()))
        if res.admit:
            self.out.add(f"admit: {m.namespace}/{m.name} admit=true")
            p.started = self.clock.now()
            self.active.append(p)
        else:
            self.out.add(
                f"admit: {m.namespace}/{m.name} admit=false reason={res.reason} "
                f"message={quote(res.message)}"
            )
        self.flush()

    async def main(self) -> None:
        self.clock = go.current_runtime().clock
        self.mgr: ManagerImpl = new_manager(
            self,
            self.config,
            self.kill,
            lambda pod: (None, False),
            self,
            self,
            _Recorder(self.out),
            ObjectReference(kind="Node", name="node-1", uid="node-1", namespace=""),
            self.clock,
        )[0]
        for s in self.steps:
            if s == "synchronize":
                await self.synchronize()
            elif isinstance(s, dict) and "add" in s:
                names = s["add"] if isinstance(s["add"], list) else [s["add"]]
                for n in names:
                    await self.arrive(str(n))
            elif isinstance(s, dict) and "wait" in s:
                await go.sleep(parse_duration(str(s["wait"])))
            elif isinstance(s, dict) and "run" in s:
                end = self.clock.now() + parse_duration(str(s["run"]))
                while self.clock.now() < end:
                    if not await self.synchronize():
                        await go.sleep(10.0)
            else:
                raise ValueError(f"unknown eviction step {s!r}")


def _go_bool(b: bool) -> str:
    return "true" if b else "false"


def _threshold_line(t: Threshold, at: float, met: bool) -> str:
    min_reclaim = "none" if t.min_reclaim is None else _value(t.min_reclaim)
    return (
        f"threshold: {t.signal}<{_value(t.value)} grace={format_duration(t.grace_period)} "
        f"minReclaim={min_reclaim} since=+{format_duration(at - VIRTUAL_EPOCH)} "
        f"met={_go_bool(met)}"
    )


#: Lines Go prints in map order (random): the observations (a map of signals), and the thresholds
#: of one debug log (ParseThresholdConfig reads evictionHard, a map). A run of consecutive lines
#: of one debug log (its log=) is sorted.
_UNORDERED = re.compile(r'^klog: I "Eviction manager:[^"]*" log="([^"]*)"')
#: Lists of node conditions (nodeConditionsObservedSince walks a map).
_CONDITIONS = re.compile(r"(nodeCondition=|conditions: |condition: )\[([^\]]*)\]")


def _key(line: str) -> str | None:
    m = _UNORDERED.match(line)
    return m.group(1) if m is not None else None


def norm_eviction(lines: list[str]) -> list[str]:
    """Both sides' eviction traces with what Go leaves in map order made canonical: each run of
    observations, or of thresholds of one debug log, sorted; each list of conditions sorted."""
    return sort_runs((_CONDITIONS.sub(_sorted_list, line) for line in lines), _key)


def _sorted_list(m: re.Match[str]) -> str:
    return f"{m.group(1)}[{' '.join(sorted(m.group(2).split()))}]"


def trace(path: str) -> list[str]:
    """The port's trace of a scenario's ``eviction`` steps, as the Go driver prints it."""
    sc = yaml.safe_load(Path(path).read_text())
    run = _Run(sc, path)
    klog.configure(verbosity=3, out=run.out)  # type: ignore[arg-type]
    try:
        go.run(run.main)
    finally:
        klog.configure(verbosity=0, out=None)
    return run.printed


if __name__ == "__main__":
    print("\n".join(norm_eviction(trace(sys.argv[1]))))
