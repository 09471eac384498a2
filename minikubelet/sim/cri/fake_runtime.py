"""A fake CRI runtime service: sandboxes and containers that live in memory, on the runtime's
clock, as a scenario says.

Not a port of containerd, nor of cri-api's ``FakeRuntimeService`` test double (Go:
staging/src/k8s.io/cri-api/pkg/apis/testing/fake_runtime_service.go), though it keeps that
fake's habits: errors can be injected per method, and the calls are counted.

How containers behave:

* States follow the CRI: ``CONTAINER_CREATED`` (``create_container``) → ``CONTAINER_RUNNING``
  (``start_container``) → ``CONTAINER_EXITED`` (its run is over, it was stopped, or its sandbox
  was stopped).
* How long a run lasts and its exit code come from the pod's ``minikubelet.dev/scenario``
  annotation or the scenario file (see
  [`minikubelet.sim.cri.scenario`][minikubelet.sim.cri.scenario]); by default init containers exit 0
  after 1 s and other containers run until stopped. (Which containers are init containers: see
  [`FakeRuntimeService`][].)
* Exits are computed lazily: every call first *reaps* the containers whose run ended by now
  (a heap ordered by end time), and their ``finished_at`` is the scripted end, not the time of
  the call. So nothing runs in the background, a run is deterministic, and 10,000 idle pods
  cost nothing between calls.
* Timestamps are int nanoseconds from the runtime's clock (virtual in a virtual run). Within one
  pod, creation times are strictly increasing (1 µs apart when created at the same instant),
  because kubelet orders a pod's containers and sandboxes by creation time.
* Every call first yields to the other goroutines (``gosched``), as a real RPC lets them run
  while it is on the wire; the clock does not move.
* IDs are 64 hex digits drawn from ``random.Random(seed)``: the same seed and the same calls give
  the same IDs.
* A sandbox dies (NOTREADY, its containers left running) when the scenario says, reaped lazily
  as containers are; an exit the scenario marks ``oomKilled`` has reason ``OOMKilled``.
* A stopped or dead (NOTREADY) sandbox takes no new containers: ``create_container`` and
  ``start_container`` fail there with containerd's errors, which kubelet's CRI client logs.
* ``stop_container`` blocks (on the runtime's clock) for the container's ``stopTime``, at most
  the grace period; the container then exits with 143, or 137 if the grace period ran out.
* The runtime's health (``status``) can be scripted (``runtime: notReady/down`` in the scenario
  file) or set with [`FakeRuntimeService.set_runtime_ready`][]; calls can be made to hang
  (``runtime: hang``) and any method to fail with [`FakeRuntimeService.inject_error`][].
* Lifecycle hooks: ``exec_sync`` (an ``exec`` hook) and [`FakeRuntimeService.http_get`][]
  (the pod network's answer to an ``httpGet`` hook) follow the run's ``postStart`` or ``preStop``
  script: they take its ``runFor`` on the runtime's clock, then succeed or fail as it says.
* ``create_container``, ``start_container`` and ``exec_sync`` go through kubelet's CRI client
  ([`minikubelet.sim.cri.runtime_server`][minikubelet.sim.cri.runtime_server]), which logs a
  failed call and turns an exec's non-zero exit into ``command '…' exited with N: <stderr>``.
"""

from __future__ import annotations

import heapq
import ipaddress
import random
import urllib.parse
from collections import Counter, deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from minikubelet.base import trace
from minikubelet.container.testing.fake_runtime_helper import InitContainerAnnotation
from minikubelet.cri.remote.remote_runtime import RemoteRuntimeService
from minikubelet.go import Clock, gosched, sleep
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.cri_api.pkg.apis.services import CRIError
from minikubelet.sim.cri.fake_records import Container, Sandbox
from minikubelet.sim.cri.hooks import answer_http_get, run_exec_hook
from minikubelet.sim.cri.runtime_server import RuntimeServer
from minikubelet.sim.cri.scenario import (
    Lifetime,
    Scenario,
    ScenarioError,
    sandbox_script_from_annotations,
    scripts_from_annotations,
)
from minikubelet.sim.cri.usage_scenario import usage_from_annotations
from minikubelet.types.types import HTTPResponse

