"""Chapter 1 example: sources, PodConfig, and the updates channel.

A scripted API server sends its pods; PodConfig keeps each source's last list and turns every
new list (a SET) into what changed: ADD, UPDATE, DELETE, REMOVE or RECONCILE, sent on the
updates channel that kubelet's sync loop reads. Here nothing reads it but this script, which
prints each update. Seed 1, virtual clock: the same run every time.

    python walkthrough/ch01/example.py                  # run it (10 s of virtual time)
    python walkthrough/ch01/example.py --breakpoints    # where to stop, as pdb commands
    python walkthrough/ch01/example.py --break merge    # stop in pdb where a SET arrives
    python -m pdb walkthrough/ch01/example.py           # drive pdb yourself

Named breakpoint spots (see SPOTS): merge, set, compare, and "update" below, in this file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minikubelet import go
from minikubelet.apis.config.types import KubeletConfiguration
from minikubelet.go import recv, select
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.kubelet import make_pod_source_config
from minikubelet.sim.scripted_watch import load_script_file, start_scripted_cluster
from walkthrough.examples import Spot, example_main

#: What the scripted API server sends (minikubelet run --api-script takes it too).
SCRIPT = Path(__file__).parent / "pods" / "example.yaml"

SPOTS = [
    Spot(
        "merge",
        "minikubelet.config.config:PodStorage.merge",
        None,
        "a source sent its whole list: `p source`, `p change.op`, `p [p.metadata.name for p in "
        "change.pods]`",
        "某个来源发来了完整列表：`p source`、`p change.op`、`p [p.metadata.name for p in change.pods]`",
    ),
    Spot(
        "set",
        "minikubelet.config.config:PodStorage._merge",
        "self.mark_source_set(source)",
        "the SET case: `p list(pods)` (the UIDs kept from last time); `n` on to see the split",
        "SET 分支：`p list(pods)`（上次保存的 UID）；继续 `n`，看 Pod 怎样被分类",
    ),
    Spot(
        "compare",
        "minikubelet.config.config:check_and_update_pod",
        None,
        "a pod seen before: `p existing.spec == ref.spec`, `p existing.status`, `p ref.status`",
        "一个见过的 Pod：`p existing.spec == ref.spec`、`p existing.status`、`p ref.status`",
    ),
]


async def watch_updates(until: float) -> None:
    """Make PodConfig with the API source, and print every update it sends until ``until``."""
    cfg = make_pod_source_config(
        KubeletConfiguration(),
        Recorder(),
        "node-1",
        lambda: True,
        start_scripted_cluster(load_script_file(str(SCRIPT)), "ch01", "node-1"),
    )
    updates = cfg.updates()
    start = go.now()
    stop = go.after(until)
    while True:
        match await select(recv(updates), recv(stop)):
            case 0, (u, _):
                names = [f"{p.metadata.namespace}/{p.metadata.name}" for p in u.pods]
                # BREAKPOINT: update: one update on kubelet's configCh; p u.op, u.source, names
                print(f"{go.now() - start:5.1f}s  {u.op.name:<9} source={u.source} pods={names}")
            case 1, _:
                return


def run(args: argparse.Namespace, lang: str) -> None:
    go.run(watch_updates, args.until, seed=args.seed)


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv)


if __name__ == "__main__":
    sys.exit(main())
