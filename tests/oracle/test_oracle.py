"""The port against real kubelet v1.21.4: every scenario's trace equals its golden trace, at
each level.

The goldens (tests/oracle/golden/ for the runtime level; its kubelet/, volumes/ and eviction/ for
the Kubelet, volume and eviction levels) are what the real kubelet code did on each scenario,
written by ``make oracle`` (tools/oracle/). Here only the port runs (Python). A difference that no
rule of tools.oracle.compare.RULES accepts fails with the diff; every rule must still be needed;
and planted bugs in the port (MUTANTS, KUBELET_MUTANTS, VOLUME_MUTANTS, EVICTION_MUTANTS) must
make some scenario differ.
"""

from __future__ import annotations

import inspect
import sys
import textwrap
from dataclasses import dataclass
from importlib import import_module

import pytest

from tools.oracle import compare

NAMES = compare.scenario_names()
KUBELET_NAMES = compare.scenario_names("kubelet")
VOLUME_NAMES = compare.scenario_names("volumes")
EVICTION_NAMES = compare.scenario_names("eviction")


@pytest.fixture(scope="module")
def port_traces() -> dict[tuple[str, str], list[str]]:
    """Each scenario's port trace at each level, made once for the tests that need them all."""
    return {
        (level, name): compare.port_once(name, level)
        for level in compare.LEVELS
        for name in compare.scenario_names(level)
    }


@pytest.mark.parametrize("level", tuple(compare.LEVELS))
def test_every_scenario_has_its_golden(level: str) -> None:
    names = compare.scenario_names(level)
    goldens = sorted(p.stem for p in compare.golden_dir(level).glob("*.trace"))
    assert goldens == names, "run make oracle after adding or removing a scenario"
    # The volume and eviction levels are young: a handful of scenarios, each many steps.
    assert len(names) >= (5 if level in ("volumes", "eviction") else 40)
    for name in names:
        head = (compare.golden_dir(level) / f"{name}.trace").read_text().splitlines()[0]
        assert head == compare.header(level), name


@pytest.mark.parametrize("name", NAMES)
def test_the_port_does_what_kubelet_did(
    name: str, port_traces: dict[tuple[str, str], list[str]]
) -> None:
    d = compare.diff(name, port_traces["runtime", name])
    assert not d, f"{name}: the port differs from kubelet v1.21.4:\n" + "\n".join(d[:80])


@pytest.mark.parametrize("name", KUBELET_NAMES)
def test_the_ports_kubelet_does_what_kubelet_did(
    name: str, port_traces: dict[tuple[str, str], list[str]]
) -> None:
    d = compare.diff(name, port_traces["kubelet", name], "kubelet")
    assert not d, f"{name}: the port's Kubelet differs from kubelet v1.21.4:\n" + "\n".join(d[:80])


@pytest.mark.parametrize("name", VOLUME_NAMES)
def test_the_ports_volume_manager_does_what_kubelets_did(
    name: str, port_traces: dict[tuple[str, str], list[str]]
) -> None:
    d = compare.diff(name, port_traces["volumes", name], "volumes")
    assert not d, f"{name}: the port's volume manager differs from v1.21.4's:\n" + "\n".join(d[:80])


@pytest.mark.parametrize("name", EVICTION_NAMES)
def test_the_ports_eviction_manager_does_what_kubelets_did(
    name: str, port_traces: dict[tuple[str, str], list[str]]
) -> None:
    d = compare.diff(name, port_traces["eviction", name], "eviction")
    assert not d, f"{name}: the port's eviction manager differs from v1.21.4's:\n" + "\n".join(
        d[:80]
    )


def test_the_rules_are_few_and_each_still_needed(
    port_traces: dict[tuple[str, str], list[str]],
) -> None:
    """A rule that no scenario needs any more (its difference was fixed) must go."""
    assert len(compare.RULES) <= 8
    for rule in compare.RULES:
        assert rule.reason and ("issue #23" in rule.reason or rule.reason.startswith("harness:"))
        assert rule.reason_zh
        others = tuple(r for r in compare.RULES if r is not rule)
        needed = any(
            compare.apply_rules(compare.golden(n, level), others)
            != compare.apply_rules(port_traces[level, n], others)
            for level, n in port_traces
        )
        assert needed, f"rule {rule.name} accepts nothing any more: remove it"


