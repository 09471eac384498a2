"""The port's side of the oracle at the Kubelet level: a scenario's ``kubelet:`` steps driven
through the port's own Kubelet (``new_main_kubelet``) one select case at a time, as the Go
driver (tools/oracle/go/hack/oracle/kubeletmode.go) drives real kubelet, and printed in its
format. Ours; no Kubernetes code.

    python -m tools.oracle.kubelet_trace SCENARIO.yaml

What the harness puts around the Kubelet is what the Go driver puts around real kubelet: the
work queue logs each delay as its jitter window and enqueues the window's base; probe workers
are registered but never run (results come from the steps); mirror pods are kept by a recording
client and sent back through the API source; one predicate admit handler, with the stub failure
handler; no volume manager.
"""

from __future__ import annotations

import asyncio
import copy
import io
import sys
from typing import Any, TextIO, cast

import yaml

from minikubelet import go
from minikubelet.apis.config.types import KubeletConfiguration
from minikubelet.container.runtime import ContainerID
from minikubelet.github_com.google.cadvisor.info.v1.machine import MachineInfo
from minikubelet.go import DEFAULT, make_chan, recv, select
from minikubelet.go.duration import format_duration
from minikubelet.k8s_io.api.core.v1 import Node, NodeStatus, ObjectMeta, Pod, PodStatus
from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity
from minikubelet.k8s_io.client_go.tools.record.event import Recorder
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kubelet import Kubelet, make_pod_source_config, new_main_kubelet
from minikubelet.kubelet_pods import podKillingChannelCapacity
from minikubelet.lifecycle.admission_failure_handler_stub import (
    new_admission_failure_handler_stub,
)
from minikubelet.lifecycle.interfaces import PodAdmitHandlers
from minikubelet.lifecycle.predicate import new_predicate_admit_handler
from minikubelet.pleg.generic import GenericPLEG
from minikubelet.pod_container_deletor import containerDeletorBufferLimit
from minikubelet.pod_workers import PodWorkersImpl
from minikubelet.prober.prober_manager import (
    ProbeKey,
    ProberManager,
    liveness,
    readiness,
    startup,
)
from minikubelet.prober.results.results_manager import Result
from minikubelet.prober.worker import new_worker
from minikubelet.sim.container_runtime import new_fake_runtime
from minikubelet.sim.cri.scenario import Scenario
from minikubelet.sim.dependencies import new_dependencies
from minikubelet.types import (
    ApiserverSource,
    ConfigHashAnnotationKey,
    ConfigMirrorAnnotationKey,
    ConfigSourceAnnotationKey,
    PodOperation,
    PodUpdate,
)
from tools.oracle.port_trace import CallLog, dur, instrument

NODE = "node-1"
#: The bases of the jitters pod workers draw (1 s, 10 s, 1 min; factor 0.5).
JITTER_BASES = (1.0, 10.0, 60.0)
#: The two calls of every relist, left out of the trace (both drivers): they say nothing new.
RELIST_CALLS = (
    "call: ListPodSandbox nil -> ",
    'call: ListContainers id="" state=nil sandbox="" labels= -> ',
)


def _go_dur(seconds: float) -> str:
    return format_duration(seconds)


class _Stream:
    """Every line of a step, from every part, in the order they happen."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, line: str) -> None:
        self.lines.append(line)

    def take(self) -> list[str]:
        out, self.lines = self.lines, []
        return out


class _CallTee(list):
    """CallLog.lines that writes each CRI call into the stream."""

    def __init__(self, stream: _Stream) -> None:
        super().__init__()
        self.stream = stream

    def append(self, line: str) -> None:
        self.stream.add(f"call: {line}")


class _KlogTee(io.TextIOBase):
    def __init__(self, stream: _Stream) -> None:
        self.stream = stream
        self.buf = ""

    def write(self, s: str) -> int:
        self.buf += s
        while "\n" in self.buf:
            line, self.buf = self.buf.split("\n", 1)
            if not line:
                continue
            _, sep, rest = line.partition("] ")
            self.stream.add(f"klog: {line[:1]} {rest}" if sep else f"klog: {line}")
        return len(s)


class _Queue:
    """The Kubelet's work queue, each delay logged as its jitter window and enqueued as its base."""

    def __init__(self, inner: Any, stream: _Stream) -> None:
        self.inner = inner
        self.stream = stream

    def get_work(self) -> list[str]:
        return self.inner.get_work()

    def enqueue(self, item: str, delay: float) -> None:
        for b in JITTER_BASES:
            if b <= delay < b * 1.5:
                self.stream.add(f"enqueue: {item} in [{_go_dur(b)},{_go_dur(b * 1.5)})")
                self.inner.enqueue(item, b)
                return
        self.stream.add(f"enqueue: {item} after {_go_dur(delay)}")
        self.inner.enqueue(item, delay)


