"""Chapter 15 example: an eviction under memory pressure, and a pod refused while it lasts.

examples/eviction/memory-pressure.yaml on a 1Gi node: "db" (Guaranteed, 250Mi),
"web" (Burstable, 150Mi for a request of 100Mi) and "batch" (BestEffort), which grows from 100Mi
to 600Mi 15 s after it started. At 20 s the eviction manager finds memory.available at 24Mi
(under the default hard threshold of 100Mi), reports MemoryPressure, ranks the pods and evicts
"batch". At 30 s a BestEffort pod "late" arrives: the node is still under memory pressure (the
condition lasts five minutes after the threshold was last met), and admission refuses it. Seed
1, virtual clock.

    python walkthrough/ch15/example.py                   # run it (40 s of kubelet time)
    python walkthrough/ch15/example.py --breakpoints     # where to stop, as pdb commands
    python walkthrough/ch15/example.py --break rank      # stop in pdb when the pods are ranked
    python -m pdb walkthrough/ch15/example.py            # drive pdb yourself

Named breakpoint spots (see SPOTS): synchronize, met, rank, evict, admit.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from walkthrough.examples import Spot, example_main, run_kubelet

#: What the scripted API server sends: the chapter's example of examples/eviction.
SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "eviction" / "memory-pressure.yaml"

SPOTS = [
    Spot(
        "synchronize",
        "minikubelet.eviction.eviction_manager:ManagerImpl.synchronize",
        "observations, stats_func = make_signal_observations(summary)",
        "one pass of the eviction manager: `p summary.node.memory`",
        "驱逐管理器的一轮检查：`p summary.node.memory`",
    ),
    Spot(
        "met",
        "minikubelet.eviction.helpers:thresholds_met",
        "if threshold_met:",
        "one threshold against its signal: `p threshold.signal, quantity, observed.available`",
        "一个阈值与它的信号相比：`p threshold.signal, quantity, observed.available`",
    ),
    Spot(
        "rank",
        "minikubelet.eviction.eviction_manager:ManagerImpl.synchronize",
        "rank(active_pods, stats_func)",
        "the pods about to be ranked: `p [p.metadata.name for p in active_pods]`, then `n` and "
        "again",
        "即将排序的 Pod：`p [p.metadata.name for p in active_pods]`，然后 `n` 再看一次",
    ),
    Spot(
        "evict",
        "minikubelet.eviction.eviction_manager:ManagerImpl.evict_pod",
        None,
        "the pod to evict and its status: `p pod.metadata.name, evict_msg`",
        "要驱逐的 Pod 及其状态：`p pod.metadata.name, evict_msg`",
    ),
    Spot(
        "admit",
        "minikubelet.eviction.eviction_manager:ManagerImpl.admit",
        None,
        "admission under pressure: `p attrs.pod.metadata.name, self.node_conditions`",
        "压力下的准入：`p attrs.pod.metadata.name, self.node_conditions`",
    ),
]


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(SCRIPT, seed=args.seed, until=args.until, memory="1Gi", lang=lang)


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv, until="40s")


if __name__ == "__main__":
    sys.exit(main())