@dataclass(frozen=True)
class Mutant:
    """A plausible bug: ``old`` replaced by ``new`` once in the source of ``module``.``qualname``."""

    name: str
    module: str
    qualname: str
    old: str
    new: str


KR = "minikubelet.kuberuntime.kuberuntime_manager"
KC = "minikubelet.kuberuntime.kuberuntime_container"
MUTANTS = [
    Mutant(
        "OnFailure restarts like Never",
        KR,
        "should_restart_on_failure",
        "!= v1.RestartPolicyNever",
        "== v1.RestartPolicyAlways",
    ),
    Mutant(
        "crash back-off counted from StartedAt",
        KR,
        "KubeGenericRuntimeManager.do_back_off",
        "ts = c_status.finished_at",
        "ts = c_status.started_at",
    ),
    Mutant(
        "KillPod ignores containers to start",
        KR,
        "KubeGenericRuntimeManager.compute_pod_actions",
        "if keep_count == 0 and len(changes.containers_to_start) == 0:",
        "if keep_count == 0:",
    ),
    Mutant(
        "liveness failure ignored",
        KR,
        "KubeGenericRuntimeManager.compute_pod_actions",
        "elif liveness_found and liveness == Result.FAILURE:",
        "elif liveness_found and liveness == Result.UNKNOWN:",
    ),
    Mutant(
        "IfNotPresent always pulls",
        "minikubelet.images.image_manager",
        "should_pull_image",
        "container.image_pull_policy == v1.PullIfNotPresent and not image_present",
        "container.image_pull_policy == v1.PullIfNotPresent",
    ),
    Mutant(
        "grace period has no minimum",
        KC,
        "ContainerMethods.kill_container",
        "if grace_period < minimumGracePeriodInSeconds:",
        "if grace_period < 0:",
    ),
    Mutant(
        "a failed postStart hook leaves the container running",
        KC,
        "ContainerMethods.start_container",
        "kill_err = await self.kill_container(",
        "kill_err = None and await self.kill_container(",
    ),
    Mutant(
        "the preStop hook's time is not taken off the grace period",
        KC,
        "ContainerMethods.kill_container",
        "grace_period = grace_period - await self.execute_pre_stop_hook(",
        "grace_period = grace_period + 0 * await self.execute_pre_stop_hook(",
    ),
    Mutant(
        "a preStop hook is waited for past the grace period",
        KC,
        "ContainerMethods.execute_pre_stop_hook",
        "recv(after(grace_period * Second))",
        "recv(after(3600 * Second))",
    ),
    Mutant(
        "the init container that succeeded runs again",
        KC,
        "find_next_init_container_to_run",
        "return None, pod.spec.init_containers[i + 1], False",
        "return None, pod.spec.init_containers[i], False",
    ),
    Mutant(
        "the container GC keeps one dead container too many",
        "minikubelet.kuberuntime.kuberuntime_gc",
        "ContainerGC.enforce_max_containers_per_evict_unit",
        "to_remove = len(evict_units[key]) - max_containers",
        "to_remove = len(evict_units[key]) - max_containers - 1",
    ),
    Mutant(
        "a dead sandbox goes unnoticed",
        KR,
        "KubeGenericRuntimeManager.pod_sandbox_changed",
        "if sandbox_status.state != runtimeapi.PodSandboxState_SANDBOX_READY:",
        "if sandbox_status.state == runtimeapi.PodSandboxState_SANDBOX_NOTREADY + 1:",
    ),
    Mutant(
        "a container's CPU shares follow its limit, not its request",
        "minikubelet.kuberuntime.kuberuntime_container_linux",
        "LinuxContainerMethods.generate_linux_container_config",
        "cpu_shares = milli_cpu_to_shares(cpu_request.milli_value())",
        "cpu_shares = milli_cpu_to_shares(cpu_limit.milli_value())",
    ),
    Mutant(
        "a Burstable container's OOM score follows its memory limit",
        "minikubelet.qos.policy",
        "get_container_oom_score_adjust",
        "resource_list_memory(container.resources.requests)",
        "resource_list_memory(container.resources.limits)",
    ),
    Mutant(
        "Burstable pods go into the BestEffort cgroup",
        "minikubelet.cm.pod_container_manager_linux",
        "PodContainerManagerImpl.get_pod_container_name",
        "parent_container = self.qos_containers_info.burstable",
        "parent_container = self.qos_containers_info.best_effort",
    ),
]


