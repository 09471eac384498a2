"""Chapter 11 example: the end of a pod: graceful deletion, a forced one, a deadline, cleanup.

Three pods from a scripted API server. "web" is deleted gracefully at 10 s (grace period 10 s):
its app container's preStop hook takes 4 s and the container then stops in 3 s; its sidecar
needs 20 s and is killed when its 10 s are over. "batch" is force-deleted at 25 s: the object is
gone at once, and kubelet stops the container with the grace period of the copy it had (30 s).
"report" has activeDeadlineSeconds: 15 and is failed with DeadlineExceeded. Seed 1, virtual
clock.

    python walkthrough/ch11/example.py                   # run it (35 s of kubelet time)
    python walkthrough/ch11/example.py -v 3              # with the kills and the preStop hook
    python walkthrough/ch11/example.py --breakpoints     # where to stop, as pdb commands
    python walkthrough/ch11/example.py --break grace     # stop in pdb in killContainer
    python -m pdb walkthrough/ch11/example.py            # drive pdb yourself

Named breakpoint spots (see SPOTS): grace, prestop, terminate, remove, cleanup, deadline.
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
        "grace",
        "minikubelet.kuberuntime.kuberuntime_container:ContainerMethods.kill_container",
        "if len(message) == 0:",
        "the grace period is chosen: `p container_name, grace_period, grace_period_override`; "
        "`goroutine`: the kill's own",
        "宽限期已经确定：`p container_name, grace_period, grace_period_override`；`goroutine`：杀容器的 "
        "goroutine",
    ),
    Spot(
        "prestop",
        "minikubelet.kuberuntime.kuberuntime_container:ContainerMethods.execute_pre_stop_hook",
        "match await select(recv(after(grace_period * Second)), recv(done)):",
        "waiting for the hook or the grace period: `p grace_period`, `p now() - start`",
        "等待钩子或宽限期：`p grace_period`、`p now() - start`",
    ),
    Spot(
        "terminate",
        "minikubelet.kubelet:Kubelet.dispatch_work",
        "await self.status_manager.terminate_pod(pod)",
        "a deleted pod whose containers all stopped: its status is terminated, not synced",
        "一个已删除、容器全部停止的 Pod：它的状态被终止，而不是再同步",
    ),
    Spot(
        "remove",
        "minikubelet.kubelet:Kubelet.handle_pod_removes",
        None,
        "a pod gone from its source: `p [p.metadata.name for p in pods]`; `s` into `delete_pod`",
        "一个从配置源消失的 Pod：`p [p.metadata.name for p in pods]`；`s` 进入 `delete_pod`",
    ),
    Spot(
        "cleanup",
        "minikubelet.kubelet_pods:KubeletPods.handle_pod_cleanups",
        "desired_pods = {pod.metadata.uid for pod in active_pods}",
        "housekeeping: `p [p.metadata.name for p in active_pods]`, the pods to keep",
        "清理：`p [p.metadata.name for p in active_pods]`，即要保留的 Pod",
    ),
    Spot(
        "deadline",
        "minikubelet.active_deadline:ActiveDeadlineHandler.should_evict",
        None,
        "is the pod past its deadline? `p pod.metadata.name, pod.spec.active_deadline_seconds`",
        "Pod 超过期限了吗？`p pod.metadata.name, pod.spec.active_deadline_seconds`",
    ),
]


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(SCRIPT, seed=args.seed, until=args.until, lang=lang)


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv, until="35s")


if __name__ == "__main__":
    sys.exit(main())
