"""The port's side of the oracle: runs minikubelet's kuberuntime (get_pod_status,
compute_pod_actions, sync_pod, kill_pod) over its own fake CRI for a scenario file of
tests/oracle/scenarios/, and returns the trace in the format the Go driver prints
(tools/oracle/go/hack/oracle/main.go). Ours; no Kubernetes code.

    python -m tools.oracle.port_trace SCENARIO.yaml
"""

from __future__ import annotations

import dataclasses
import enum
import io
import json
import sys

import yaml

from minikubelet import go
from minikubelet.cm.cgroup_manager_linux import new_cgroup_manager
from minikubelet.cm.pod_container_manager_linux import PodContainerManagerImpl
from minikubelet.cm.types import CgroupName, QOSContainersInfo
from minikubelet.config.manifest import pod_from_dict
from minikubelet.container.container_gc import GCPolicy
from minikubelet.container.helpers import convert_pod_status_to_running_pod
from minikubelet.container.runtime import ContainerID
from minikubelet.container.testing.fake_runtime_helper import FakeRuntimeHelper
from minikubelet.go.duration import format_duration, parse_duration
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import new_back_off
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kubelet import MaxContainerBackOff, backOffPeriod
from minikubelet.kuberuntime.fake_kuberuntime_manager import FakePodStateProvider
from minikubelet.prober.results.results_manager import Result
from minikubelet.sim.cgroup_fs import SimCgroupFS
from minikubelet.sim.container_runtime import new_fake_runtime
from minikubelet.sim.cri.scenario import Scenario, default_tag


def dur(v) -> float:
    if isinstance(v, (int, float)):
        return float(v)
    return parse_duration(v)


