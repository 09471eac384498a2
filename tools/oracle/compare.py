"""The port against real kubelet: each scenario's port trace is diffed with its golden trace.

Four levels. The runtime level (a scenario's ``steps``): tests/oracle/golden/NAME.trace is what
kubelet v1.21.4's GetPodStatus → computePodActions → SyncPod did (tools.oracle.port_trace makes the
port's). The Kubelet level (a scenario's ``kubelet`` steps): tests/oracle/golden/kubelet/NAME.trace
is what a real ``*Kubelet`` did through its syncLoopIteration (tools.oracle.kubelet_trace makes the
port's). The volume level (a scenario's ``volumes`` steps): tests/oracle/golden/volumes/NAME.trace
is what kubelet's real volume manager (populator, reconciler, operation executor, the volume
plugins) did, stepped pass by pass (tools.oracle.volume_trace makes the port's). The eviction
level (a scenario's ``eviction`` steps): tests/oracle/golden/eviction/NAME.trace is what kubelet's
real eviction manager (synchronize, Admit, the ranking, evictPod) did over a simulated node's
stats summary on a fake clock (tools.oracle.eviction_trace makes the port's). The goldens are
written by ``make oracle``; the port's traces are made here, in Python only. Before the diff, each rule of RULES rewrites both traces the same way: a rule is one accepted
difference, with its reason. Ours; no Kubernetes code.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from tools.oracle import eviction_trace, kubelet_trace, volume_trace
from tools.oracle.norm import norm, norm_kubelet
from tools.oracle.port_trace import trace

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "oracle" / "scenarios"
GOLDEN = ROOT / "tests" / "oracle" / "golden"
#: What kubelet's own types print through fmt and klog (tools/oracle/go/hack/fmtcheck).
FMT_GOLDEN = ROOT / "tests" / "oracle" / "fmt.golden"
KUBEEDGE_COMMIT = "f5a90933b2b4a16a7cc0d63bf426d0c04846b1ef"
#: The levels, and the key of a scenario file that holds each one's steps.
LEVELS = {"runtime": "steps", "kubelet": "kubelet", "volumes": "volumes", "eviction": "eviction"}


def header(level: str = "runtime") -> str:
    """The first line of every golden of a level."""
    return (
        f"## kubelet v1.21.4 (vendored by kubeedge/kubeedge {KUBEEDGE_COMMIT[:12]}), {level} level;"
        " written by make oracle"
    )


HEADER = header("runtime")


def golden_dir(level: str = "runtime") -> Path:
    """Where a level's goldens are."""
    return GOLDEN if level == "runtime" else GOLDEN / level


def scenario_names(level: str = "runtime") -> list[str]:
    """Every scenario that has steps at that level, by file name."""
    key = LEVELS[level]
    return sorted(
        p.stem for p in SCENARIOS.glob("*.yaml") if key in (yaml.safe_load(p.read_text()) or {})
    )


@dataclass(frozen=True)
class Rule:
    """One accepted difference: ``apply`` rewrites a trace so that the difference disappears."""

    name: str
    reason: str
    reason_zh: str
    apply: Callable[[list[str]], list[str]]


def _without_cri_client_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if not _CRI_CLIENT.match(line)]


_CRI_CLIENT = re.compile(r'^klog: E "\w+ cmd from runtime service failed"')


def _statfs_unsaid(lines: list[str]) -> list[str]:
    return [_STATFS.sub(r"\1<statfs>", line) for line in lines]


_STATFS = re.compile(r"^(klog: I Statfs_t of \S+: )\{.*\}$")


RULES: tuple[Rule, ...] = (
    Rule(
        "cri-client-lines",
        "harness: the Go driver hands kubelet its fake CRI directly, not through kubelet's gRPC "
        "client (remote_runtime.go), so the client's line for a failed ExecSync is not printed; "
        "the port's fake answers through the ported client, which prints it as kubelet does",
        "对照装置所致：Go 驱动把假 CRI 直接交给 kubelet，没有经过 kubelet 的 gRPC 客户端"
        "（remote_runtime.go），所以客户端为失败的 ExecSync 打印的那一行不会出现；移植版的假运行时"
        "通过移植的客户端作答，像 kubelet 一样打印这一行",
        _without_cri_client_lines,
    ),
    Rule(
        "statfs-numbers",
        "harness: the Statfs_t kubelet logs before it mounts a tmpfs describes the disk of the "
        "machine the oracle runs on; the port's describes its simulated node",
        "对照装置所致：kubelet 挂载 tmpfs 之前记录的 Statfs_t 描述的是运行对照的那台机器的磁盘；移植版描述的是它模拟的节点",
        _statfs_unsaid,
    ),
)


