"""Chapter 3 example: syncLoopIteration, one select at a time.

Two pods arrive from a scripted API server (web at 0 s, worker at 3 s); web is changed at 6 s
and deleted at 8 s. Every kind of select case happens: configCh (ADD, UPDATE, DELETE),
plegCh (containers start), syncCh (resyncs), the probe managers, housekeepingCh. The run is
the same every time: seed 1, virtual clock.

    python walkthrough/ch03/example.py                  # run it (10 s of kubelet time)
    python walkthrough/ch03/example.py --breakpoints    # where to stop, as pdb commands
    python walkthrough/ch03/example.py --break select   # stop in pdb at the select
    python -m pdb walkthrough/ch03/example.py           # drive pdb yourself

Named breakpoint spots (see SPOTS): select, config-add, pleg-event, housekeeping.
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
        "select",
        "minikubelet.kubelet:Kubelet.sync_loop_iteration",
        None,
        "the select over every channel: next steps through its seven recv(...) arguments, "
        "then lands on the case that ran (nine nexts); or break on the case you want",
        "在所有通道上的 select：next 会先逐个走过它的七个 recv(...) 参数，然后停在被选中的分支上"
        "（共九次 next）；也可以直接在想看的分支上设断点",
    ),
    Spot(
        "config-add",
        "minikubelet.kubelet:Kubelet.sync_loop_iteration",
        "await handler.handle_pod_additions(u.pods)",
        "an ADD from configCh: `p u.source`, `p [p.metadata.name for p in u.pods]`; `s` into it",
        "来自 configCh 的 ADD：`p u.source`、`p [p.metadata.name for p in u.pods]`；再 `s` 进去",
    ),
    Spot(
        "pleg-event",
        "minikubelet.kubelet:Kubelet.sync_loop_iteration",
        "if is_sync_pod_worthy(e):",
        "a PLEG event: `p e.type`, `p e.id` (the pod's UID), `p e.data` (the container)",
        "一个 PLEG 事件：`p e.type`、`p e.id`（Pod 的 UID）、`p e.data`（容器）",
    ),
    Spot(
        "housekeeping",
        "minikubelet.kubelet:Kubelet.sync_loop_iteration",
        "if not self.sources_ready.all_ready():",
        "housekeeping every 2 s: `p self.sources_ready.sources_seen`",
        "每 2 秒一次的清理：`p self.sources_ready.sources_seen`",
    ),
]


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(SCRIPT, seed=args.seed, until=args.until, lang=lang)


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv)


if __name__ == "__main__":
    sys.exit(main())
