"""Chapter 13 example: QoS classes and the pod cgroups syncPod makes before the runtime.

Three pods from a scripted API server (walkthrough/ch13/pods.yaml), one of each QoS class: "db"
(Guaranteed) gets its cgroup straight under kubepods, capped at its limits; "api" (Burstable)
under kubepods/burstable, whose CPU weight grows with its CPU request; "batch" (BestEffort) under
kubepods/besteffort with the least weight. "batch" is deleted at 10 s: its container takes 5 s
to stop, and housekeeping removes its cgroup only after that. The example prints each change of
the node's cgroup tree as it happens. Seed 1, virtual clock.

    python walkthrough/ch13/example.py                          # run it (20 s of kubelet time)
    python walkthrough/ch13/example.py --breakpoints            # where to stop, as pdb commands
    python walkthrough/ch13/example.py --break ensure           # stop in pdb where a pod cgroup is made
    python -m pdb walkthrough/ch13/example.py                   # drive pdb yourself

Named breakpoint spots (see SPOTS): qos, cgroup-branch, limits, ensure, container, orphan.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minikubelet.base.i18n import text
from minikubelet.go.duration import format_duration
from minikubelet.kubelet import Kubelet
from walkthrough.ch13.cgroups import Change, shown, watch_cgroups
from walkthrough.examples import Spot, example_main, run_kubelet

SCRIPT = Path(__file__).with_name("pods.yaml")

SPOTS = [
    Spot(
        "qos",
        "minikubelet.k8s_io.kubernetes.pkg.apis.core.v1.helper.qos.qos:get_pod_qos",
        "if len(requests) == 0 and len(limits) == 0:",
        "a pod's requests and limits are added up: `p pod.metadata.name, requests, limits, "
        "is_guaranteed`",
        "Pod 的 requests 与 limits 已经加总：`p pod.metadata.name, requests, limits, is_guaranteed`",
    ),
    Spot(
        "cgroup-branch",
        "minikubelet.kubelet:Kubelet.sync_pod",
        "pcm = self.container_manager.new_pod_container_manager()",
        "syncPod, before the runtime: `n` until `pcm.exists(pod)`, then `p pcm.exists(pod)`",
        "syncPod 交给运行时之前：`n` 走到 `pcm.exists(pod)`，然后 `p pcm.exists(pod)`",
    ),
    Spot(
        "limits",
        "minikubelet.cm.helpers_linux:resource_config_for_pod",
        "qos_class = get_pod_qos(pod)",
        "the pod's sums are known: `p cpu_shares, cpu_quota, memory_limits, cpu_limits_declared, "
        "memory_limits_declared`",
        "Pod 的总量已经算出：`p cpu_shares, cpu_quota, memory_limits, cpu_limits_declared, "
        "memory_limits_declared`",
    ),
    Spot(
        "ensure",
        "minikubelet.cm.pod_container_manager_linux:PodContainerManagerImpl.ensure_exists",
        "if self.pod_pids_limit > 0:",
        "a pod cgroup is about to be made: `p pod_container_name`, then "
        "`p container_config.resource_parameters`",
        "马上要创建一个 Pod cgroup：`p pod_container_name`，然后 "
        "`p container_config.resource_parameters`",
    ),
    Spot(
        "container",
        "minikubelet.kuberuntime.kuberuntime_container_linux:"
        "LinuxContainerMethods.generate_linux_container_config",
        "resources.oom_score_adj = oom_score_adj",
        "a container's resources for the runtime: `p container.name, cpu_shares, "
        "memory_limit, oom_score_adj`",
        "交给运行时的容器资源：`p container.name, cpu_shares, memory_limit, oom_score_adj`",
    ),
    Spot(
        "orphan",
        "minikubelet.kubelet_pods:KubeletPods.cleanup_orphaned_pod_cgroups",
        'klog.v(3).info_s("Orphaned pod found, removing pod cgroups", podUID=uid)',
        "housekeeping found the cgroup of a pod that is gone: `p uid, val`",
        "housekeeping 找到一个已消失 Pod 的 cgroup：`p uid, val`",
    ),
]


def describe(change: Change, lang: str) -> str | None:
    """One line of the timeline, in the reader's language; None for a write of files the
    example does not follow (huge page limits)."""
    match change.op:
        case "mkdir":
            return text(f"made     {change.path}", f"创建     {change.path}", lang)
        case "rmdir":
            return text(f"removed  {change.path}", f"删除     {change.path}", lang)
        case _:
            files = shown(change.files)
            if not files:
                return None
            return text(
                f"wrote    {change.path}: {files}", f"写入     {change.path}：{files}", lang
            )


def watch(kl: Kubelet, lang: str) -> None:
    """Print each change of the node's cgroup tree as it happens."""

    def show(change: Change) -> None:
        line = describe(change, lang)
        if line is not None:
            print(f"{format_duration(change.at):>8}  {line}")

    watch_cgroups(kl, show)


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(
        SCRIPT,
        seed=args.seed,
        until=args.until,
        lang=lang,
        setup=lambda kl: watch(kl, lang),
    )


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv, until="20s")


if __name__ == "__main__":
    sys.exit(main())