def apply_rules(lines: list[str], rules: tuple[Rule, ...] = RULES) -> list[str]:
    """Both traces, rewritten by every rule."""
    for rule in rules:
        lines = rule.apply(lines)
    return lines


def golden(name: str, level: str = "runtime") -> list[str]:
    """The golden trace of a scenario, without its header line."""
    text = (golden_dir(level) / f"{name}.trace").read_text()
    return [line for line in text.splitlines() if not line.startswith("## ")]


def port(name: str, level: str = "runtime") -> list[str]:
    """The port's trace of a scenario, normalised as the goldens are."""
    path = str(SCENARIOS / f"{name}.yaml")
    if level == "kubelet":
        return norm_kubelet(kubelet_trace.trace(path))
    if level == "volumes":
        return volume_trace.norm_volumes(volume_trace.trace(path))
    if level == "eviction":
        return eviction_trace.norm_eviction(eviction_trace.trace(path))
    return norm(trace(path))


def normalise(level: str, lines: list[str]) -> list[str]:
    """A level's Go trace made canonical as the port's is (tools.oracle.norm), without what
    changes from one run of the same oracle to the next (`repeatable`)."""
    if level == "kubelet":
        return norm_kubelet(lines)
    if level == "volumes":
        return repeatable(volume_trace.norm_volumes(lines))
    if level == "eviction":
        return eviction_trace.norm_eviction(lines)
    return norm(lines)


def repeatable(lines: list[str]) -> list[str]:
    """A volume-level Go trace as every run of the oracle writes it, so that ``make oracle``
    rewrites the same goldens: the lines of client-go's reflectors are left out (the watching
    configMap and secret managers start and stop one per object in goroutines of their own, so
    whether a pass shows them depends on when those ran; the port has no reflector), and the
    Statfs_t of the machine's disk is not said (its free counts move as the machine works)."""
    return _statfs_unsaid([line for line in lines if not _REFLECTOR.match(line)])


_REFLECTOR = re.compile(r"^klog: I (Starting reflector|Stopping reflector|Listing and watching) ")


@cache
def _port_once(name: str, level: str) -> tuple[str, ...]:
    return tuple(port(name, level))


def port_once(name: str, level: str = "runtime") -> list[str]:
    """The port's trace, made once per process (the tests and the site both need every one);
    [`port`][] makes a fresh one, as a planted bug needs."""
    return list(_port_once(name, level))


def diff(name: str, port_lines: list[str] | None = None, level: str = "runtime") -> list[str]:
    """The unified diff (golden first) that the rules leave, empty when the port matches."""
    mine = port(name, level) if port_lines is None else port_lines
    where = "golden" if level == "runtime" else f"golden/{level}"
    return list(
        difflib.unified_diff(
            apply_rules(golden(name, level)),
            apply_rules(mine),
            f"{where}/{name}.trace (kubelet)",
            f"{name} (port, {level} level)",
            lineterm="",
            n=2,
        )
    )


@dataclass(frozen=True)
class Verdict:
    """How the port fared on one scenario: differing lines left, and the rules it needed."""

    name: str
    title: dict[str, str]
    chapters: tuple[int, ...]
    differing: int
    rules: tuple[str, ...]
    level: str = "runtime"


def verdict(name: str, level: str = "runtime") -> Verdict:
    """Run the port on the scenario and judge it against its golden at that level."""
    meta = yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text())
    mine, theirs = port_once(name, level), golden(name, level)
    needed = tuple(
        r.name
        for r in RULES
        if apply_rules(theirs, tuple(o for o in RULES if o is not r))
        != apply_rules(mine, tuple(o for o in RULES if o is not r))
    )
    left = diff(name, mine, level)
    return Verdict(
        name,
        dict(meta.get("title") or {}),
        tuple(meta.get("chapters") or ()),
        sum(1 for line in left[2:] if line[:1] in "+-"),
        needed,
        level,
    )