class _Mirror:
    """The API server's side of mirror pods, as the Go driver's oracleMirror."""

    def __init__(self, stream: _Stream) -> None:
        self.stream = stream
        self.created: list[Pod] = []

    def create_mirror_pod(self, pod: Pod) -> None:
        m = copy.deepcopy(pod)
        m.metadata.annotations = dict(pod.metadata.annotations or {})
        m.metadata.annotations[ConfigMirrorAnnotationKey] = (pod.metadata.annotations or {}).get(
            ConfigHashAnnotationKey, ""
        )
        m.metadata.annotations.pop(ConfigSourceAnnotationKey, None)
        m.metadata.uid = "mirror-" + pod.metadata.uid
        self.stream.add(f"mirror: create {pod.metadata.namespace}/{pod.metadata.name}")
        self.created.append(m)

    def delete_mirror_pod(self, pod_full_name: str, uid: str | None) -> bool:
        self.stream.add(f"mirror: delete {pod_full_name}")
        return True


class _Handler:
    """The Kubelet as the sync loop's handler, each call written down."""

    def __init__(self, kl: Kubelet, stream: _Stream) -> None:
        self.kl = kl
        self.stream = stream

    def _names(self, pods: list[Pod]) -> str:
        return ",".join(f"{p.metadata.namespace}/{p.metadata.name}" for p in pods)

    async def handle_pod_additions(self, pods: list[Pod]) -> None:
        self.stream.add(f"handle: HandlePodAdditions {self._names(pods)}")
        await self.kl.handle_pod_additions(pods)

    async def handle_pod_updates(self, pods: list[Pod]) -> None:
        self.stream.add(f"handle: HandlePodUpdates {self._names(pods)}")
        await self.kl.handle_pod_updates(pods)

    async def handle_pod_removes(self, pods: list[Pod]) -> None:
        self.stream.add(f"handle: HandlePodRemoves {self._names(pods)}")
        await self.kl.handle_pod_removes(pods)

    async def handle_pod_reconcile(self, pods: list[Pod]) -> None:
        self.stream.add(f"handle: HandlePodReconcile {self._names(pods)}")
        await self.kl.handle_pod_reconcile(pods)

    async def handle_pod_syncs(self, pods: list[Pod]) -> None:
        self.stream.add(f"handle: HandlePodSyncs {self._names(pods)}")
        await self.kl.handle_pod_syncs(pods)

    async def handle_pod_cleanups(self) -> None:
        self.stream.add("handle: HandlePodCleanups")
        await self.kl.handle_pod_cleanups()


def describe_status(s: PodStatus) -> str:
    """The status line, as the Go driver's describeStatus prints it."""
    cs = []
    for group in (s.init_container_statuses, s.container_statuses):
        for c in group:
            st = "?"
            if c.state.waiting is not None:
                st = "waiting:" + c.state.waiting.reason
            elif c.state.running is not None:
                st = "running"
            elif c.state.terminated is not None:
                t = c.state.terminated
                st = f"terminated:{t.reason}:{t.exit_code}"
            started = "nil" if c.started is None else str(c.started).lower()
            cs.append(
                f"{c.name}={st}(restarts={c.restart_count},ready={str(c.ready).lower()},"
                f"started={started})"
            )
    conds = sorted(f"{c.type}={c.status}" for c in s.conditions)
    reason = f' reason={s.reason} message="{s.message}"' if s.reason else ""
    return (
        f"phase={s.phase}{reason} podIP={s.pod_ip} containers=[{' '.join(cs)}] "
        f"conditions=[{' '.join(conds)}]"
    )


