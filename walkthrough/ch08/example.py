"""Chapter 8 example: starting a container, and the two back-offs.

Two pods from a scripted API server. crasher's container exits with code 1 two seconds after every
start: kubelet restarts it at once the first time, then waits 10 s, 20 s, 40 s … up to 5 min
(CrashLoopBackOff). flaky-registry's image fails to pull three times before a pull succeeds:
ErrImagePull, then ImagePullBackOff while the pull back-off (10 s, 20 s, 40 s) runs. The example
prints every restart decision and every image check. Seed 1, virtual clock.

    python walkthrough/ch08/example.py                          # run it (6 min of kubelet time)
    python walkthrough/ch08/example.py --breakpoints            # where to stop, as pdb commands
    python walkthrough/ch08/example.py --break back-off         # stop in pdb at the decision
    python -m pdb walkthrough/ch08/example.py                   # drive pdb yourself

Named breakpoint spots (see SPOTS): start-container, back-off, pull, pull-failed, post-start.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from minikubelet import go
from minikubelet.base.i18n import text
from minikubelet.go.duration import format_duration
from minikubelet.k8s_io.api.core import v1
from minikubelet.kubelet import Kubelet
from minikubelet.kuberuntime.helpers import get_stable_key
from walkthrough.examples import Spot, example_main, run_kubelet

#: What the scripted API server sends (minikubelet run --api-script takes it too).
SCRIPT = Path(__file__).parent / "pods" / "example.yaml"

SPOTS = [
    Spot(
        "start-container",
        "minikubelet.kuberuntime.kuberuntime_container:ContainerMethods.start_container",
        None,
        "a container is about to start: `p pod.metadata.name, spec.container.name`; `n` over "
        "each step (pull, create, start, post-start hook)",
        "即将启动一个容器：`p pod.metadata.name, spec.container.name`；用 `n` 逐步走过（拉取、创建、启动、postStart 钩子）",
    ),
    Spot(
        "back-off",
        "minikubelet.kuberuntime.kuberuntime_manager:KubeGenericRuntimeManager.do_back_off",
        "if back_off.is_in_back_off_since(key, ts):",
        "the restart decision: `p back_off.get(key), float(back_off.clock.now() - ts)`, the "
        "delay and the seconds since the container finished",
        "是否重启的决定：`p back_off.get(key), float(back_off.clock.now() - ts)`，即退避时长，以及容器结束后过去的秒数",
    ),
    Spot(
        "pull",
        "minikubelet.images.image_manager:ImageManagerImpl.ensure_image_exists",
        'present = image_ref != ""',
        "is the image here? `p image_ref, container.image_pull_policy`",
        "镜像在不在本地？`p image_ref, container.image_pull_policy`",
    ),
    Spot(
        "pull-failed",
        "minikubelet.images.image_manager:ImageManagerImpl.ensure_image_exists",
        "self.back_off.next(back_off_key, self.back_off.clock.now())",
        "a pull failed: `p image_pull_result.err`; `n`, then `p self.back_off.get(back_off_key)`",
        "一次拉取失败了：`p image_pull_result.err`；`n` 之后 `p self.back_off.get(back_off_key)`",
    ),
    Spot(
        "post-start",
        "minikubelet.kuberuntime.kuberuntime_container:ContainerMethods.start_container",
        "if container.lifecycle is not None and container.lifecycle.post_start is not None:",
        "started; is there a postStart hook? `p container.lifecycle`",
        "已经启动；有没有 postStart 钩子？`p container.lifecycle`",
    ),
]


def watch(kl: Kubelet, lang: str) -> None:
    """Print each restart decision (doBackOff) and each image check (EnsureImageExists).

    Wraps the two methods; they run unchanged.
    """
    manager: Any = kl.container_runtime
    do_back_off = manager.do_back_off
    puller: Any = manager.image_puller
    ensure_image_exists = puller.ensure_image_exists

    def at() -> str:
        return format_duration(go.current_runtime().clock.monotonic())

    def watched_back_off(pod: v1.Pod, container: v1.Container, pod_status: Any, back_off: Any):
        in_back_off, msg, err = do_back_off(pod, container, pod_status, back_off)
        key = get_stable_key(pod, container)
        delay = format_duration(back_off.get(key))
        if in_back_off:
            what = text(
                f"in back-off ({delay}): not now, {err}",
                f"处于退避中（{delay}）：这次不启动，{err}",
                lang,
            )
        elif back_off.get(key) == 0:
            what = text("never exited: no back-off to check", "从未退出过：没有退避可查", lang)
        else:
            what = text(
                f"restart now; the next back-off is {delay}",
                f"立即重启；下一次的退避是 {delay}",
                lang,
            )
        print(f"{at():>8}  {pod.metadata.name + '/' + container.name:<20} {what}")
        return in_back_off, msg, err

    async def watched_pull(pod: v1.Pod, container: v1.Container, *args: Any):
        image_ref, msg, err = await ensure_image_exists(pod, container, *args)
        key = f"{pod.metadata.uid}_{container.image}"
        delay = format_duration(puller.back_off.get(key))
        if err is None:
            what = text("image ready", "镜像就绪", lang)
        else:
            what = text(f"{err} (pull back-off {delay})", f"{err}（拉取退避 {delay}）", lang)
        print(f"{at():>8}  {pod.metadata.name + '/' + container.name:<20} {what}")
        return image_ref, msg, err

    manager.do_back_off = watched_back_off
    puller.ensure_image_exists = watched_pull


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(
        SCRIPT, seed=args.seed, until=args.until, lang=lang, setup=lambda kl: watch(kl, lang)
    )


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv, until="6m")


if __name__ == "__main__":
    sys.exit(main())
