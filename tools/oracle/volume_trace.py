"""The port's side of the oracle's volume level: minikubelet's volume manager (populator,
reconciler, operation executor, the five plugins) over the in-memory API server, stepped by hand
for a scenario's ``volumes`` steps, printed as the Go driver prints them
(tools/oracle/go/hack/oracle/volumemode.go). Ours; no Kubernetes code.

    python -m tools.oracle.volume_trace SCENARIO.yaml
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any

import yaml

from minikubelet import go
from minikubelet.config.manifest import pod_from_dict
from minikubelet.container import runtime as kubecontainer
from minikubelet.go.duration import parse_duration
from minikubelet.k8s_io.api.core.v1 import Pod, PodStatus
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.klog.v2.klog import quote
from minikubelet.k8s_io.kubernetes.pkg.volume.util.util import get_unique_pod_name
from minikubelet.pod.mirror_client import BasicMirrorClient
from minikubelet.pod.pod_manager import BasicManager
from minikubelet.sim.fake_apiserver import FakeAPIServer
from minikubelet.sim.volume_fs import SimFS
from minikubelet.sim.volume_scenario import VolumeScenario
from minikubelet.volume_host import KUBELET_PODS_DIR, new_initialized_volume_plugin_mgr
from minikubelet.volumemanager.volume_manager import (
    VolumeManager,
    get_expected_volumes,
    new_volume_manager,
)

#: What the Go driver's back-off times look like, and what both sides' become.
_UNTIL = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0000 UTC m=\+\d+\.\d+")
_KLOG = re.compile(r"^([IWEF])\d{4} [\d:.]+\s+\d+ [^\]]+\] (.*)$")


def norm_volumes(lines: list[str]) -> list[str]:
    """Both sides' volume traces, with the wall-clock times of the back-off messages left out."""
    return [_UNTIL.sub("<time>", line) for line in lines]


class _NoStatus:
    def get_pod_status(self, uid: str) -> tuple[PodStatus, bool]:
        return PodStatus(), False


class _NoContainers:
    """The container runtime as the populator sees it: no pod runs."""

    async def get_pods(self, all: bool) -> list[kubecontainer.Pod]:
        return []


class _Run:
    def __init__(self, pod: Pod, log: io.StringIO) -> None:
        self.pod = pod
        self.log = log
        self.out: list[str] = []
        self.step = 0
        self.server = FakeAPIServer()
        self.fs = SimFS()
        self.recorder = Recorder()
        self.seen_events = 0
        pod_manager = BasicManager(BasicMirrorClient(None, "node", lambda: None))
        pod_manager.add_pod(pod)
        self.vm: VolumeManager = new_volume_manager(
            True,
            "node",
            pod_manager,
            _NoStatus(),
            new_initialized_volume_plugin_mgr(self.server, self.fs, VolumeScenario()),
            _NoContainers(),  # type: ignore[arg-type]
            KUBELET_PODS_DIR,
            self.recorder,
            False,
        )

    def header(self, what: str) -> None:
        self.step += 1
        self.out.append(f"# step {self.step} {what}")

    def flush(self) -> None:
        lines = []
        for line in self.log.getvalue().splitlines():
            m = _KLOG.match(line)
            # The Go driver's recorder logs nothing; its events are the "event:" lines.
            if m and not m.group(2).startswith('"Event occurred"'):
                lines.append(f"klog: {m.group(1)} {m.group(2)}")
        self.log.seek(0)
        self.log.truncate()
        for e in self.recorder.events[self.seen_events :]:
            lines.append(f"event: {e.type} {e.reason} {e.message}")
        self.seen_events = len(self.recorder.events)
        self.out.extend(sorted(lines))
        mounted = sorted(self.vm.get_mounted_volumes_for_pod(get_unique_pod_name(self.pod)))
        self.out.append(f"mounted: [{' '.join(mounted)}]")

    def busy(self) -> bool:
        return any(
            self.vm.operation_executor.is_operation_pending(v.volume_name, "", "")
            for v in self.vm.desired_state_of_world.get_volumes_to_mount()
        )

    async def pass_(self) -> None:
        self.header("pass")
        await self.vm.desired_state_of_world_populator.populator_loop()
        self.vm.reconciler.reconcile()
        while True:
            await go.sleep(0.001)
            if not self.busy():
                break
        self.flush()

    def verdict(self) -> None:
        self.header("verdict")
        name = get_unique_pod_name(self.pod)
        expected = get_expected_volumes(self.pod)
        errs = self.vm.desired_state_of_world.pop_pod_errors(name)
        reason = "; ".join(errs) if errs else "<timeout>"
        unmounted = self.vm.get_unmounted_volumes(name, expected)
        if not unmounted:
            self.out.append("verdict: mounted")
            return
        unattached = self.vm.get_unattached_volumes(expected)
        self.out.append(
            f"verdict: unmounted volumes=[{' '.join(unmounted)}], "
            f"unattached volumes=[{' '.join(unattached)}]: {reason}"
        )

    def files(self) -> None:
        self.header("files")
        prefix = f"{KUBELET_PODS_DIR}/{self.pod.metadata.uid}/volumes/"
        for path, data in sorted(self.fs.files.items()):
            if path.startswith(prefix):
                self.out.append(f"file: {path[len(prefix) :]} = {quote(data.decode())}")

    def add(self, obj: dict[str, Any]) -> None:
        self.header("add")
        self.server.apply_object("ADDED", obj)


async def _steps(run: _Run, steps: list[Any]) -> None:
    for s in steps:
        if s == "pass":
            await run.pass_()
        elif s == "sync":
            run.header("sync")
            run.vm.desired_state_of_world_populator.reprocess_pod(get_unique_pod_name(run.pod))
        elif s == "verdict":
            run.verdict()
        elif s == "files":
            run.files()
        elif isinstance(s, dict) and "wait" in s:
            await go.sleep(parse_duration(str(s["wait"])))
        elif isinstance(s, dict) and "add" in s:
            run.add(s["add"])
        else:
            raise ValueError(f"unknown volume step {s!r}")


def trace(path: str) -> list[str]:
    """The port's trace of a scenario's ``volumes`` steps, as the Go driver prints it."""
    sc = yaml.safe_load(Path(path).read_text())
    pod = pod_from_dict(sc["pod"], source=path)
    log = io.StringIO()
    klog.configure(verbosity=3, out=log)
    run = _Run(pod, log)
    try:
        go.run(lambda: _steps(run, sc.get("volumes") or []))
    finally:
        klog.configure(verbosity=0, out=None)
    return run.out


if __name__ == "__main__":
    print("\n".join(norm_volumes(trace(sys.argv[1]))))