def trace(path: str) -> list[str]:
    """The port's Kubelet-level trace of one scenario file, one string per line."""
    with open(path) as fh:
        sc = yaml.safe_load(fh)
    out: list[str] = []
    stream = _Stream()
    klog.configure(verbosity=2, out=cast(TextIO, _KlogTee(stream)))
    try:
        go.run(_run, sc, path, out, stream, seed=1)
    finally:
        klog.configure(verbosity=0, out=None)
    return out


async def _run(sc: dict, path: str, out: list[str], stream: _Stream) -> None:
    from minikubelet.config.manifest import pod_from_dict

    entries: list[dict[str, Any]] = []
    if not sc.get("pods"):
        entries.append({"source": ApiserverSource, "pod": pod_from_dict(sc["pod"], source=path)})
    for p in sc.get("pods") or []:
        entries.append(
            {
                "source": p.get("source") or ApiserverSource,
                "pod": pod_from_dict(p["pod"], source=path),
            }
        )

    def by_name(name: str) -> dict[str, Any]:
        for e in entries:
            if e["pod"].metadata.name == name:
                return e
        raise SystemExit(f"no pod {name!r} in the scenario")

    node_cfg = sc.get("node") or {}
    capacity = {
        "cpu": Quantity.parse(str(node_cfg.get("cpu", "4"))),
        "memory": Quantity.parse(str(node_cfg.get("memory", "8Gi"))),
        "pods": Quantity.parse(str(node_cfg.get("pods", "110"))),
    }
    node = Node(
        metadata=ObjectMeta(name=NODE),
        status=NodeStatus(capacity=capacity, allocatable=dict(capacity)),
    )

    recorder = Recorder()
    record = recorder.eventf

    def eventf(obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None:
        message = message_fmt % args if args else message_fmt
        stream.add(f"event: {event_type} {reason} {message}")
        record(obj, event_type, reason, message_fmt, *args)

    recorder.eventf = eventf  # type: ignore[method-assign]
    runtime = new_fake_runtime(
        scenario=Scenario(present_images=list(sc.get("presentImages") or [])),
        seed=1,
        recorder=recorder,
    )
    calls = CallLog()
    calls.lines = _CallTee(stream)
    instrument(runtime.runtime_service, runtime.image_service, calls)

    # The Go driver's Kubelet has no pod cgroups (cgroupsPerQOS is false, the container manager
    # is cm's fake, which creates nothing and names every pod's cgroup ""): so has this one.
    cfg = KubeletConfiguration(
        static_pod_path="", max_pods=int(str(capacity["pods"])), cgroups_per_qos=False
    )
    pod_cfg = make_pod_source_config(cfg, recorder, NODE, lambda: True, None)
    machine = MachineInfo(cpu=capacity["cpu"], memory=capacity["memory"])
    kl = new_main_kubelet(
        cfg,
        new_dependencies(runtime, machine, pod_cfg, None),
        hostname=NODE,
        node_name=NODE,
        machine_info=machine,
    )
    # --- what the Go driver puts around real kubelet (see the module docstring) ---
    stream.take()  # the container manager's creation, which the Go driver does not log
    kl.sources_ready.sources_ready_fn = lambda _sources: True
    kl.volume_manager = None
    kl.runtime_state.set_network_state(None)
    queue = _Queue(kl.work_queue, stream)
    workers = kl.pod_workers
    pleg = kl.pleg
    assert isinstance(workers, PodWorkersImpl) and isinstance(pleg, GenericPLEG)
    kl.work_queue = queue
    workers.work_queue = queue
    mirror = _Mirror(stream)
    kl.pod_manager.mirror_client = mirror
    kl.admit_handlers = PodAdmitHandlers()
    kl.admit_handlers.add_pod_admit_handler(
        new_predicate_admit_handler(
            lambda: node, new_admission_failure_handler_stub(), lambda node_info, attrs: None
        )
    )
    kl.get_node = lambda: node  # type: ignore[method-assign]
    probe_manager = kl.probe_manager
    assert isinstance(probe_manager, ProberManager)

    def add_pod(pod: Pod) -> None:  # the real AddPod without starting the workers
        for c in pod.spec.containers:
            for probe, kind in (
                (c.startup_probe, startup),
                (c.readiness_probe, readiness),
                (c.liveness_probe, liveness),
            ):
                if probe is None:
                    continue
                key = ProbeKey(pod.metadata.uid, c.name, kind)
                if key in probe_manager.workers:
                    return
                probe_manager.workers[key] = new_worker(probe_manager, kind, pod, c)

    probe_manager.add_pod = add_pod  # type: ignore[method-assign]
    sync_pod = kl.sync_pod

    async def logged_sync(o: Any) -> None:
        md = o.pod.metadata
        stream.add(f"sync: {o.update_type} {md.namespace}/{md.name}")
        try:
            await sync_pod(o)
        except Exception as err:
            stream.add(f"sync-error: {md.namespace}/{md.name}: {err}")
            raise

    workers.sync_pod_fn = logged_sync
    waiting = {"n": 0}
    cache = kl.pod_cache
    get_newer_than = cache.get_newer_than

    async def counted(uid: str, min_time: float) -> Any:
        waiting["n"] += 1
        try:
            return await get_newer_than(uid, min_time)
        finally:
            waiting["n"] -= 1

    cache.get_newer_than = counted  # type: ignore[assignment]
    handler = _Handler(kl, stream)
    pleg_ch = kl.pleg.watch()
    epoch = float(go.now())

    # The pod killer and the container deletor each work in a goroutine of their own; as in the
    # Go driver, each is handed its work only when the rest is idle (wait_idle).
    pk = kl.pod_killer
    killer = copy.copy(pk)  # shares the termination maps
    killer.pod_killing_ch = make_chan(podKillingChannelCapacity, name="podKillingCh (run)")
    go.go(killer.perform_pod_killing_work, name="podKiller")  # as Run starts it
    deletor = kl.container_deletor
    deletions = deletor.worker  # what the deletor's goroutine reads
    deletor.worker = make_chan(containerDeletorBufferLimit, name="containerDeletor (held)")

    async def wait_idle() -> None:
        quiet = stuck = 0
        while quiet < 20:
            busy = sum(1 for w in workers.is_working.values() if w)
            idle = busy == waiting["n"]
            if idle and len(pk.pod_killing_ch) + len(deletor.worker) > 0:
                while len(pk.pod_killing_ch) > 0:
                    pair, _ = await pk.pod_killing_ch.recv()
                    assert pair is not None  # the held channel is never closed
                    await killer.pod_killing_ch.send(pair)
                while len(deletor.worker) > 0:
                    await deletions.send((await deletor.worker.recv())[0])
                quiet = 0
                continue
            killing = (
                len(killer.pod_killing_ch)
                + len(pk.pod_termination_map)
                + len(pk.mirror_pod_termination_map)
                + len(deletions)
            )
            if idle and killing == 0:
                quiet += 1
                await go.gosched()
                continue
            quiet = 0
            stuck += 1
            if stuck < 50:
                await go.gosched()
                continue
            # Every goroutine left is asleep on the virtual clock (a container given its grace
            # period to stop): move the clock to the first of them, as the Go fake moves its
            # fake clock inside StopContainer.
            stuck = 0
            loop = asyncio.get_running_loop()
            due = [h.when() for h in loop._scheduled if not h.cancelled()]  # type: ignore[attr-defined]
            await go.sleep(max(0.0, min(due) - loop.time()) if due else 0.0)

    async def iteration(
        config: Any = None, sync: Any = None, housekeeping: Any = None, pleg: Any = None
    ) -> None:
        await kl.sync_loop_iteration(config, handler, sync, housekeeping, pleg)
        await wait_idle()

    async def filled(value: Any) -> Any:
        ch = make_chan(1)
        await ch.send(value)
        return ch

    last_status: dict[str, str] = {}
    state = {"step": 0}

    def report(what: str) -> None:
        lines = [line for line in stream.take() if not line.startswith(RELIST_CALLS)]
        changed = []
        uids = sorted(p.metadata.uid for p in kl.pod_manager.get_pods())
        for uid in uids:
            st, ok = kl.status_manager.get_pod_status(uid)
            if ok:
                d = describe_status(st)
                if last_status.get(uid) != d:
                    last_status[uid] = d
                    p, _ = kl.pod_manager.get_pod_by_uid(uid)
                    name = f"{p.metadata.namespace}/{p.metadata.name}" if p else uid
                    changed.append(f"status: {name} {d}")
        if not lines and not changed:
            return
        state["step"] += 1
        t = _go_dur(float(go.now()) - epoch)
        out.append(calls.scrub(f"# {state['step']} {what} at +{t}"))
        out.extend(calls.scrub(line) for line in lines + changed)

    async def config(op: PodOperation, source: str, pods: list[Pod]) -> None:
        for p in pods:  # marked with its source, as PodConfig marks it
            p.metadata.annotations = dict(p.metadata.annotations or {})
            p.metadata.annotations[ConfigSourceAnnotationKey] = source
        await iteration(config=await filled(PodUpdate(pods=pods, op=op, source=source)))

    async def mirrors() -> None:
        while mirror.created:
            m = mirror.created.pop(0)
            await config(PodOperation.ADD, ApiserverSource, [m])
            report("configCh ADD (api) mirror pod")

    async def relist() -> None:
        await pleg.relist()
        await wait_idle()  # a worker that waited for a newer cache runs before the events
        while True:
            sel = await select(recv(pleg_ch), default=True)
            if sel.index == DEFAULT:
                break
            e = sel.value
            stream.add(f"pleg: {e.type} {e.id} {e.data}")
            await iteration(pleg=await filled(e))
        await wait_idle()
        report("plegCh")
        await mirrors()

    await relist()
    for step in sc["kubelet"]:
        if not isinstance(step, dict) or len(step) != 1:
            raise SystemExit(f"a kubelet step is a mapping with one key, not {step!r}")
        ((key, arg),) = step.items()
        if key in ("add", "update", "remove"):
            op = {"add": PodOperation.ADD, "update": PodOperation.UPDATE}.get(
                key, PodOperation.REMOVE
            )
            if key == "update":
                p = pod_from_dict(arg, source=path)
                e = by_name(p.metadata.name)
                e["pod"] = p
            else:
                e = by_name(arg)
            src = ApiserverSource if key == "remove" else e["source"]
            await config(op, src, [e["pod"]])
            report(f"configCh {key.upper()} ({src}) {e['pod'].metadata.name}")
            await mirrors()
        elif key == "delete":
            e = by_name(arg["pod"])
            pod = e["pod"]
            grace = pod.spec.termination_grace_period_seconds
            grace = 30 if grace is None else grace
            grace = int(arg.get("grace", grace))
            p = copy.deepcopy(pod)
            p.metadata.deletion_timestamp = float(go.now())
            p.metadata.deletion_grace_period_seconds = grace
            e["pod"] = p
            await config(PodOperation.DELETE, ApiserverSource, [p])
            report(f"configCh DELETE (api) {p.metadata.name} grace={grace}")
        elif key == "probe":
            e = by_name(arg["pod"])
            pod = e["pod"]
            rs = runtime.runtime_service
            mine = [
                c
                for c in rs.containers.values()
                if c.pod_uid == pod.metadata.uid
                and c.config.metadata is not None
                and c.config.metadata.name == arg["container"]
            ]
            cid = max(mine, key=lambda c: c.created_at).id if mine else ""
            manager = {
                "liveness": kl.liveness_manager,
                "readiness": kl.readiness_manager,
            }.get(arg["kind"], kl.startup_manager)
            r = Result.SUCCESS if arg["result"] == "success" else Result.FAILURE
            cont = ContainerID(runtime.manager.runtime_name, cid)
            old, ok = manager.get(cont)
            if ok and old == r:
                continue
            await manager.set(cont, r, pod)
            await iteration()
            report(
                f"{arg['kind']}Manager.Updates() {pod.metadata.name} {arg['container']} {arg['result']}"
            )
        elif key == "crashSandbox":
            e = by_name(arg)
            rs = runtime.runtime_service
            sb = rs._sandboxes_by_pod.get(e["pod"].metadata.uid, [""])[-1]
            if sb:
                rs.crash_sandbox(sb)
            stream.add(f"crash: {sb}")
            report(f"crashSandbox {e['pod'].metadata.name}")
        elif key == "run":
            end = float(go.now()) + dur(arg)
            while float(go.now()) < end:
                await go.sleep(1.0)
                await relist()
                await iteration(sync=await filled(kl.clock.now()))
                report("syncCh")
                await mirrors()
                if round(float(go.now()) - epoch) % 2 == 0:
                    await iteration(housekeeping=await filled(kl.clock.now()))
                    report("housekeepingCh")
                    await mirrors()
        else:
            raise SystemExit(f"unknown kubelet step {key!r}")


if __name__ == "__main__":
    for line in trace(sys.argv[1]):
        print(line)
