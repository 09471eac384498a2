"""Chapter 14 example: volumes, and why a pod sits in ContainerCreating.

Two pods from a scripted API server (walkthrough/ch14/pods.yaml). "web" mounts a configMap
that appears only at 2m30s: every SetUp of it fails (a FailedMount event), retried 0.5 s, 1 s,
2 s … later; syncPod waits 2m3s for the volumes, gives up ("Unable to attach or mount
volumes"), and waits again at the pod worker's next try; the back-off holds the next SetUp until
4m10s, when the pod starts at last. "api" mounts a secret that appears at 20 s: its SetUp
succeeds at the first retry after that, at 32.3 s. The example prints each SetUp, each
FailedMount and each wait of syncPod as it happens. Seed 1, virtual clock.

    python walkthrough/ch14/example.py                          # run it (5 min of kubelet time)
    python walkthrough/ch14/example.py --breakpoints            # where to stop, as pdb commands
    python walkthrough/ch14/example.py --break set-up           # stop in pdb in a configMap SetUp
    python -m pdb walkthrough/ch14/example.py                   # drive pdb yourself

Named breakpoint spots (see SPOTS): wait, give-up, populate, mount, set-up, back-off.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minikubelet.base.i18n import text
from minikubelet.go.duration import format_duration
from minikubelet.kubelet import Kubelet
from walkthrough.ch14.mounts import Step, watch_mounts
from walkthrough.examples import Spot, example_main, run_kubelet

SCRIPT = Path(__file__).with_name("pods.yaml")

SPOTS = [
    Spot(
        "wait",
        "minikubelet.volumemanager.volume_manager:VolumeManager.wait_for_attach_and_mount",
        'klog.v(3).info_s("Waiting for volumes to attach and mount for pod", pod=klog.kobj(pod))',
        "syncPod waits for the pod's volumes: `p pod.metadata.name, expected_volumes`",
        "syncPod 等待 Pod 的卷：`p pod.metadata.name, expected_volumes`",
    ),
    Spot(
        "give-up",
        "minikubelet.volumemanager.volume_manager:VolumeManager.wait_for_attach_and_mount",
        "unmounted_volumes = self.get_unmounted_volumes(unique_pod_name, expected_volumes)",
        "the 2m3s are over: `p err`, then `n` and `p unmounted_volumes`",
        "2 分 3 秒已过：`p err`，然后 `n` 和 `p unmounted_volumes`",
    ),
    Spot(
        "populate",
        "minikubelet.volumemanager.populator.desired_state_of_world_populator:"
        "DesiredStateOfWorldPopulator.process_pod_volumes",
        "all_volumes_added = True",
        "a pod's volumes go into the desired state: `p pod.metadata.name, [v.name for v in "
        "pod.spec.volumes]`",
        "一个 Pod 的卷进入期望状态：`p pod.metadata.name, [v.name for v in pod.spec.volumes]`",
    ),
    Spot(
        "mount",
        "minikubelet.volumemanager.reconciler.reconciler:Reconciler.mount_attach_volumes",
        "err = self.operation_executor.mount_volume(",
        "the reconciler asks for a mount: `p volume_to_mount.outer_volume_spec_name, is_remount`",
        "调谐器请求一次挂载：`p volume_to_mount.outer_volume_spec_name, is_remount`",
    ),
    Spot(
        "set-up",
        "minikubelet.k8s_io.kubernetes.pkg.volume.configmap.configmap:"
        "ConfigMapVolumeMounter.set_up_at",
        "config_map = self.plugin.get_config_map(namespace, name)",
        "a configMap SetUp reads its configMap: `p namespace, name, optional`, then `n`",
        "一次 configMap 的 SetUp 读取它的 ConfigMap：`p namespace, name, optional`，然后 `n`",
    ),
    Spot(
        "back-off",
        "minikubelet.k8s_io.kubernetes.pkg.volume.util.nestedpendingoperations."
        "nestedpendingoperations:NestedPendingOperations.run",
        "back_off_err = previous_op.exp_backoff.safe_to_retry(",
        "a retry asked for during a back-off: `p previous_op.exp_backoff.duration_before_retry`",
        "在退避期间请求的重试：`p previous_op.exp_backoff.duration_before_retry`",
    ),
]


def describe(step: Step, lang: str) -> str:
    """One line of the timeline, in the reader's language."""
    match step.kind:
        case "setup":
            return text(f"SetUp of volume {step.volume}", f"卷 {step.volume} 的 SetUp", lang)
        case "failed":
            return f"FailedMount: {step.detail}"
        case "wait":
            return text("syncPod waits for the volumes", "syncPod 等待卷", lang)
        case "gave-up":
            return text(
                f"syncPod gives up: {step.detail}", f"syncPod 放弃等待：{step.detail}", lang
            )
        case _:
            return text(
                "syncPod: all volumes mounted, on to the runtime",
                "syncPod：卷都已挂载，交给运行时",
                lang,
            )


def watch(kl: Kubelet, lang: str) -> None:
    """Print each step of the pods' volumes as it happens."""

    def show(step: Step) -> None:
        print(f"{format_duration(step.at):>8}  {step.pod:<5} {describe(step, lang)}")

    watch_mounts(kl, show)


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(
        SCRIPT.read_text(),
        seed=args.seed,
        until=args.until,
        lang=lang,
        setup=lambda kl: watch(kl, lang),
    )


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv, until="5m")


if __name__ == "__main__":
    sys.exit(main())
