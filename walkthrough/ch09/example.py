"""Chapter 9 example: the PLEG's relist, the pod cache, and "PLEG is not healthy".

A pod from a scripted API server runs two containers; "batch" exits at 30 s. From 20 s to 4 min
the fake runtime's ContainerStatus hangs, so the relist that sees "batch" exit hangs while it
inspects the pod. Three minutes after that relist began the PLEG is unhealthy and the sync loop
skips; at 4 min the call returns, and the relist after it makes the PLEG healthy again. Seed 1,
virtual clock: 4 min 10 s of kubelet time take about a second.

    python walkthrough/ch09/example.py                    # run it
    python walkthrough/ch09/example.py -v 4               # with the PLEG's state changes
    python walkthrough/ch09/example.py --breakpoints      # where to stop, as pdb commands
    python walkthrough/ch09/example.py --break unhealthy  # stop in pdb once the PLEG is unhealthy
    python -m pdb walkthrough/ch09/example.py             # drive pdb yourself

Named breakpoint spots (see SPOTS): relist, events, inspect, send, wait-cache, unhealthy.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from walkthrough.examples import Spot, example_main, run_kubelet

#: What the scripted API server sends (minikubelet run --api-script takes it too).
SCRIPT = Path(__file__).parent / "pods" / "example.yaml"

#: ContainerStatus calls made between 20 s and 4 min return at 4 min.
SCENARIO = {"runtime": {"hang": [{"from": "20s", "until": "4m", "calls": ["ContainerStatus"]}]}}

SPOTS = [
    Spot(
        "relist",
        "minikubelet.pleg.generic:GenericPLEG.relist",
        None,
        "one relist: `n` past `set_current`, then `p self.pod_records` (old and current of each "
        "pod)",
        "一次 relist：`n` 到 `set_current` 之后，`p self.pod_records`（每个 Pod 的 old 和 current）",
    ),
    Spot(
        "events",
        "minikubelet.pleg.generic:generate_events",
        None,
        "one container changed: `p old_state, new_state, cid` (a sandbox ID too)",
        "某个容器变了：`p old_state, new_state, cid`（也可能是沙箱 ID）",
    ),
    Spot(
        "inspect",
        "minikubelet.pleg.generic:GenericPLEG.update_cache",
        "status = await self.runtime.get_pod_status(",
        "the pod is inspected before its events are sent; at 31 s this call hangs until 4 min",
        "先查询 Pod，再发送它的事件；31 秒时这个调用会一直卡到 4 分钟",
    ),
    Spot(
        "send",
        "minikubelet.pleg.generic:GenericPLEG.relist",
        "match await select(send(self.event_channel, event), default=True):",
        "the non-blocking send: `p event`, `p len(self.event_channel)`, `p self.event_channel.cap`",
        "不阻塞的发送：`p event`、`p len(self.event_channel)`、`p self.event_channel.cap`",
    ),
    Spot(
        "wait-cache",
        "minikubelet.container.cache:CacheImpl.get_newer_than",
        None,
        "a pod worker about to wait for a fresh cache: `p min_time`, `p self.timestamp`",
        "一个 pod worker 准备等待新鲜的缓存：`p min_time`、`p self.timestamp`",
    ),
    Spot(
        "unhealthy",
        "minikubelet.pleg.generic:GenericPLEG.healthy",
        "if elapsed > relistThreshold:",
        "how long since the last relist began: `p elapsed`; `condition 1 elapsed > 180`, `c`, "
        "`p elapsed`: past three minutes",
        "距上一次 relist 开始过了多久：`p elapsed`；`condition 1 elapsed > 180`、`c`、`p elapsed`：超过了三分钟",
    ),
]


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(SCRIPT, seed=args.seed, until=args.until, scenario=SCENARIO, lang=lang)


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv, until="4m10s")


if __name__ == "__main__":
    sys.exit(main())