if TYPE_CHECKING:
    from minikubelet.sim.cri.fake_image_service import FakeImageService

#: The label kubelet puts on sandboxes and containers with the pod's UID (pkg/kubelet/types).
_POD_UID_LABEL = "io.kubernetes.pod.uid"
#: Exit codes of a process ended by SIGTERM (128+15) and by SIGKILL (128+9).
EXIT_SIGTERM = 143
EXIT_SIGKILL = 137

FakeRuntimeName = "fake"
FakeVersion = "0.1.0"

PodLookup = Callable[[str], "v1.Pod | None"]


def _runtime_clock() -> Clock:
    from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import RUNTIME_CLOCK

    return RUNTIME_CLOCK


class FakeRuntimeService:
    """An in-memory CRI ``RuntimeService`` (see the module docstring).

    ``clock`` defaults to the running runtime's. A container is an init container (for its default
    lifetime) if its config has the annotation ``minikubelet.dev/init-container: "true"`` (the
    fake runtime helper sets it) or, failing that, if ``pod_lookup`` (pod UID → ``v1.Pod`` or
    None; wire it to kubelet's pod manager) says so. ``image_service``, if given, must hold a container's image when it is created.
    With ``yield_on_call`` (the default) every call lets the other goroutines run first, as a
    real RPC would: without it, a PLEG relist of many pods would never let kubelet read events.
    """

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        scenario: Scenario | None = None,
        seed: int = 0,
        runtime_name: str = FakeRuntimeName,
        pod_lookup: PodLookup | None = None,
        image_service: FakeImageService | None = None,
        yield_on_call: bool = True,
    ) -> None:
        self.clock = clock if clock is not None else _runtime_clock()
        self.scenario = scenario if scenario is not None else Scenario()
        self.rng = random.Random(seed)
        self.runtime_name = runtime_name
        self.pod_lookup = pod_lookup
        self.image_service = image_service
        #: Each call first lets the other goroutines run, as they would during a real RPC.
        self.yield_on_call = yield_on_call
        self.sandboxes: dict[str, Sandbox] = {}
        self.containers: dict[str, Container] = {}
        self._sandboxes_by_pod: dict[str, list[str]] = {}
        self._containers_by_pod: dict[str, list[str]] = {}
        self._last_created: dict[str, int] = {}
        self._exits: list[tuple[int, int, str]] = []  # (end_at, seq, container or sandbox id)
        self._seq = 0
        self._next_ip = 0
        self._start: float | None = None
        self._errors: dict[str, deque[Exception]] = {}
        #: How many times each method was called.
        self.calls: Counter[str] = Counter()
        self.runtime_ready = runtimeapi.RuntimeCondition(type=runtimeapi.RuntimeReady, status=True)
        self.network_ready = runtimeapi.RuntimeCondition(type=runtimeapi.NetworkReady, status=True)
        #: kubelet's CRI client, through which kubelet's create, start and exec calls come.
        self.client = RemoteRuntimeService(RuntimeServer(self))
        try:
            self._start = self.clock.now()
        except RuntimeError:  # made before go.run: start on first use
            self._start = None

    # -- knobs for tests and scenarios ------------------------------------------------------

    def inject_error(self, method: str, err: Exception | None = None, times: int = 1) -> None:
        """Make the next ``times`` calls of ``method`` (``"run_pod_sandbox"``, ``"status"`` …)
        fail with ``err`` (default: a CRIError ``Unknown``)."""
        e = err if err is not None else CRIError("Unknown", f"injected error in {method}")
        self._errors.setdefault(method, deque()).extend([e] * times)

    def set_runtime_ready(self, ready: bool, reason: str = "", message: str = "") -> None:
        """Set the ``RuntimeReady`` condition ``status`` reports."""
        self.runtime_ready = runtimeapi.RuntimeCondition(
            type=runtimeapi.RuntimeReady, status=ready, reason=reason, message=message
        )

    def crash_sandbox(self, pod_sandbox_id: str) -> None:
        """Make a sandbox NOTREADY without stopping its containers (its network died)."""
        s = self._sandbox(pod_sandbox_id)
        s.state = runtimeapi.PodSandboxState_SANDBOX_NOTREADY
        s.changed()

    def elapsed(self) -> float:
        """Seconds since the fake runtime started (what the scenario's windows count)."""
        now = self.clock.now()
        if self._start is None:
            self._start = now
        return now - self._start

    # -- internals ---------------------------------------------------------------------------

    async def _enter(self, method: str) -> None:
        """Begin a call: let other goroutines run (as during a real RPC), wait out a scripted
        hang, count it, fail it if an error was injected, and reap the containers whose run has
        ended."""
        if self.yield_on_call:
            await gosched()
        hangs = self.scenario.runtime_hangs.get(method)
        if hangs:
            t = self.elapsed()
            end = max((w.end for w in hangs if w.contains(t)), default=t)
            if end > t:
                await sleep(end - t)
        self.calls[method] += 1
        q = self._errors.get(method)
        if q:
            raise q.popleft()
        self._reap()

    def _now_ns(self) -> int:
        return round(self.clock.now() * 1e9)

    def _new_id(self) -> str:
        return f"{self.rng.getrandbits(256):064x}"

    def _created_at(self, pod_uid: str) -> int:
        t = max(self._now_ns(), self._last_created.get(pod_uid, 0) + 1000)
        self._last_created[pod_uid] = t
        return t

    def _reap(self) -> None:
        if not self._exits:
            return
        now = self._now_ns()
        exits = self._exits
        while exits and exits[0][0] <= now:
            end_at, _, cid = heapq.heappop(exits)
            c = self.containers.get(cid)
            if (
                c is not None
                and c.state == runtimeapi.ContainerState_CONTAINER_RUNNING
                and c.end_at == end_at
            ):
                # containerd reports an OOM kill seen on the task as the reason.
                reason = "OOMKilled" if c.lifetime.oom_killed else ""
                c.exit(end_at, c.lifetime.exit_code, reason)
                continue
            s = self.sandboxes.get(cid)  # the heap also holds scripted sandbox deaths
            if s is not None and s.state == runtimeapi.PodSandboxState_SANDBOX_READY:
                s.state = runtimeapi.PodSandboxState_SANDBOX_NOTREADY
                s.changed()

    def _schedule_end(self, end_at: int, id: str) -> None:
        """Make ``_reap`` end container or sandbox ``id`` at ``end_at`` ns."""
        self._seq += 1
        heapq.heappush(self._exits, (end_at, self._seq, id))

    def _trace(self, op: str, c: Container) -> None:
        """Tell a trace recording (if any) about a CRI call on ``c``."""
        s = self.sandboxes.get(c.sandbox_id)
        name = c.config.metadata.name if c.config.metadata is not None else ""
        trace.cri(op, None if s is None else s.config, name)

    def _sandbox(self, pod_sandbox_id: str) -> Sandbox:
        s = self.sandboxes.get(pod_sandbox_id)
        if s is None:
            raise CRIError(
                "NotFound", f'an error occurred when try to find sandbox "{pod_sandbox_id}"'
            )
        return s

    def _container(self, container_id: str) -> Container:
        c = self.containers.get(container_id)
        if c is None:
            raise CRIError(
                "NotFound", f'an error occurred when try to find container "{container_id}"'
            )
        return c

    def _allocate_ips(self) -> list[str]:
        """The next pod's IPs, one per family of the scenario, in its order."""
        self._next_ip += 1
        first = {
            "IPv4": ipaddress.ip_address("10.88.0.1"),
            "IPv6": ipaddress.ip_address("fd00:10:88::1"),
        }
        return [str(first[family] + self._next_ip) for family in self.scenario.ip_families]

    def _lifetime(
        self, sandbox: Sandbox, config: runtimeapi.ContainerConfig, name: str, attempt: int
    ) -> Lifetime:
        meta = sandbox.config.metadata or runtimeapi.PodSandboxMetadata()
        is_init = config.annotations.get(InitContainerAnnotation) == "true"
        if not is_init and self.pod_lookup is not None:
            pod = self.pod_lookup(sandbox.pod_uid)
            if pod is not None:
                is_init = any(c.name == name for c in pod.spec.init_containers)
        default = self.scenario.default_init if is_init else self.scenario.default_app
        script = sandbox.scripts.get(name)
        if script is None:
            script = self.scenario.pods.get(f"{meta.namespace}/{meta.name}", {}).get(name)
        if script is None:
            return default
        return script.lifetime(attempt).or_default(default)

    # -- RuntimeVersioner --------------------------------------------------------------------

    async def version(self, api_version: str) -> runtimeapi.VersionResponse:
        """The runtime's name and versions (CRI ``Version``)."""
        await self._enter("version")
        return runtimeapi.VersionResponse(
            version=FakeVersion,
            runtime_name=self.runtime_name,
            runtime_version=FakeVersion,
            runtime_api_version="v1alpha2",
        )

    # -- PodSandboxManager -------------------------------------------------------------------

    async def run_pod_sandbox(
        self, config: runtimeapi.PodSandboxConfig, runtime_handler: str
    ) -> str:
        """Create a READY sandbox with an IP (none with the host's network); it dies (NOTREADY)
        when its script says."""
        await self._enter("run_pod_sandbox")
        meta = config.metadata or runtimeapi.PodSandboxMetadata()
        pod_uid = config.labels.get(_POD_UID_LABEL, meta.uid)
        pod = f"{meta.namespace}/{meta.name}"
        try:
            scripts, _ = scripts_from_annotations(config.annotations or {}, pod)
            sandbox_script = sandbox_script_from_annotations(config.annotations or {}, pod)
            # Checked here so that a bad usage annotation fails the pod now, not a later measure.
            usage_from_annotations(config.annotations or {}, pod)
        except ScenarioError as e:
            raise CRIError("InvalidArgument", str(e)) from None
        network = runtimeapi.NamespaceMode_POD
        sc = config.linux.security_context if config.linux is not None else None
        if sc is not None and sc.namespace_options is not None:
            network = sc.namespace_options.network
        ips = [] if network == runtimeapi.NamespaceMode_NODE else self._allocate_ips()
        s = Sandbox(
            id=self._new_id(),
            config=config,
            pod_uid=pod_uid,
            state=runtimeapi.PodSandboxState_SANDBOX_READY,
            created_at=self._created_at(pod_uid),
            ip=ips[0] if ips else "",
            additional_ips=ips[1:],
            network=network,
            runtime_handler=runtime_handler,
            scripts=scripts,
        )
        self.sandboxes[s.id] = s
        self._sandboxes_by_pod.setdefault(pod_uid, []).append(s.id)
        if sandbox_script is None:
            sandbox_script = self.scenario.sandboxes.get(pod)
        run_for = None if sandbox_script is None else sandbox_script.run_for(meta.attempt)
        if run_for is not None:
            self._schedule_end(self._now_ns() + round(run_for * 1e9), s.id)
        trace.cri("RunPodSandbox", config)
        return s.id

    async def stop_pod_sandbox(self, pod_sandbox_id: str) -> None:
        """Make the sandbox NOTREADY, killing (137) the containers still running in it."""
        await self._enter("stop_pod_sandbox")
        s = self._sandbox(pod_sandbox_id)
        trace.cri("StopPodSandbox", s.config)
        now = self._now_ns()
        for cid in self._containers_by_pod.get(s.pod_uid, []):
            c = self.containers[cid]
            if c.sandbox_id == s.id and c.state == runtimeapi.ContainerState_CONTAINER_RUNNING:
                c.exit(now, EXIT_SIGKILL)
        if s.state != runtimeapi.PodSandboxState_SANDBOX_NOTREADY:
            s.state = runtimeapi.PodSandboxState_SANDBOX_NOTREADY
            s.changed()

    async def remove_pod_sandbox(self, pod_sandbox_id: str) -> None:
        """Remove the sandbox and every container in it (removing a missing one succeeds)."""
        await self._enter("remove_pod_sandbox")
        s = self.sandboxes.pop(pod_sandbox_id, None)
        if s is None:
            return
        self._sandboxes_by_pod[s.pod_uid].remove(s.id)
        for cid in list(self._containers_by_pod.get(s.pod_uid, [])):
            if self.containers[cid].sandbox_id == s.id:
                self._remove_container(cid)
        if not self._sandboxes_by_pod[s.pod_uid]:
            del self._sandboxes_by_pod[s.pod_uid]
            if not self._containers_by_pod.get(s.pod_uid):
                self._last_created.pop(s.pod_uid, None)

    async def pod_sandbox_status(self, pod_sandbox_id: str) -> runtimeapi.PodSandboxStatus:
        """The sandbox's state, IP and namespaces."""
        await self._enter("pod_sandbox_status")
        s = self._sandbox(pod_sandbox_id)
        return s.cri_status()

    async def list_pod_sandbox(
        self, filter: runtimeapi.PodSandboxFilter | None
    ) -> list[runtimeapi.PodSandbox]:
        """The sandboxes matching ``filter`` (by ID, state, labels), oldest first."""
        await self._enter("list_pod_sandbox")
        if filter is not None and _POD_UID_LABEL in filter.label_selector:
            ids = self._sandboxes_by_pod.get(filter.label_selector[_POD_UID_LABEL], [])
            candidates = [self.sandboxes[i] for i in ids]
        else:
            candidates = list(self.sandboxes.values())
        # Most listings select no labels: no generator per sandbox for them.
        selector = filter.label_selector if filter is not None else None
        out = []
        for s in candidates:
            if filter is not None:
                if filter.id and s.id != filter.id:
                    continue
                if filter.state is not None and s.state != filter.state.state:
                    continue
                if selector and any(s.config.labels.get(k) != v for k, v in selector.items()):
                    continue
            out.append(s.cri_item())
        return out

    # -- ContainerManager --------------------------------------------------------------------

    async def create_container(
        self,
        pod_sandbox_id: str,
        config: runtimeapi.ContainerConfig,
        sandbox_config: runtimeapi.PodSandboxConfig,
    ) -> str:
        """Through kubelet's CRI client (``client``); see [`answer_create_container`][]."""
        return await self.client.create_container(pod_sandbox_id, config, sandbox_config)

    async def answer_create_container(
        self, req: runtimeapi.CreateContainerRequest
    ) -> runtimeapi.CreateContainerResponse:
        """The runtime's side of ``CreateContainer``: a container (CREATED) whose scripted
        lifetime is fixed now; in a stopped or dead sandbox it fails as containerd's does
        (``NotFound``, ``failed to get sandbox container task: …``)."""
        await self._enter("create_container")
        s = self._sandbox(req.pod_sandbox_id)
        config = req.config or runtimeapi.ContainerConfig()
        if s.state != runtimeapi.PodSandboxState_SANDBOX_READY:
            # containerd (1.4, 1.5) asks for the sandbox's task, which is deleted once the
            # sandbox has stopped or died.
            raise CRIError(
                "NotFound",
                "failed to get sandbox container task: no running task found: "
                f"task {s.id} not found: not found",
            )
        meta = config.metadata or runtimeapi.ContainerMetadata()
        image = config.image.image if config.image is not None else ""
        image_ref = image
        if self.image_service is not None:
            img = self.image_service.lookup(image)
            if img is None:
                raise CRIError("NotFound", f'failed to get image "{image}": image not found')
            image_ref = img.id
        c = Container(
            id=self._new_id(),
            sandbox_id=s.id,
            pod_uid=s.pod_uid,
            config=config,
            image_ref=image_ref,
            lifetime=self._lifetime(s, config, meta.name, meta.attempt),
            created_at=self._created_at(s.pod_uid),
        )
        self.containers[c.id] = c
        self._containers_by_pod.setdefault(s.pod_uid, []).append(c.id)
        trace.cri("CreateContainer", s.config, meta.name)
        return runtimeapi.CreateContainerResponse(container_id=c.id)

    async def start_container(self, container_id: str) -> None:
        """Through kubelet's CRI client (``client``); see [`answer_start_container`][]."""
        await self.client.start_container(container_id)

    async def answer_start_container(
        self, req: runtimeapi.StartContainerRequest
    ) -> runtimeapi.StartContainerResponse:
        """The runtime's side of ``StartContainer``: a CREATED container's run starts now; in a
        sandbox no longer READY it fails as containerd's does (``sandbox container "…" is not
        running``)."""
        await self._enter("start_container")
        c = self._container(req.container_id)
        if c.state != runtimeapi.ContainerState_CONTAINER_CREATED:
            raise CRIError(
                "FailedPrecondition",
                f'container "{c.id}" is in {c.state.name} state, not CONTAINER_CREATED',
            )
        if self.sandboxes[c.sandbox_id].state != runtimeapi.PodSandboxState_SANDBOX_READY:
            # containerd's StartContainer (1.4, 1.5) checks the sandbox's state.
            raise CRIError("Unknown", f'sandbox container "{c.sandbox_id}" is not running')
        now = self._now_ns()
        c.state = runtimeapi.ContainerState_CONTAINER_RUNNING
        c.started_at = now
        if c.lifetime.run_for is not None:
            c.end_at = now + round(c.lifetime.run_for * 1e9)
            self._schedule_end(c.end_at, c.id)
        c.changed()
        self._trace("StartContainer", c)
        return runtimeapi.StartContainerResponse()

    async def stop_container(self, container_id: str, timeout: int) -> None:
        """Ask a running container to stop; wait until it does, at most ``timeout`` seconds.

        It needs its scripted ``stopTime``: within the grace period it exits with 143, else it
        is killed when the period is over (137). Stopping a container that is not running is a
        no-op, as in the CRI.
        """
        await self._enter("stop_container")
        c = self._container(container_id)
        if c.state != runtimeapi.ContainerState_CONTAINER_RUNNING:
            return
        self._trace("StopContainer", c)
        wait = min(c.lifetime.stop_time, max(timeout, 0))
        if wait > 0:
            await sleep(wait)
            self._reap()  # it may have ended by itself meanwhile
            if c.state != runtimeapi.ContainerState_CONTAINER_RUNNING:
                return
        code = EXIT_SIGTERM if c.lifetime.stop_time <= max(timeout, 0) else EXIT_SIGKILL
        c.exit(self._now_ns(), code)

    async def remove_container(self, container_id: str) -> None:
        """Remove a container (a missing one succeeds, as in the CRI)."""
        await self._enter("remove_container")
        if container_id in self.containers:
            self._remove_container(container_id)

    def _remove_container(self, container_id: str) -> None:
        c = self.containers.pop(container_id)
        ids = self._containers_by_pod[c.pod_uid]
        ids.remove(container_id)
        if not ids:
            del self._containers_by_pod[c.pod_uid]

    async def list_containers(
        self, filter: runtimeapi.ContainerFilter | None
    ) -> list[runtimeapi.Container]:
        """The containers matching ``filter`` (ID, state, sandbox, labels), oldest first."""
        await self._enter("list_containers")
        if filter is not None and _POD_UID_LABEL in filter.label_selector:
            ids = self._containers_by_pod.get(filter.label_selector[_POD_UID_LABEL], [])
            candidates = [self.containers[i] for i in ids]
        else:
            candidates = list(self.containers.values())
        # Most listings select no labels: no generator per container for them.
        selector = filter.label_selector if filter is not None else None
        out = []
        for c in candidates:
            if filter is not None:
                if filter.id and c.id != filter.id:
                    continue
                if filter.state is not None and c.state != filter.state.state:
                    continue
                if filter.pod_sandbox_id and c.sandbox_id != filter.pod_sandbox_id:
                    continue
                if selector and any(c.config.labels.get(k) != v for k, v in selector.items()):
                    continue
            out.append(c.cri_item())
        return out

    async def container_status(self, container_id: str) -> runtimeapi.ContainerStatus:
        """The container's state, times, exit code and reason."""
        await self._enter("container_status")
        c = self._container(container_id)
        return c.cri_status()

    async def exec_sync(
        self, container_id: str, cmd: list[str], timeout: float
    ) -> tuple[bytes, bytes, Exception | None]:
        """Through kubelet's CRI client (``client``); see [`answer_exec_sync`][]."""
        return await self.client.exec_sync(container_id, cmd, timeout)

    async def answer_exec_sync(
        self, req: runtimeapi.ExecSyncRequest
    ) -> runtimeapi.ExecSyncResponse:
        """The runtime's side of ``ExecSync``: the command is one of the container's lifecycle
        hooks and follows the run's script (``preStop`` if it is the command of the container's
        preStop handler, ``postStart`` otherwise). A time-out of 0 waits as long as the hook
        runs, as containerd; a longer hook is cut at a positive time-out with containerd's
        error; a container that is not running refuses, as containerd does."""
        await self._enter("exec_sync")
        c = self._container(req.container_id)
        if c.state != runtimeapi.ContainerState_CONTAINER_RUNNING:
            raise CRIError(
                "Unknown", f"failed to exec in container: container is in {c.state.name} state"
            )
        return await run_exec_hook(c, req.cmd, req.timeout)

    async def http_get(self, url: str) -> tuple[HTTPResponse | None, Exception | None]:
        """The answer to an HTTP GET kubelet makes for an ``httpGet`` hook. Ours (no CRI call):
        the pod network of the fake node; see [`answer_http_get`][minikubelet.sim.cri.hooks.answer_http_get]."""
        await gosched()
        self._reap()
        host = urllib.parse.urlsplit(url).hostname or ""
        sandboxes = [s for s in self.sandboxes.values() if s.ip == host or host in s.additional_ips]
        if not sandboxes:
            return None, None  # no pod has that IP: an empty answer, as Go's fakeHTTP gives
        sandbox = max(sandboxes, key=lambda s: s.created_at)
        running = [
            self.containers[cid]
            for cid in self._containers_by_pod.get(sandbox.pod_uid, [])
            if self.containers[cid].sandbox_id == sandbox.id
            and self.containers[cid].state == runtimeapi.ContainerState_CONTAINER_RUNNING
        ]
        return await answer_http_get(url, running)

    # -- RuntimeService ------------------------------------------------------------------------

    async def status(self) -> runtimeapi.RuntimeStatus:
        """The RuntimeReady and NetworkReady conditions (as scripted or set)."""
        await self._enter("status")
        t = self.elapsed()
        if any(w.contains(t) for w in self.scenario.runtime_down):
            raise CRIError("Unavailable", "connection error: the fake runtime is down (scenario)")
        runtime_ready = self.runtime_ready
        if any(w.contains(t) for w in self.scenario.runtime_not_ready):
            runtime_ready = runtimeapi.RuntimeCondition(
                type=runtimeapi.RuntimeReady,
                status=False,
                reason="ScenarioNotReady",
                message="the scenario says the runtime is not ready",
            )
        return runtimeapi.RuntimeStatus(conditions=[runtime_ready, self.network_ready])
