"""Chapter 4 example: HandlePodAdditions sorts, admits and dispatches.

The node has room for 2 pods and 4 CPUs. Three pods arrive in one ADD (the scripted API server
lists them at 0 s): the two oldest are admitted, the youngest is rejected (OutOfpods). At 3 s
the oldest is deleted, and at 4 s a pod asking for 64 CPUs would fit in number but not in CPU:
rejected (OutOfcpu). Admitted pods go to dispatchWork and their pod workers. Seed 1, virtual
clock.

    python walkthrough/ch04/example.py                          # run it (8 s of kubelet time)
    python walkthrough/ch04/example.py --breakpoints            # where to stop, as pdb commands
    python walkthrough/ch04/example.py --break admit            # stop in pdb at admission
    python -m pdb walkthrough/ch04/example.py                   # drive pdb yourself

Named breakpoint spots (see SPOTS): additions, admit, reject, dispatch, sync-pod.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from walkthrough.examples import Spot, example_main, run_kubelet

#: What the scripted API server sends (minikubelet run --api-script takes it too).
SCRIPT = Path(__file__).parent / "pods" / "example.yaml"

SPOTS = [
    Spot(
        "additions",
        "minikubelet.kubelet:Kubelet.handle_pod_additions",
        None,
        "a batch of new pods: `p [p.metadata.name for p in pods]`; `n` once and `p "
        "[p.metadata.name for p in pods]` again (sorted)",
        "一批新 Pod：`p [p.metadata.name for p in pods]`；`n` 一步后再 `p [p.metadata.name for p in "
        "pods]`（已排序）",
    ),
    Spot(
        "admit",
        "minikubelet.kubelet:Kubelet.handle_pod_additions",
        "ok, reason, message = await self.can_admit_pod(active_pods, pod)",
        "admission: `p pod.metadata.name`, `p [p.metadata.name for p in active_pods]`; "
        "`goroutine`: the sync loop's; a refusal stops at the spot `reject`",
        "准入检查：`p pod.metadata.name`、`p [p.metadata.name for p in active_pods]`；`goroutine`：主循环的 "
        "goroutine；被拒绝时停在位置 `reject`",
    ),
    Spot(
        "reject",
        "minikubelet.kubelet:Kubelet.reject_pod",
        None,
        "a pod is rejected: `p pod.metadata.name, reason, message`",
        "一个 Pod 被拒绝：`p pod.metadata.name, reason, message`",
    ),
    Spot(
        "dispatch",
        "minikubelet.kubelet:Kubelet.dispatch_work",
        None,
        "to the pod worker: `p pod.metadata.name, str(sync_type)`",
        "交给 pod worker：`p pod.metadata.name, str(sync_type)`",
    ),
    Spot(
        "sync-pod",
        "minikubelet.kubelet:Kubelet.sync_pod",
        None,
        "in the pod worker's goroutine: `p o.pod.metadata.name, str(o.update_type)`; "
        "`goroutine` names it; `w` shows how it got here",
        "在 pod worker 的 goroutine 里：`p o.pod.metadata.name, str(o.update_type)`；`goroutine` "
        "说出它的名字；`w` 看调用栈",
    ),
]


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(SCRIPT, seed=args.seed, until=args.until, max_pods=2, cpu="4", lang=lang)


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv, until="8s")


if __name__ == "__main__":
    sys.exit(main())
