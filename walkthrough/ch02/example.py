"""Chapter 2 example: syncLoop, its tickers, the PLEG channel and the runtime-error back-off.

The fake container runtime is not ready for the first 3 s: syncLoop logs "Skipping pod
synchronization" and backs off (0.1 s, 0.2 s, 0.4 s, …). Then the pod from the scripted API
server starts; the PLEG relists every second and its events come in on plegCh; the sync
ticker (1 s) and the housekeeping ticker (2 s) wake the loop. Seed 1, virtual clock.

    python walkthrough/ch02/example.py                   # run it (10 s of kubelet time)
    python walkthrough/ch02/example.py --breakpoints     # where to stop, as pdb commands
    python walkthrough/ch02/example.py --break backoff   # stop in pdb in the back-off
    python -m pdb walkthrough/ch02/example.py            # drive pdb yourself

Named breakpoint spots (see SPOTS): backoff, iteration, relist, events.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from walkthrough.examples import Spot, example_main, run_kubelet

#: What the scripted API server sends (minikubelet run --api-script takes it too).
SCRIPT = Path(__file__).parent / "pods" / "example.yaml"

#: The fake runtime says RuntimeReady=false for the first 3 s.
SCENARIO = {"runtime": {"notReady": [{"from": "0s", "until": "3s"}]}}

SPOTS = [
    Spot(
        "backoff",
        "minikubelet.kubelet:Kubelet.sync_loop",
        "await sleep(duration)",
        "the runtime is not healthy: `p err`, `p duration`; `c` again and `p duration`: it doubled",
        "运行时不正常：`p err`、`p duration`；再 `c` 一次，`p duration`：它翻倍了",
    ),
    Spot(
        "iteration",
        "minikubelet.kubelet:Kubelet.sync_loop",
        "if not await self.sync_loop_iteration(",
        "the runtime is fine: one iteration; `p sync_ticker.c`, `p len(pleg_ch)`, then `s` into it",
        "运行时正常：开始一轮迭代；`p sync_ticker.c`、`p len(pleg_ch)`，然后 `s` 进去",
    ),
    Spot(
        "relist",
        "minikubelet.pleg.generic:GenericPLEG.relist",
        "self.update_relist_time(timestamp)",
        "the PLEG's relist, every second, once the runtime answered: `p pod_list`",
        "PLEG 每秒一次的 relist，运行时已经回答：`p pod_list`",
    ),
    Spot(
        "events",
        "minikubelet.pleg.generic:generate_events",
        None,
        "one container's change: `p old_state, new_state`; `r` shows the events it makes",
        "一个容器的状态变化：`p old_state, new_state`；用 `r` 看它生成的事件",
    ),
]


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(SCRIPT, seed=args.seed, until=args.until, scenario=SCENARIO, lang=lang)


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv)


if __name__ == "__main__":
    sys.exit(main())