def plant(mutant: Mutant, monkeypatch: pytest.MonkeyPatch) -> None:
    """Replace the function by one compiled from its mutated source, wherever it is held."""
    module = import_module(mutant.module)
    owner: object = module
    *path, attr = mutant.qualname.split(".")
    for part in path:
        owner = getattr(owner, part)
    original = inspect.unwrap(getattr(owner, attr))
    source = textwrap.dedent(inspect.getsource(original))
    assert source.count(mutant.old) == 1, (mutant.name, source.count(mutant.old))
    namespace = dict(original.__globals__)
    code = compile(source.replace(mutant.old, mutant.new), inspect.getfile(original), "exec")
    exec(code, namespace)
    mutated = namespace[attr]
    if path:
        monkeypatch.setattr(owner, attr, mutated)
        return
    for mod in list(sys.modules.values()):
        if getattr(mod, attr, None) is original:
            monkeypatch.setattr(mod, attr, mutated)


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_a_planted_bug_makes_a_scenario_differ(
    mutant: Mutant, monkeypatch: pytest.MonkeyPatch
) -> None:
    plant(mutant, monkeypatch)
    caught = next((n for n in NAMES if compare.diff(n)), None)
    assert caught is not None, f"no scenario catches the mutant: {mutant.name}"


@dataclass(frozen=True)
class KubeletMutant:
    """A plausible bug above the runtime, and the Kubelet-level (or volume-level) scenario that
    must catch it (named, so that the check runs one scenario, not all)."""

    mutant: Mutant
    scenario: str
    level: str = "kubelet"


KL = "minikubelet.kubelet"
KUBELET_MUTANTS = [
    KubeletMutant(
        Mutant(
            "admission admits everything",
            KL,
            "Kubelet.handle_pod_additions",
            "await self.can_admit_pod(active_pods, pod)",
            '(True, "", "")',
        ),
        "admission-outofcpu",
    ),
    KubeletMutant(
        Mutant(
            "a static pod gets no mirror pod",
            KL,
            "Kubelet.sync_pod",
            "if mirror_pod is None or deleted:",
            "if deleted:",
        ),
        "static-pod-mirror",
    ),
    KubeletMutant(
        Mutant(
            "a readiness result is read backwards",
            KL,
            "Kubelet.sync_loop_iteration",
            "ready = update.result == Result.SUCCESS",
            "ready = update.result != Result.SUCCESS",
        ),
        "readiness-probe",
    ),
    KubeletMutant(
        Mutant(
            "a good sync is requeued after the back-off",
            "minikubelet.pod_workers",
            "PodWorkersImpl.wrap_up",
            "jitter(self.resync_interval, workerResyncIntervalJitterFactor)",
            "jitter(self.back_off_period, workerResyncIntervalJitterFactor)",
        ),
        "always-exit0",
    ),
    KubeletMutant(
        Mutant(
            "a container without a readiness probe is never ready",
            "minikubelet.prober.prober_manager",
            "ProberManager.update_pod_status",
            "ready = not exists",
            "ready = exists",
        ),
        "never-exit0",
    ),
    KubeletMutant(
        Mutant(
            "a startup result does not mark the container started",
            KL,
            "Kubelet.sync_loop_iteration",
            "started = update.result == Result.SUCCESS",
            "started = False",
        ),
        "startup-probe-then-liveness",
    ),
    KubeletMutant(
        Mutant(
            "the directory of a pod kubelet still has is cleaned up",
            "minikubelet.kubelet_volumes",
            "KubeletVolumes.cleanup_orphaned_pod_dirs",
            "all_pods = {pod.metadata.uid for pod in pods}",
            "all_pods = set()",
        ),
        "never-exit0",
    ),
]


VOL = "minikubelet.k8s_io.kubernetes.pkg.volume"
VOLUME_MUTANTS = [
    KubeletMutant(
        Mutant(
            "an optional configMap that is missing fails the SetUp",
            f"{VOL}.configmap.configmap",
            "ConfigMapVolumeMounter.set_up_at",
            "if not (is_not_found(err) and optional):",
            "if True:",
        ),
        "volumes-optional-and-items",
        "volumes",
    ),
    KubeletMutant(
        Mutant(
            "FileOrCreate makes the file's directory too",
            f"{VOL}.hostpath.host_path",
            "check_type_internal",
            "fs.create_file(path)",
            'fs.write_file(path, b"")',
        ),
        "volumes-host-path",
        "volumes",
    ),
    KubeletMutant(
        Mutant(
            "a remount sets the emptyDir up again",
            f"{VOL}.emptydir.empty_dir",
            "EmptyDir.set_up_at",
            "if is_ready(fs, ready_dir):",
            "if False:",
        ),
        "volumes-configmap-missing",
        "volumes",
    ),
    KubeletMutant(
        Mutant(
            "the wait blames every volume",
            "minikubelet.volumemanager.volume_manager",
            "filter_unmounted_volumes",
            "if v not in mounted_volumes",
            "if True",
        ),
        "volumes-configmap-missing",
        "volumes",
    ),
]


