"""Chapter 6 example: Kubelet.syncPod, and the places where it returns early.

Three pods from a scripted API server, on a node whose network plugin is not ready at first
(kubelet sees it ready at its runtime check at 5 s). "web" and "batch" wait for the network
("network is not ready", retried every 1 to 2 s) while "node-agent" (hostNetwork) starts at once.
At 10 s "web" is deleted; its container takes 10 s to stop, and a new "web" (another UID) created
at 11 s fails with "pending termination" until then. "batch" has activeDeadlineSeconds 20: it is
Failed 20 s after it was first seen, and syncPod kills it. The example prints how every syncPod
ended. Seed 1, virtual clock.

    python walkthrough/ch06/example.py                          # run it (30 s of kubelet time)
    python walkthrough/ch06/example.py --breakpoints            # where to stop, as pdb commands
    python walkthrough/ch06/example.py --break kill-if          # stop in pdb at step 6
    python -m pdb walkthrough/ch06/example.py                   # drive pdb yourself

Named breakpoint spots (see SPOTS): sync-pod, pending, status, kill-if, network, runtime.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minikubelet.base.i18n import text
from minikubelet.go.duration import format_duration
from minikubelet.kubelet import Kubelet
from walkthrough.ch06.syncs import Sync, network_not_ready_until, watch_syncs
from walkthrough.examples import Spot, example_main, run_kubelet

#: What the scripted API server sends (minikubelet run --api-script takes it too).
SCRIPT = Path(__file__).parent / "pods" / "example.yaml"

SPOTS = [
    Spot(
        "sync-pod",
        "minikubelet.kubelet:Kubelet.sync_pod",
        None,
        "a sync starts: `p o.pod.metadata.name, o.pod.metadata.uid, str(o.update_type)`; `n` "
        "over the steps",
        "一次同步开始：`p o.pod.metadata.name, o.pod.metadata.uid, str(o.update_type)`；用 `n` 走过各个步骤",
    ),
    Spot(
        "pending",
        "minikubelet.kubelet:Kubelet.sync_pod",
        "if self.pod_killer.is_pod_pending_termination_by_pod_name(pod_full_name):",
        "step 2: `p pod_full_name, "
        "self.pod_killer.is_pod_pending_termination_by_pod_name(pod_full_name)`",
        "第 2 步：`p pod_full_name, "
        "self.pod_killer.is_pod_pending_termination_by_pod_name(pod_full_name)`",
    ),
    Spot(
        "status",
        "minikubelet.kubelet:Kubelet.sync_pod",
        "api_pod_status = self.generate_api_pod_status(pod, pod_status)",
        "step 3: `n`, then `p api_pod_status.phase, api_pod_status.reason`",
        "第 3 步：`n` 之后 `p api_pod_status.phase, api_pod_status.reason`",
    ),
    Spot(
        "kill-if",
        "minikubelet.kubelet:Kubelet.sync_pod",
        "or pod.metadata.deletion_timestamp is not None",
        "step 6: `p runnable.admit, pod.metadata.deletion_timestamp, str(api_pod_status.phase)`",
        "第 6 步：`p runnable.admit, pod.metadata.deletion_timestamp, str(api_pod_status.phase)`",
    ),
    Spot(
        "network",
        "minikubelet.kubelet:Kubelet.sync_pod",
        "err = self.runtime_state.network_errors()",
        "step 7: `n`, then `p network_err, pod.spec.host_network`",
        "第 7 步：`n` 之后 `p network_err, pod.spec.host_network`",
    ),
    Spot(
        "runtime",
        "minikubelet.kubelet:Kubelet.sync_pod",
        "result = await self.container_runtime.sync_pod(pod, pod_status, pull_secrets, "
        "self.back_off)",
        "step 9, the runtime's SyncPod: `s` to step into it (chapter 7)",
        "第 9 步，运行时的 SyncPod：`s` 进入它（第 7 章）",
    ),
]


def watch(kl: Kubelet, lang: str) -> None:
    """Print how every syncPod ended, and keep the node's network not ready at first."""
    network_not_ready_until(kl, 3.0)

    def show(s: Sync) -> None:
        who = f"{s.pod} (uid …{s.uid})"
        outcome = "ok" if s.error is None else f"{text('error', '错误', lang)}: {s.error}"
        print(f"{format_duration(s.at):>8}  {who:<22} {outcome}")

    watch_syncs(kl, show)


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(
        SCRIPT, seed=args.seed, until=args.until, lang=lang, setup=lambda kl: watch(kl, lang)
    )


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv, until="30s")


if __name__ == "__main__":
    sys.exit(main())
