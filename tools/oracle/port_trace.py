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
from minikubelet.go.duration import format_duration, parse_duration
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import new_back_off
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kuberuntime.fake_kuberuntime_manager import (
    FakePodStateProvider,
    MaxContainerBackOff,
    backOffPeriod,
    new_fake_runtime,
)
from minikubelet.prober.results.results_manager import Result
from minikubelet.sim.cgroup_fs import SimCgroupFS
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
    pods = [pod_from_dict(sc["pod"], source=path)]
    by_uid = {pods[0].metadata.uid: pods[0]}
    log = CallLog()
    uid = pods[0].metadata.uid
    states = FakePodStateProvider(existing_pods={uid}, running_pods={uid})
    fake = new_fake_runtime(
        pod_state_provider=states,
        scenario=Scenario(present_images=list(sc.get("presentImages") or [])),
        seed=1,
        pod_lookup=by_uid.get,
    )
    instrument(fake.runtime_service, fake.image_service, log)
    m = fake.manager
    # As the Go driver's helper: the pod's cgroup under kubelet's default tree (cgroupfs).
    m.runtime_helper.pod_cgroup_parent = _pod_cgroup_parent
    state = {"step": 0, "events": 0}

    def out(s: str) -> None:
        lines.append(log.scrub(s))

    def flush(prefix: str) -> None:
        for line in log.take():
            out(f"{prefix}: {line}")
        for line in log.take_configs():
            out(f"config: {line}")
        text = klog_out.getvalue()
        klog_out.seek(0)
        klog_out.truncate()
        for line in text.splitlines():
            _, sep, rest = line.partition("] ")
            out(f"klog: {line[:1]} {rest}" if sep else f"klog: {line}")

    def when() -> str:
        return "+" + format_duration(float(go.now()) - go.VIRTUAL_EPOCH)

    async def kill(arg) -> None:
        pod = pods[0]
        state["step"] += 1
        out(f"# step {state['step']} killPod at {when()}")
        md = pod.metadata
        st = await m.get_pod_status(md.uid, md.name, md.namespace)
        flush("status-call")
        grace = arg.get("grace") if isinstance(arg, dict) else None
        err = await m.kill_pod(pod, convert_pod_status_to_running_pod("fake", st), grace)
        flush("call")
        evs = fake.recorder.events[state["events"] :]
        state["events"] = len(fake.recorder.events)
        for e in evs:
            out(f"event: {e.type} {e.reason} {e.message}")
        if err is not None:
            out(f"kill-error: {err}")

    async def gc(arg: dict) -> None:
        state["step"] += 1
        deleted, terminated = bool(arg.get("deleted", False)), bool(arg.get("terminated", False))
        out(
            f"# step {state['step']} gc at {when()}: deleted={str(deleted).lower()} "
            f"terminated={str(terminated).lower()}"
        )
        uid = pods[0].metadata.uid
        states.existing_pods = set() if deleted else {uid}
        states.running_pods = set() if terminated else {uid}
        policy = GCPolicy(
            min_age=dur(arg.get("minAge", 0)),
            max_per_pod_container=int(arg.get("maxPerPodContainer", 1)),
            max_containers=int(arg.get("maxContainers", -1)),
        )
        err = await m.garbage_collect(
            policy,
            bool(arg.get("allSourcesReady", True)),
            bool(arg.get("evictNonDeletedPods", False)),
        )
        flush("call")
        evs = fake.recorder.events[state["events"] :]
        state["events"] = len(fake.recorder.events)
        for e in evs:
            out(f"event: {e.type} {e.reason} {e.message}")
        if err is not None:
            out(f"gc-error: {err}")

    async def probe(arg: dict) -> None:
        pod = pods[0]
        state["step"] += 1
        kind, name, result = arg["kind"], arg["container"], arg["result"]
        out(f"# step {state['step']} probe at {when()}: {kind} {name} {result}")
        rs = fake.runtime_service
        mine = [
            c
            for c in rs.containers.values()
            if c.pod_uid == pod.metadata.uid and c.config.metadata.name == name
        ]
        cid = max(mine, key=lambda c: c.created_at).id if mine else ""
        manager = m.liveness_manager if kind == "liveness" else m.startup_manager
        r = Result.SUCCESS if result == "success" else Result.FAILURE
        await manager.set(ContainerID(m.runtime_name, cid), r, pod)

    async def sync(back_off) -> None:
        pod = pods[0]
        state["step"] += 1
        t = float(go.now()) - go.VIRTUAL_EPOCH
        out(f"# step {state['step']} sync at +{format_duration(t)}")
        md = pod.metadata
        try:
            st = await m.get_pod_status(md.uid, md.name, md.namespace)
        except Exception as e:
            flush("status-call")
            out(f"status-error: {e}")
            return
        flush("status-call")
        for s in st.sandbox_statuses:
            ip = s.network.ip if s.network is not None else ""
            attempt = s.metadata.attempt if s.metadata is not None else 0
            out(f"sandbox: {s.id} state={s.state.name} attempt={attempt} ip={ip}")
        for c in st.container_statuses:
            out(
                f"container: {c.name} {c.id.id} state={c.state.value} exit={c.exit_code} "
                f"restarts={c.restart_count} reason={c.reason} hash={c.hash:x}"
            )
        a = m.compute_pod_actions(pod, st)
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
        out("actions: " + json.dumps(actions, separators=(",", ":")))
        flush("actions-call")
        res = await m.sync_pod(pod, st, [], back_off)
        flush("call")
        evs = fake.recorder.events[state["events"] :]
        state["events"] = len(fake.recorder.events)
        for e in evs:
            out(f"event: {e.type} {e.reason} {e.message}")
        for r in res.sync_results:
            err = "nil" if r.error is None else str(r.error)
            out(f"result: {r.action} target={r.target} error={err} message={json.dumps(r.message)}")
        e = res.error()
        if e is not None:
            out(f"sync-error: {e}")

    async def run() -> None:
        back_off = new_back_off(backOffPeriod, MaxContainerBackOff)
        for step in sc["steps"]:
            if step == "sync":
                await sync(back_off)
            elif isinstance(step, dict) and set(step) == {"update"}:
                state["step"] += 1
                out(f"# step {state['step']} update at {when()}")
                pods[0] = pod_from_dict(step["update"], source=path)
                by_uid[pods[0].metadata.uid] = pods[0]
            elif isinstance(step, dict) and set(step) == {"crashSandbox"}:
                state["step"] += 1
                rs = fake.runtime_service
                sb = rs._sandboxes_by_pod.get(pods[0].metadata.uid, [""])[-1]
                if sb:
                    rs.crash_sandbox(sb)
                out(f"# step {state['step']} crashSandbox at {when()}: {sb}")
            elif isinstance(step, dict) and set(step) == {"killPod"}:
                await kill(step["killPod"])
            elif isinstance(step, dict) and set(step) == {"probe"}:
                await probe(step["probe"])
            elif isinstance(step, dict) and set(step) == {"gc"}:
                await gc(step["gc"] or {})
            elif isinstance(step, dict) and set(step) == {"wait"}:
                await go.sleep(dur(step["wait"]))
            elif isinstance(step, dict) and set(step) == {"run"}:
                total, every = dur(step["run"]["for"]), dur(step["run"]["every"])
                end = float(go.now()) + total
                while float(go.now()) < end:
                    await sync(back_off)
                    await go.sleep(every)
            else:
                raise SystemExit(f"unknown step {step!r}")

    go.run(run, seed=1)


if __name__ == "__main__":
    for line in trace(sys.argv[1]):
        print(line)
