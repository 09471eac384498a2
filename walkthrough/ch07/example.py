"""Chapter 7 example: computePodActions plans, SyncPod carries the plan out.

Three pods from a scripted API server. migrate-then-serve (restartPolicy OnFailure) has two init
containers, and the first run of "migrate" fails: the plans start wait-for-db, then migrate,
migrate again, then the app container. one-shot (restartPolicy Never) has an init container that
fails: the pod is Failed and nothing more starts. stuck fails its liveness probe 20 s after each
start: the plan kills it and starts it again. The example prints every plan in a short form.
Seed 1, virtual clock.

    python walkthrough/ch07/example.py                          # run it (60 s of kubelet time)
    python walkthrough/ch07/example.py --breakpoints            # where to stop, as pdb commands
    python walkthrough/ch07/example.py --break plan             # stop in pdb with each plan
    python -m pdb walkthrough/ch07/example.py                   # drive pdb yourself

Named breakpoint spots (see SPOTS): compute, plan, next-init, should-restart, start-init.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from minikubelet import go
from minikubelet.go.duration import format_duration
from minikubelet.k8s_io.api.core import v1
from minikubelet.kubelet import Kubelet
from minikubelet.kuberuntime.kuberuntime_manager import PodActions
from walkthrough.ch07.plans import describe
from walkthrough.examples import Spot, example_main, run_kubelet

#: What the scripted API server sends (minikubelet run --api-script takes it too).
SCRIPT = Path(__file__).parent / "pods" / "example.yaml"

SPOTS = [
    Spot(
        "compute",
        "minikubelet.kuberuntime.kuberuntime_manager:KubeGenericRuntimeManager.compute_pod_actions",
        None,
        "a plan is computed: `p pod.metadata.name, [(s.name, str(s.state), s.exit_code) for s "
        "in pod_status.container_statuses]`; `r`, then `p str(__return__)`",
        "开始计算计划：`p pod.metadata.name, [(s.name, str(s.state), s.exit_code) for s in "
        "pod_status.container_statuses]`；`r` 之后 `p str(__return__)`",
    ),
    Spot(
        "plan",
        "minikubelet.kuberuntime.kuberuntime_manager:KubeGenericRuntimeManager.sync_pod",
        "if pod_container_changes.create_sandbox:",
        "SyncPod has its plan (step 1): `p pod.metadata.name, str(pod_container_changes)`",
        "SyncPod 拿到了计划（第 1 步）：`p pod.metadata.name, str(pod_container_changes)`",
    ),
    Spot(
        "next-init",
        "minikubelet.kuberuntime.kuberuntime_container:find_next_init_container_to_run",
        None,
        "where initialization stands: `p [c.name for c in pod.spec.init_containers]`; `r` and "
        "`p __return__`",
        "初始化进行到哪一步：`p [c.name for c in pod.spec.init_containers]`；`r` 之后 `p __return__`",
    ),
    Spot(
        "should-restart",
        "minikubelet.container.helpers:should_container_be_restarted",
        None,
        "a container is not running: `p container.name, pod.spec.restart_policy`; `r` and `p "
        "__return__`",
        "一个容器没在运行：`p container.name, pod.spec.restart_policy`；`r` 之后 `p __return__`",
    ),
    Spot(
        "start-init",
        "minikubelet.kuberuntime.kuberuntime_manager:KubeGenericRuntimeManager.sync_pod",
        'if await start("init container", container_start_spec(container)) is not None:',
        "step 6, an init container starts: `p container.name`",
        "第 6 步，启动一个 init 容器：`p container.name`",
    ),
]


def watch(kl: Kubelet, lang: str) -> None:
    """Print every plan computePodActions makes (the wrapped method runs unchanged)."""
    manager: Any = kl.container_runtime
    compute = manager.compute_pod_actions

    def watched(pod: v1.Pod, pod_status: Any) -> PodActions:
        changes = compute(pod, pod_status)
        at = format_duration(go.current_runtime().clock.monotonic())
        print(f"{at:>8}  {pod.metadata.name:<20} {describe(pod, changes, lang)}")
        return changes

    manager.compute_pod_actions = watched


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(
        SCRIPT, seed=args.seed, until=args.until, lang=lang, setup=lambda kl: watch(kl, lang)
    )


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv, until="60s")


if __name__ == "__main__":
    sys.exit(main())