EM = "minikubelet.eviction.eviction_manager"
EH = "minikubelet.eviction.helpers"
EVICTION_MUTANTS = [
    KubeletMutant(
        Mutant(
            "a BestEffort pod is admitted under memory pressure",
            EM,
            "ManagerImpl.admit",
            "not_best_effort = PodQOSBestEffort != get_pod_qos(attrs.pod)",
            "not_best_effort = True",
        ),
        "eviction-admission",
        "eviction",
    ),
    KubeletMutant(
        Mutant(
            "the smallest consumer above its request is evicted first",
            EH,
            "memory",
            "return p2_memory.cmp(p1_memory)",
            "return p1_memory.cmp(p2_memory)",
        ),
        "eviction-memory-qos-order",
        "eviction",
    ),
    KubeletMutant(
        Mutant(
            "a critical pod is evicted",
            EM,
            "ManagerImpl.evict_pod",
            "if is_critical_pod(pod):",
            "if False:",
        ),
        "eviction-critical-pods",
        "eviction",
    ),
    KubeletMutant(
        Mutant(
            "a soft threshold evicts before its grace period is over",
            EH,
            "thresholds_met_grace_period",
            "if duration < threshold.grace_period:",
            "if False:",
        ),
        "eviction-soft-grace-period",
        "eviction",
    ),
    KubeletMutant(
        Mutant(
            "a soft eviction kills with no grace period",
            EM,
            "ManagerImpl.synchronize",
            "grace_period_override = self.config.max_pod_grace_period_seconds",
            "grace_period_override = 0",
        ),
        "eviction-soft-grace-period",
        "eviction",
    ),
    KubeletMutant(
        Mutant(
            "a met threshold is resolved without its minimum reclaim",
            EH,
            "thresholds_met",
            "if enforce_min_reclaim and threshold.min_reclaim is not None:",
            "if False:",
        ),
        "eviction-minimum-reclaim",
        "eviction",
    ),
    KubeletMutant(
        Mutant(
            "a pressure condition ends with its threshold",
            EH,
            "node_conditions_observed_since",
            "if duration < period:",
            "if duration <= 0:",
        ),
        "eviction-transition-period",
        "eviction",
    ),
    KubeletMutant(
        Mutant(
            "garbage collection is taken to relieve any disk pressure",
            EM,
            "ManagerImpl.reclaim_node_level_resources",
            "if len(thresholds) == 0:",
            "if True:",
        ),
        "eviction-nodefs-shared-disk",
        "eviction",
    ),
    KubeletMutant(
        Mutant(
            "a container under its ephemeral-storage limit is evicted",
            EM,
            "ManagerImpl.container_ephemeral_storage_limit_eviction",
            "if ephemeral_storage_threshold.cmp(container_used) < 0:",
            "if ephemeral_storage_threshold.cmp(container_used) > 0:",
        ),
        "eviction-local-storage-limits",
        "eviction",
    ),
    KubeletMutant(
        Mutant(
            "a disk threshold is reclaimed before a memory threshold",
            EH,
            "by_eviction_priority_less",
            "or not j_signal_has_resource",
            "or j_signal_has_resource",
        ),
        "eviction-memory-before-disk",
        "eviction",
    ),
]


@pytest.mark.parametrize(
    "km", KUBELET_MUTANTS + VOLUME_MUTANTS + EVICTION_MUTANTS, ids=lambda k: k.mutant.name
)
def test_a_planted_bug_makes_a_kubelet_scenario_differ(
    km: KubeletMutant, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert km.scenario in compare.scenario_names(km.level)
    assert not compare.diff(km.scenario, level=km.level), "the scenario must match unplanted"
    plant(km.mutant, monkeypatch)
    assert compare.diff(km.scenario, level=km.level), f"{km.scenario} misses: {km.mutant.name}"
