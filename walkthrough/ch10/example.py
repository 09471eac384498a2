"""Chapter 10 example: the pod's phase, the status manager, and probes coming back to the loop.

Two pods from a scripted API server. "web" has three scripted probes: startup succeeds after 6 s,
readiness fails once and then succeeds, liveness fails once the container has run 25 s, so
kubelet restarts it at 37 s. "job" runs once (restartPolicy Never) and exits 1 at 5 s: Failed.
Seed 1, virtual clock.

    python walkthrough/ch10/example.py                   # run it (50 s of kubelet time)
    python walkthrough/ch10/example.py --breakpoints     # where to stop, as pdb commands
    python walkthrough/ch10/example.py --break probe     # stop in pdb in a probe worker
    python -m pdb walkthrough/ch10/example.py            # drive pdb yourself

Named breakpoint spots (see SPOTS): phase, status, probe, probe-result, probe-sync.
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
        "phase",
        "minikubelet.kubelet_pods:get_phase",
        "if failed_initialization > 0 and spec.restart_policy == RestartPolicy.NEVER:",
        "the counts are done: `p running, waiting, stopped, succeeded, unknown`",
        "计数完成：`p running, waiting, stopped, succeeded, unknown`",
    ),
    Spot(
        "status",
        "minikubelet.status.status_manager:StatusManager.update_status_internal",
        "new_status = VersionedPodStatus(",
        "a new status version: `p cached_status.version`, `p status.phase`",
        "一个新的状态版本：`p cached_status.version`、`p status.phase`",
    ),
    Spot(
        "probe",
        "minikubelet.prober.worker:Worker.do_probe",
        "if self.last_result == result:",
        "one probe ran: `p self.probe_type, result, self.last_result, self.result_run`; "
        "`goroutine`: the worker's own",
        "探测了一次：`p self.probe_type, result, self.last_result, "
        "self.result_run`；`goroutine`：worker 自己的 goroutine",
    ),
    Spot(
        "probe-result",
        "minikubelet.prober.results.results_manager:ResultsManager.set",
        None,
        "a worker writes a result: `p container_id, result` (an update is sent only on a change)",
        "worker 写入结果：`p container_id, result`（只有变化时才发出更新）",
    ),
    Spot(
        "probe-sync",
        "minikubelet.kubelet:handle_probe_sync",
        None,
        "a probe result back in the sync loop: `p probe, status, update`",
        "探针结果回到主循环：`p probe, status, update`",
    ),
]


def run(args: argparse.Namespace, lang: str) -> None:
    # BREAKPOINT: start: the scenario is about to run; "b" any spot above, then "c".
    run_kubelet(SCRIPT, seed=args.seed, until=args.until, lang=lang)


def main(argv: list[str] | None = None) -> int:
    return example_main(__doc__ or "", SPOTS, run, argv, until="50s")


if __name__ == "__main__":
    sys.exit(main())