def to_plain(x):
    if dataclasses.is_dataclass(x):
        return {f.name: to_plain(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, enum.Enum):
        return x.value if not isinstance(x, str) else str(x)
    if isinstance(x, dict):
        return {str(k): to_plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [to_plain(e) for e in x]
    return x


def empty(x) -> bool:
    return (
        x is None
        or x == ""
        or x is False
        or (isinstance(x, (int, float)) and not isinstance(x, bool) and x == 0)
        or (isinstance(x, (dict, list)) and len(x) == 0)
    )


def prune(x):
    if isinstance(x, dict):
        out = {}
        for k, v in x.items():
            p = prune(v)
            if not empty(p):
                out[k] = p
        return out
    if isinstance(x, list):
        return [prune(e) for e in x]
    return x


def gojson(x) -> str:
    # Go's json.Marshal: sorted map keys, no spaces, <>& escaped.
    s = json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


class CallLog:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.configs: list[str] = []
        self.alias: dict[str, str] = {}
        self.nsb = 0
        self.nc = 0

    def name(self, id: str) -> str:
        if id in self.alias:
            return self.alias[id]
        return '""' if id == "" else "?" + id

    def new_alias(self, id: str, sandbox: bool) -> str:
        if sandbox:
            self.nsb += 1
            a = f"sb{self.nsb}"
        else:
            self.nc += 1
            a = f"c{self.nc}"
        self.alias[id] = a
        return a

    def scrub(self, s: str) -> str:
        for id, a in self.alias.items():
            s = s.replace(id, a)
        return s

    def config(self, kind: str, who: str, v) -> None:
        self.configs.append(f"{kind} {who} {gojson(prune(to_plain(v)))}")

    def take(self):
        out, self.lines = self.lines, []
        return out

    def take_configs(self):
        out, self.configs = self.configs, []
        return out


def labels(sel: dict[str, str]) -> str:
    return ",".join(sorted(f"{k}={v}" for k, v in sel.items()))


def instrument(rs, is_, log: CallLog) -> None:
    """Wrap the fake services' methods so that every CRI call is logged as the Go fake logs it."""

    def wrap(obj, meth, fmt_before=None, fmt_after=None):
        orig = getattr(obj, meth)

        async def w(*a):
            if fmt_before is not None:
                log.lines.append(fmt_before(*a))
            try:
                r = await orig(*a)
            except Exception:
                if fmt_after is not None:
                    log.lines.append(fmt_after(a, None, True))
                raise
            if fmt_after is not None:
                log.lines.append(fmt_after(a, r, False))
            return r

        setattr(obj, meth, w)

    def sbfilter(f):
        if f is None:
            return "nil"
        st = "nil" if f.state is None else f.state.state.name
        return f"id={log.name(f.id)} state={st} labels={labels(f.label_selector)}"

    def cfilter(f):
        if f is None:
            return "nil"
        st = "nil" if f.state is None else f.state.state.name
        return (
            f"id={log.name(f.id)} state={st} sandbox={log.name(f.pod_sandbox_id)} "
            f"labels={labels(f.label_selector)}"
        )

    def run_sb(a, r, err):
        config, handler = a
        m = config.metadata
        head = f"RunPodSandbox {m.namespace}/{m.name} attempt={m.attempt}"
        if err:
            return head + " -> error"
        al = log.new_alias(r, True)
        log.config("RunPodSandbox", al, config)
        return head + f" handler={json.dumps(handler)} -> {al}"

    def create_c(a, r, err):
        sb, config, _ = a
        m = config.metadata
        head = f"CreateContainer {log.name(sb)} {m.name} attempt={m.attempt}"
        if err:
            return head + " -> error"
        al = log.new_alias(r, False)
        log.config("CreateContainer", al, config)
        return head + f" -> {al}"

    wrap(rs, "version", lambda v: f"Version {v}")
    wrap(rs, "status", lambda: "Status")
    wrap(rs, "run_pod_sandbox", None, run_sb)
    wrap(rs, "stop_pod_sandbox", lambda i: f"StopPodSandbox {log.name(i)}")
    wrap(rs, "remove_pod_sandbox", lambda i: f"RemovePodSandbox {log.name(i)}")
    wrap(rs, "pod_sandbox_status", lambda i: f"PodSandboxStatus {log.name(i)}")
    wrap(
        rs,
        "list_pod_sandbox",
        None,
        lambda a, r, e: f"ListPodSandbox {sbfilter(a[0])} -> {'error' if e else len(r)}",
    )
    wrap(rs, "create_container", None, create_c)
    wrap(rs, "start_container", lambda i: f"StartContainer {log.name(i)}")
    wrap(rs, "stop_container", lambda i, t: f"StopContainer {log.name(i)} timeout={t}")
    wrap(rs, "remove_container", lambda i: f"RemoveContainer {log.name(i)}")
    wrap(
        rs,
        "list_containers",
        None,
        lambda a, r, e: f"ListContainers {cfilter(a[0])} -> {'error' if e else len(r)}",
    )
    wrap(rs, "container_status", lambda i: f"ContainerStatus {log.name(i)}")
    wrap(rs, "exec_sync", lambda i, cmd, t: f"ExecSync {log.name(i)} [{' '.join(cmd)}]")
    if hasattr(rs, "update_container_resources"):
        wrap(
            rs,
            "update_container_resources",
            lambda i, *rest: f"update_container_resources {log.name(i)}",
        )
    wrap(is_, "list_images", lambda f: "ListImages")
    wrap(is_, "image_status", lambda spec: f"ImageStatus {spec.image}")
    wrap(is_, "pull_image", lambda spec, auth, sb: f"PullImage {default_tag(spec.image)}")
    wrap(is_, "remove_image", lambda spec: f"RemoveImage {spec.image}")


def trace(path: str) -> list[str]:
    """The port's trace of one scenario file, one string per line."""
    with open(path) as fh:
        sc = yaml.safe_load(fh)
    lines: list[str] = []
    klog_out = io.StringIO()
    klog.configure(verbosity=0, out=klog_out)
    try:
        _run(sc, path, lines, klog_out)
    finally:
        klog.configure(verbosity=0, out=None)
    return lines


def _pod_cgroup_parent(pod) -> str:
    root = CgroupName(("kubepods",))
    tree = SimCgroupFS()
    pcm = PodContainerManagerImpl(
        QOSContainersInfo(
            guaranteed=root,
            burstable=CgroupName((*root, "burstable")),
            best_effort=CgroupName((*root, "besteffort")),
        ),
        tree,
        new_cgroup_manager(tree, "cgroupfs"),
        -1,
        True,
        100000,
    )
    return pcm.get_pod_container_name(pod)[1]


def _run(sc: dict, path: str, lines: list[str], klog_out: io.StringIO) -> None:
    """Play the scenario's steps on a fresh fake runtime, appending the trace to ``lines``."""
    driver = _Driver(sc, path, lines, klog_out)
    go.run(driver.run, seed=1)


class _Driver:
    """One scenario run: the pod, the fake runtime and manager, and a method per kind of step."""

    def __init__(self, sc: dict, path: str, lines: list[str], klog_out: io.StringIO) -> None:
        self.sc, self.path, self.lines, self.klog_out = sc, path, lines, klog_out
        self.pod = pod_from_dict(sc["pod"], source=path)
        self.by_uid = {self.pod.metadata.uid: self.pod}
        self.log = CallLog()
        uid = self.pod.metadata.uid
        self.states = FakePodStateProvider(existing_pods={uid}, running_pods={uid})
        self.recorder = Recorder()
        self.fake = new_fake_runtime(
            pod_state_provider=self.states,
            scenario=Scenario(present_images=list(sc.get("presentImages") or [])),
            seed=1,
            recorder=self.recorder,
            pod_lookup=self.by_uid.get,
        )
        instrument(self.fake.runtime_service, self.fake.image_service, self.log)
        self.m = self.fake.manager
        # As the Go driver's helper: the pod's cgroup under kubelet's default tree (cgroupfs).
        assert isinstance(self.m.runtime_helper, FakeRuntimeHelper)
        self.m.runtime_helper.pod_cgroup_parent = _pod_cgroup_parent
        self.step = 0
        self.events_seen = 0

    # -- output ------------------------------------------------------------------------------

    def out(self, s: str) -> None:
        self.lines.append(self.log.scrub(s))

    def flush(self, prefix: str) -> None:
        """The CRI calls, sandbox configs and log lines since the last flush."""
        for line in self.log.take():
            self.out(f"{prefix}: {line}")
        for line in self.log.take_configs():
            self.out(f"config: {line}")
        text = self.klog_out.getvalue()
        self.klog_out.seek(0)
        self.klog_out.truncate()
        for line in text.splitlines():
            _, sep, rest = line.partition("] ")
            self.out(f"klog: {line[:1]} {rest}" if sep else f"klog: {line}")

    def new_events(self) -> None:
        """The events recorded since the last call."""
        for ev in self.recorder.events[self.events_seen :]:
            self.out(f"event: {ev.type} {ev.reason} {ev.message}")
        self.events_seen = len(self.recorder.events)

    def begin(self, what: str, detail: str = "") -> None:
        """The header line of the next step."""
        self.step += 1
        since = float(go.now()) - go.VIRTUAL_EPOCH
        tail = f": {detail}" if detail else ""
        self.out(f"# step {self.step} {what} at +{format_duration(since)}{tail}")

    # -- steps -------------------------------------------------------------------------------

    async def run(self) -> None:
        back_off = new_back_off(backOffPeriod, MaxContainerBackOff)
        for step in self.sc["steps"]:
            if step == "sync":
                await self.sync(back_off)
                continue
            (kind,) = step if isinstance(step, dict) and len(step) == 1 else (None,)
            if kind == "update":
                self.update(step["update"])
            elif kind == "crashSandbox":
                self.crash_sandbox()
            elif kind == "killPod":
                await self.kill(step["killPod"])
            elif kind == "probe":
                await self.probe(step["probe"])
            elif kind == "gc":
                await self.gc(step["gc"] or {})
            elif kind == "wait":
                await go.sleep(dur(step["wait"]))
            elif kind == "run":
                total, every = dur(step["run"]["for"]), dur(step["run"]["every"])
                end = float(go.now()) + total
                while float(go.now()) < end:
                    await self.sync(back_off)
                    await go.sleep(every)
            else:
                raise SystemExit(f"unknown step {step!r}")

    def update(self, manifest: dict) -> None:
        self.begin("update")
        self.pod = pod_from_dict(manifest, source=self.path)
        self.by_uid[self.pod.metadata.uid] = self.pod

    def crash_sandbox(self) -> None:
        rs = self.fake.runtime_service
        sb = rs._sandboxes_by_pod.get(self.pod.metadata.uid, [""])[-1]
        if sb:
            rs.crash_sandbox(sb)
        self.begin("crashSandbox", sb)

    async def kill(self, arg) -> None:
        self.begin("killPod")
        md = self.pod.metadata
        st = await self.m.get_pod_status(md.uid, md.name, md.namespace)
        self.flush("status-call")
        grace = arg.get("grace") if isinstance(arg, dict) else None
        err = await self.m.kill_pod(self.pod, convert_pod_status_to_running_pod("fake", st), grace)
        self.flush("call")
        self.new_events()
        if err is not None:
            self.out(f"kill-error: {err}")

    async def gc(self, arg: dict) -> None:
        deleted, terminated = bool(arg.get("deleted", False)), bool(arg.get("terminated", False))
        self.begin("gc", f"deleted={str(deleted).lower()} terminated={str(terminated).lower()}")
        uid = self.pod.metadata.uid
        self.states.existing_pods = set() if deleted else {uid}
        self.states.running_pods = set() if terminated else {uid}
        policy = GCPolicy(
            min_age=dur(arg.get("minAge", 0)),
            max_per_pod_container=int(arg.get("maxPerPodContainer", 1)),
            max_containers=int(arg.get("maxContainers", -1)),
        )
        err = await self.m.garbage_collect(
            policy,
            bool(arg.get("allSourcesReady", True)),
            bool(arg.get("evictNonDeletedPods", False)),
        )
        self.flush("call")
        self.new_events()
        if err is not None:
            self.out(f"gc-error: {err}")

    async def probe(self, arg: dict) -> None:
        kind, name, result = arg["kind"], arg["container"], arg["result"]
        self.begin("probe", f"{kind} {name} {result}")
        mine = [
            c
            for c in self.fake.runtime_service.containers.values()
            if c.pod_uid == self.pod.metadata.uid
            and c.config.metadata is not None
            and c.config.metadata.name == name
        ]
        cid = max(mine, key=lambda c: c.created_at).id if mine else ""
        manager = self.m.liveness_manager if kind == "liveness" else self.m.startup_manager
        r = Result.SUCCESS if result == "success" else Result.FAILURE
        await manager.set(ContainerID(self.m.runtime_name, cid), r, self.pod)

    async def sync(self, back_off) -> None:
        self.begin("sync")
        md = self.pod.metadata
        try:
            st = await self.m.get_pod_status(md.uid, md.name, md.namespace)
        except Exception as exc:
            self.flush("status-call")
            self.out(f"status-error: {exc}")
            return
        self.flush("status-call")
        self.pod_status(st)
        self.actions(st)
        self.flush("actions-call")
        res = await self.m.sync_pod(self.pod, st, [], back_off)
        self.flush("call")
        self.new_events()
        for r in res.sync_results:
            err = "nil" if r.error is None else str(r.error)
            self.out(
                f"result: {r.action} target={r.target} error={err} message={json.dumps(r.message)}"
            )
        failed = res.error()
        if failed is not None:
            self.out(f"sync-error: {failed}")

    def pod_status(self, st) -> None:
        """The sandboxes and containers of the status the runtime reported."""
        for s in st.sandbox_statuses:
            ip = s.network.ip if s.network is not None else ""
            attempt = s.metadata.attempt if s.metadata is not None else 0
            self.out(f"sandbox: {s.id} state={s.state.name} attempt={attempt} ip={ip}")
        for c in st.container_statuses:
            self.out(
                f"container: {c.name} {c.id.id} state={c.state.value} exit={c.exit_code} "
                f"restarts={c.restart_count} reason={c.reason} hash={c.hash:x}"
            )

    def actions(self, st) -> None:
        """What computePodActions decided, as the Go driver prints it (JSON)."""
        a = self.m.compute_pod_actions(self.pod, st)
        kill = sorted(
            (
                {"id": cid.id, "name": k.name, "message": k.message, "reason": str(k.reason)}
                for cid, k in a.containers_to_kill.items()
            ),
            key=lambda d: d["name"],
        )
        nxt = a.next_init_container_to_start
        actions = {
            "KillPod": a.kill_pod,
            "CreateSandbox": a.create_sandbox,
            "SandboxID": a.sandbox_id,
            "Attempt": a.attempt,
            "NextInitContainerToStart": nxt.name if nxt is not None else None,
            "ContainersToStart": list(a.containers_to_start),
            "ContainersToKill": kill,
            "EphemeralContainersToStart": list(a.ephemeral_containers_to_start),
        }
        self.out("actions: " + json.dumps(actions, separators=(",", ":")))


if __name__ == "__main__":
    for line in trace(sys.argv[1]):
        print(line)
