"""The port against real kubelet: each scenario's port trace is diffed with its golden trace.

A golden (tests/oracle/golden/NAME.trace) is what kubelet v1.21.4 did on the scenario
(tests/oracle/scenarios/NAME.yaml), written by ``make oracle``. The port's trace is made here, in
Python only (tools.oracle.port_trace). Before the diff, each rule of RULES rewrites both traces the
same way: a rule is one accepted difference, with its reason. Ours; no Kubernetes code.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from tools.oracle.norm import norm
from tools.oracle.port_trace import trace

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "oracle" / "scenarios"
GOLDEN = ROOT / "tests" / "oracle" / "golden"
#: What kubelet's own types print through fmt and klog (tools/oracle/go/hack/fmtcheck).
FMT_GOLDEN = ROOT / "tests" / "oracle" / "fmt.golden"
KUBEEDGE_COMMIT = "f5a90933b2b4a16a7cc0d63bf426d0c04846b1ef"
HEADER = (
    f"## kubelet v1.21.4 (vendored by kubeedge/kubeedge {KUBEEDGE_COMMIT[:12]}), runtime level;"
    " written by make oracle"
)


def scenario_names() -> list[str]:
    """Every scenario, by file name."""
    return sorted(p.stem for p in SCENARIOS.glob("*.yaml"))


@dataclass(frozen=True)
class Rule:
    """One accepted difference: ``apply`` rewrites a trace so that the difference disappears."""

    name: str
    reason: str
    reason_zh: str
    apply: Callable[[list[str]], list[str]]


def _config_without(*paths: str) -> Callable[[list[str]], list[str]]:
    def apply(lines: list[str]) -> list[str]:
        out = []
        for line in lines:
            m = re.match(r"(config: (?:CreateContainer|RunPodSandbox) \S+ )(\{.*\})$", line)
            if m:
                d = json.loads(m.group(2))
                for path in paths:
                    *parents, last = path.split("/")
                    node = d
                    for key in parents:
                        node = node.get(key, {})
                    node.pop(last, None)
                line = m.group(1) + json.dumps(d, sort_keys=True, separators=(",", ":"))
            out.append(line)
        return out

    return apply


RULES: tuple[Rule, ...] = (
    Rule(
        "container-config-json",
        "issue #23 item 4: the port now builds ContainerConfig.linux and the sandbox's cgroup "
        "parent, but the goldens were written before the oracle set them (kubelet's default "
        "--cpu-cfs-quota, the pod cgroup); to go once make oracle writes them again",
        "issue #23 第 4 项：移植版已构建 ContainerConfig.linux 与沙箱的 cgroup 父路径，但现有黄金文件写于对照程序设置它们之前（kubelet 默认的 --cpu-cfs-quota、Pod cgroup）；make oracle 重新生成后即可删除本规则",
        _config_without(
            "linux/resources/cpu_period", "linux/resources/cpu_quota", "linux/cgroup_parent"
        ),
    ),
)


def apply_rules(lines: list[str], rules: tuple[Rule, ...] = RULES) -> list[str]:
    """Both traces, rewritten by every rule."""
    for rule in rules:
        lines = rule.apply(lines)
    return lines


def golden(name: str) -> list[str]:
    """The golden trace of a scenario, without its header line."""
    text = (GOLDEN / f"{name}.trace").read_text()
    return [line for line in text.splitlines() if not line.startswith("## ")]


def port(name: str) -> list[str]:
    """The port's trace of a scenario, normalised as the goldens are."""
    return norm(trace(str(SCENARIOS / f"{name}.yaml")))


def diff(name: str, port_lines: list[str] | None = None) -> list[str]:
    """The unified diff (golden first) that the rules leave, empty when the port matches."""
    mine = port(name) if port_lines is None else port_lines
    return list(
        difflib.unified_diff(
            apply_rules(golden(name)),
            apply_rules(mine),
            f"golden/{name}.trace (kubelet)",
            f"{name} (port)",
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


def verdict(name: str) -> Verdict:
    """Run the port on the scenario and judge it against its golden."""
    meta = yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text())
    mine, theirs = port(name), golden(name)
    needed = tuple(
        r.name
        for r in RULES
        if apply_rules(theirs, tuple(o for o in RULES if o is not r))
        != apply_rules(mine, tuple(o for o in RULES if o is not r))
    )
    left = diff(name, mine)
    return Verdict(
        name,
        dict(meta.get("title") or {}),
        tuple(meta.get("chapters") or ()),
        sum(1 for line in left[2:] if line[:1] in "+-"),
        needed,
    )
