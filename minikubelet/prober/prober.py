"""The prober: runs one probe against a container and turns its outcome into a result.

Go: pkg/kubelet/prober/prober.go

A worker ([`minikubelet.prober.worker`][minikubelet.prober.worker]) calls [`Prober.probe`][] each
period. The prober picks the container's probe of that type, runs it (up to three tries while it
*errors*), records a ``Warning`` event ``Unhealthy`` when it fails (``Liveness probe failed: …``)
and returns ``Success`` or ``Failure``.

What real kubelet does to run a probe, and what minikubelet does instead
========================================================================

Real kubelet runs the probe's handler against the live container:

* ``exec``: runs the command inside the container through the CRI (``ExecSync``, via the
  container runtime's ``RunInContainer``) with the probe's timeout; exit code 0 is success,
  anything else a failure whose message is the command's output;
* ``httpGet``: an HTTP GET to ``scheme://host:port/path`` (host defaults to the pod IP, a named
  port is looked up in the container's ports) with the probe's headers and a ``kube-probe/1.21``
  user agent; a status from 200 to 399 is success (a redirect to another host is success with a
  *warning*), anything else or no answer within the timeout a failure;
* ``tcpSocket``: opens a TCP connection to ``host:port``; success if it connects in time.

minikubelet has no containers to exec into and nothing listening on the pod IP, so
[`Prober.run_probe`][] keeps Go's structure (it picks the handler, computes the command, URL or
address and logs them as Go does, and a named port that does not exist is an error as in Go) and
then asks a deterministic **fake**, [`FakeProbeExecutor`][], for the outcome. The fake follows a
script written in the pod's annotation ``minikubelet.dev/probes``.

The annotation ``minikubelet.dev/probes``
-----------------------------------------

A YAML (or JSON) mapping: container name → probe type (``liveness``, ``readiness`` or
``startup``) → a script, which is a mapping with exactly one of these keys:

``succeedAfter: <duration>``
    fails until the container has been running for that long, then succeeds;
``failAfter: <duration>``
    succeeds until the container has been running for that long, then fails;
``results: [<result>, ...]``
    one result per probe of the container, in order; the last one repeats. A result is
    ``success``, ``fail`` or ``warning`` (success with a warning, like an HTTP probe redirected
    to another host). A restarted container (new container ID) starts from the first one again.

A duration is written as Go writes one (``10s``, ``1m30s``, ``500ms``) or as a number of seconds.
"Running for" is the runtime's clock ([`minikubelet.go.now`][minikubelet.go.now]) minus the
container status's ``state.running.startedAt``. For example::

    metadata:
      name: web
      annotations:
        minikubelet.dev/probes: |
          nginx:
            startup:   {succeedAfter: 20s}
            readiness: {results: [fail, fail, success]}
            liveness:  {failAfter: 2m}

A probe with no script (no annotation, or no entry for its container or type) always succeeds.
An annotation that is not valid (not YAML, a container the pod does not have, an unknown probe
type or key, a bad duration or result) is reported once in the log as an error naming the pod,
the annotation and the field; every probe of that pod then *fails*, with the same message in its
``Unhealthy`` event. The annotation is read as the pod was when its workers were made (kubelet's
workers keep the pod of ``AddPod`` too).

Differences from Go:

* ``prober``'s probers (``exec``, ``readinessHTTP``, ``livenessHTTP``, ``startupHTTP``, ``tcp``)
  are replaced by ``Prober.fake``; ``newExecInContainer`` and the ``execInContainer`` type,
  which adapt ``RunInContainer`` to an ``exec.Cmd``, are not ported.
* An exec probe's command is expanded as in Go (``$(VAR)`` from the container's ``env`` values,
  [`expand_container_command_only_static`][minikubelet.container.helpers.expand_container_command_only_static]),
  and the expanded command is what the fake is asked about and what its messages show.
* Errors are returned as Go returns them, as a last value (``Exception`` or None).
"""

from __future__ import annotations

import shlex
import urllib.parse
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from minikubelet.container.helpers import expand_container_command_only_static
from minikubelet.container.ref import generate_container_ref
from minikubelet.container.runtime import ContainerID
from minikubelet.events import ContainerProbeWarning, ContainerUnhealthy
from minikubelet.go import Second
from minikubelet.go import fmt as go_fmt
from minikubelet.go.duration import format_duration, parse_duration
from minikubelet.k8s_io.api.core.v1 import Container, HTTPHeader, Pod, PodStatus, Probe
from minikubelet.k8s_io.apimachinery.pkg.types.uid import UID
from minikubelet.k8s_io.apimachinery.pkg.util.yaml.decoder import YAMLSyntaxError, yaml_to_json
from minikubelet.k8s_io.client_go.tools.record.event import EventRecorder, EventTypeWarning
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.api.v1.pod.util import get_container_status
from minikubelet.prober.prober_manager import ProbeType, liveness, readiness, startup
from minikubelet.prober.results import results_manager as results
from minikubelet.prober.worker import running_for
from minikubelet.util import format

#: The pod annotation that scripts the fake probes (see the module docstring).
MinikubeletProbesAnnotation = "minikubelet.dev/probes"

maxProbeRetries = 3


class ProbeResult(StrEnum):
    """What running a probe's handler gives, before the prober turns it into a
    [`Result`][minikubelet.prober.results.results_manager.Result] (Go: ``probe.Result``, in
    pkg/probe/probe.go)."""

    SUCCESS = "success"
    WARNING = "warning"
    FAILURE = "failure"
    UNKNOWN = "unknown"


# Go's names (package probe). `Warning` hides Python's built-in in this module; nothing here
# needs the built-in.
Success = ProbeResult.SUCCESS
Warning = ProbeResult.WARNING
Failure = ProbeResult.FAILURE
Unknown = ProbeResult.UNKNOWN


@dataclass(eq=False)
class Prober:
    """Checks the liveness/readiness/startup of a container.

    Go: pkg/kubelet/prober/prober.go type prober
    """

    #: Go's ``kubecontainer.CommandRunner`` for exec probes; unused (probes are faked).
    runner: Any | None
    recorder: EventRecorder
    #: Ours, in place of Go's exec, HTTP and TCP probers: decides each probe's outcome.
    fake: FakeProbeExecutor = field(default_factory=lambda: FakeProbeExecutor())

    def record_container_event(
        self,
        pod: Pod,
        container: Container,
        event_type: str,
        reason: str,
        message: str,
        *args: Any,
    ) -> None:
        """Record an event about the container (``spec.containers{name}`` of the pod).

        Go: pkg/kubelet/prober/prober.go (*prober).recordContainerEvent

        Go logs and gives up when it cannot make a reference to the container; the port's
        [`generate_container_ref`][minikubelet.container.ref.generate_container_ref] cannot fail.
        """
        ref = generate_container_ref(pod, container)
        self.recorder.eventf(ref, event_type, reason, message, *args)

    def probe(
        self,
        probe_type: ProbeType,
        pod: Pod,
        status: PodStatus,
        container: Container,
        container_id: ContainerID,
    ) -> tuple[results.Result, Exception | None]:
        """Probe the container: ``(Success, None)``, ``(Failure, None)`` or, when the probe
        could not be run, ``(Failure, err)``.

        Go: pkg/kubelet/prober/prober.go (*prober).probe
        """
        match probe_type:
            # Go: case readiness:
            case ProbeType.READINESS:
                probe_spec = container.readiness_probe
            # Go: case liveness:
            case ProbeType.LIVENESS:
                probe_spec = container.liveness_probe
            # Go: case startup:
            case ProbeType.STARTUP:
                probe_spec = container.startup_probe
            # Go: default:
            case _:
                return results.Result.FAILURE, ValueError(f'unknown probe type: "{probe_type}"')

        if probe_spec is None:
            klog.info_s(
                "Probe is nil",
                probeType=probe_type,
                pod=klog.kobj(pod),
                podUID=UID(pod.metadata.uid),
                containerName=container.name,
            )
            return results.Result.SUCCESS, None

        result, output, err = self.run_probe_with_retries(
            probe_type, probe_spec, pod, status, container, container_id, maxProbeRetries
        )
        if err is not None or (result != ProbeResult.SUCCESS and result != ProbeResult.WARNING):
            if err is not None:
                if klog.v(1).enabled:  # Go: klog.V(1).ErrorS
                    klog.error_s(
                        err,
                        "Probe errored",
                        probeType=probe_type,
                        pod=klog.kobj(pod),
                        podUID=UID(pod.metadata.uid),
                        containerName=container.name,
                    )
                self.record_container_event(
                    pod,
                    container,
                    EventTypeWarning,
                    ContainerUnhealthy,
                    "%s probe errored: %s",
                    probe_type,
                    err,
                )
            else:  # result != probe.Success
                klog.v(1).info_s(
                    "Probe failed",
                    probeType=probe_type,
                    pod=klog.kobj(pod),
                    podUID=UID(pod.metadata.uid),
                    containerName=container.name,
                    probeResult=result,
                    output=output,
                )
                self.record_container_event(
                    pod,
                    container,
                    EventTypeWarning,
                    ContainerUnhealthy,
                    "%s probe failed: %s",
                    probe_type,
                    output,
                )
            return results.Result.FAILURE, err
        if result == ProbeResult.WARNING:
            self.record_container_event(
                pod,
                container,
                EventTypeWarning,
                ContainerProbeWarning,
                "%s probe warning: %s",
                probe_type,
                output,
            )
            klog.v(3).info_s(
                "Probe succeeded with a warning",
                probeType=probe_type,
                pod=klog.kobj(pod),
                podUID=UID(pod.metadata.uid),
                containerName=container.name,
                output=output,
            )
        else:
            klog.v(3).info_s(
                "Probe succeeded",
                probeType=probe_type,
                pod=klog.kobj(pod),
                podUID=UID(pod.metadata.uid),
                containerName=container.name,
            )
        return results.Result.SUCCESS, None

    def run_probe_with_retries(
        self,
        probe_type: ProbeType,
        p: Probe,
        pod: Pod,
        status: PodStatus,
        container: Container,
        container_id: ContainerID,
        retries: int,
    ) -> tuple[ProbeResult, str, Exception | None]:
        """Run the probe up to ``retries`` times while it errors; the last outcome if it never
        gets through.

        Go: pkg/kubelet/prober/prober.go (*prober).runProbeWithRetries
        """
        err: Exception | None = None
        result = ProbeResult.UNKNOWN
        output = ""
        for _ in range(retries):
            result, output, err = self.run_probe(
                probe_type, p, pod, status, container, container_id
            )
            if err is None:
                return result, output, None
        return result, output, err

    def run_probe(
        self,
        probe_type: ProbeType,
        p: Probe,
        pod: Pod,
        status: PodStatus,
        container: Container,
        container_id: ContainerID,
    ) -> tuple[ProbeResult, str, Exception | None]:
        """Run the probe's handler once (here: ask the fake, see the module docstring).

        Go: pkg/kubelet/prober/prober.go (*prober).runProbe
        """
        timeout = p.timeout_seconds * Second
        if p.exec is not None:
            klog.v(4).info_s(
                "Exec-Probe runProbe",
                pod=klog.kobj(pod),
                containerName=container.name,
                execCommand=p.exec.command,
            )
            command = expand_container_command_only_static(p.exec.command, container.env)
            # Go: pb.exec.Probe(pb.newExecInContainer(...)), CRI ExecSync with the timeout.
            return self.fake.probe(
                f"exec {shlex.join(command)}", probe_type, pod, status, container, container_id
            )
        if p.http_get is not None:
            scheme = str(p.http_get.scheme).lower()
            host = p.http_get.host
            if host == "":
                host = status.pod_ip
            port, err = extract_port(p.http_get.port, container)
            if err is not None:
                return ProbeResult.UNKNOWN, "", err
            path = p.http_get.path
            klog.v(4).info_s("HTTP-Probe Host", scheme=scheme, host=host, port=port, path=path)
            url = format_url(scheme, host, port, path)
            headers = build_header(p.http_get.http_headers)
            klog.v(4).info_s("HTTP-Probe Headers", headers=headers)
            # Go: each probe type has its own HTTP prober (so they share no connection pool).
            match probe_type:
                # Go: case liveness:
                case ProbeType.LIVENESS:
                    return self.fake.probe(
                        f"HTTP GET {url}", liveness, pod, status, container, container_id
                    )
                # Go: case startup:
                case ProbeType.STARTUP:
                    return self.fake.probe(
                        f"HTTP GET {url}", startup, pod, status, container, container_id
                    )
                # Go: default:
                case _:
                    return self.fake.probe(
                        f"HTTP GET {url}", readiness, pod, status, container, container_id
                    )
        if p.tcp_socket is not None:
            port, err = extract_port(p.tcp_socket.port, container)
            if err is not None:
                return ProbeResult.UNKNOWN, "", err
            host = p.tcp_socket.host
            if host == "":
                host = status.pod_ip
            klog.v(4).info_s(
                "TCP-Probe Host", host=host, port=port, timeout=go_fmt.Duration(timeout)
            )
            # Go: pb.tcp.Probe(host, port, timeout), a TCP dial.
            return self.fake.probe(
                f"TCP dial {_join_host_port(host, port)}",
                probe_type,
                pod,
                status,
                container,
                container_id,
            )
        klog.info_s("Failed to find probe builder for container", containerName=container.name)
        return (
            ProbeResult.UNKNOWN,
            "",
            ValueError(f"missing probe handler for {format.pod(pod)}:{container.name}"),
        )


def new_prober(runner: Any | None, recorder: EventRecorder) -> Prober:
    """A prober; ``runner`` (Go's ``kubecontainer.CommandRunner``) is unused here.

    Go: pkg/kubelet/prober/prober.go newProber
    """
    return Prober(runner=runner, recorder=recorder, fake=FakeProbeExecutor())


def build_header(header_list: list[HTTPHeader]) -> dict[str, list[str]]:
    """The probe's headers as a map of name → values (Go: an ``http.Header``).

    Go: pkg/kubelet/prober/prober.go buildHeader
    """
    headers: dict[str, list[str]] = {}
    for header in header_list:
        headers.setdefault(header.name, []).append(header.value)
    return headers


def extract_port(param: int | str, container: Container) -> tuple[int, Exception | None]:
    """The port number a probe names: a number, or the name of one of the container's ports
    (or a number written as a string).

    Go: pkg/kubelet/prober/prober.go extractPort
    """
    port = -1
    err: Exception | None = None
    # Go switches on the IntOrString's kind; here the value is an int or a str.
    # Go: case intstr.Int:
    if isinstance(param, int):
        port = param
    # Go: case intstr.String:
    elif isinstance(param, str):
        port, err = find_port_by_name(container, param)
        if err is not None:
            # A named port that no container port has: a number written as a string, maybe.
            try:
                port, err = int(param), None
            except ValueError:
                return port, ValueError(f'strconv.Atoi: parsing "{param}": invalid syntax')
    # Go: default:
    else:
        return port, ValueError(f"intOrString had no kind: {param!r}")
    if port > 0 and port < 65536:
        return port, None
    return port, ValueError(f"invalid port number: {port}")


def find_port_by_name(container: Container, port_name: str) -> tuple[int, Exception | None]:
    """The number of the container's port called ``port_name``.

    Go: pkg/kubelet/prober/prober.go findPortByName
    """
    for port in container.ports:
        if port.name == port_name:
            return port.container_port, None
    return 0, ValueError(f"port {port_name} not found")


def format_url(scheme: str, host: str, port: int, path: str) -> str:
    """The URL an HTTP probe asks for.

    Go: pkg/kubelet/prober/prober.go formatURL
    """
    u = urllib.parse.urlsplit(path)
    return urllib.parse.urlunsplit(
        (scheme, _join_host_port(host, port), u.path, u.query, u.fragment)
    )


def _join_host_port(host: str, port: int) -> str:
    """``host:port``, with an IPv6 host in brackets. Go: ``net.JoinHostPort``."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


# --- The fake probes (ours, not Go) -------------------------------------------------------------


class ProbeAnnotationError(ValueError):
    """The annotation ``minikubelet.dev/probes`` of a pod is not valid.

    The message names the pod, the annotation and the field (``web.readiness.succeedAfter``);
    ``pod``, ``field`` and ``problem`` hold the three parts.
    """

    def __init__(self, pod: klog.ObjectRef, field: str, problem: str) -> None:
        self.pod = pod
        self.field = field
        self.problem = problem
        where = f', field "{field}"' if field else ""
        super().__init__(f'pod {pod}: annotation "{MinikubeletProbesAnnotation}"{where}: {problem}')


@dataclass(frozen=True)
class ProbeScript:
    """How one fake probe behaves: exactly one of the three is set."""

    #: Fail until the container has run this many seconds, then succeed.
    succeed_after: float | None = None
    #: Succeed until the container has run this many seconds, then fail.
    fail_after: float | None = None
    #: One result per probe, in order; the last repeats.
    results: tuple[ProbeResult, ...] = ()

    def __str__(self) -> str:
        if self.succeed_after is not None:
            return f"succeedAfter {format_duration(self.succeed_after)}"
        if self.fail_after is not None:
            return f"failAfter {format_duration(self.fail_after)}"
        names = {v: k for k, v in _RESULTS.items()}
        return "results [" + ", ".join(names[r] for r in self.results) + "]"


_PROBE_TYPES = {"liveness": liveness, "readiness": readiness, "startup": startup}
_SCRIPT_KEYS = ("succeedAfter", "failAfter", "results")
_RESULTS = {
    "success": ProbeResult.SUCCESS,
    "fail": ProbeResult.FAILURE,
    "warning": ProbeResult.WARNING,
}


def parse_probes_annotation(pod: Pod) -> dict[str, dict[ProbeType, ProbeScript]]:
    """The probe scripts of a pod's annotation ``minikubelet.dev/probes``: container name →
    probe type → script. Empty when the pod has no such annotation.

    Raises [`ProbeAnnotationError`][] naming the pod, the annotation and the field.
    """
    text = pod.metadata.annotations.get(MinikubeletProbesAnnotation)
    if text is None:
        return {}
    ref = klog.kobj(pod)

    def invalid(field: str, problem: str) -> ProbeAnnotationError:
        return ProbeAnnotationError(ref, field, problem)

    try:
        data = yaml_to_json(text)
    except YAMLSyntaxError as e:
        detail = str(e).removeprefix("not valid YAML: ")
        raise invalid("", f"not valid YAML or JSON: {detail}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise invalid(
            "",
            f"must be a mapping of container name to probe type to script, not {_kind(data)}",
        )
    names = [c.name for c in pod.spec.containers]
    out: dict[str, dict[ProbeType, ProbeScript]] = {}
    for name, per_type in data.items():
        where = str(name)
        if name not in names:
            raise invalid(
                where,
                f'the pod has no container "{name}" (its containers: {", ".join(names)})',
            )
        if not isinstance(per_type, dict):
            raise invalid(
                where,
                "must be a mapping of probe type (liveness, readiness, startup) to script, "
                f"not {_kind(per_type)}",
            )
        scripts: dict[ProbeType, ProbeScript] = {}
        for type_name, script in per_type.items():
            here = f"{where}.{type_name}"
            probe_type = _PROBE_TYPES.get(type_name) if isinstance(type_name, str) else None
            if probe_type is None:
                raise invalid(here, "unknown probe type; expected liveness, readiness or startup")
            scripts[probe_type] = _parse_script(script, here, invalid)
        out[str(name)] = scripts
    return out


def _parse_script(script: Any, here: str, invalid: Any) -> ProbeScript:
    """One script (``{succeedAfter: 10s}`` …) at field ``here``."""
    expected = "exactly one of succeedAfter, failAfter, results"
    if not isinstance(script, dict):
        raise invalid(here, f"must be a mapping with {expected}, not {_kind(script)}")
    for key in script:
        if key not in _SCRIPT_KEYS:
            raise invalid(f"{here}.{key}", f"unknown key; expected {expected}")
    if len(script) != 1:
        given = " and ".join(str(k) for k in script) or "nothing"
        raise invalid(here, f"has {given}; give {expected}")
    key, value = next(iter(script.items()))
    if key == "results":
        if not isinstance(value, list) or not value:
            raise invalid(
                f"{here}.results", f"must be a non-empty list of results, not {_kind(value)}"
            )
        parsed = []
        for i, r in enumerate(value):
            if not isinstance(r, str) or r not in _RESULTS:
                raise invalid(
                    f"{here}.results[{i}]",
                    f"{r!r} is not a result; expected success, fail or warning",
                )
            parsed.append(_RESULTS[r])
        return ProbeScript(results=tuple(parsed))
    seconds = _parse_seconds(value, f"{here}.{key}", invalid)
    if key == "succeedAfter":
        return ProbeScript(succeed_after=seconds)
    return ProbeScript(fail_after=seconds)


def _parse_seconds(value: Any, here: str, invalid: Any) -> float:
    """A duration: a Go duration string (``10s``, ``1m30s``) or a number of seconds."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise invalid(here, f"must be a duration such as 10s or 1m30s, not {_kind(value)}")
    if isinstance(value, str):
        try:
            seconds = parse_duration(value)
        except ValueError as e:
            raise invalid(here, f"{e} (write a duration such as 10s or 1m30s)") from None
    else:
        seconds = float(value)
    if seconds < 0:
        raise invalid(here, f"must not be negative, not {value}")
    return seconds


def _kind(value: Any) -> str:
    """What a YAML value is, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({value})"
    if isinstance(value, int | float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f'a string ("{value}")'
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


class FakeProbeExecutor:
    """Decides the outcome of a probe from the pod's annotation ``minikubelet.dev/probes``.

    Not a port: it stands where kubelet's exec, HTTP and TCP probers run the probe against the
    container (see the module docstring). Deterministic: the outcome depends only on the script,
    how long the container has been running (the runtime's clock) and, for ``results``, how many
    times this probe ran against this container.
    """

    def __init__(self) -> None:
        #: (pod UID, annotation text) of the invalid annotations already logged.
        self._reported: set[tuple[str, str]] = set()
        #: (pod UID, container name, probe type) → (container ID, probes run against it).
        self._runs: dict[tuple[str, str, ProbeType], tuple[ContainerID, int]] = {}

    def probe(
        self,
        action: str,
        probe_type: ProbeType,
        pod: Pod,
        status: PodStatus,
        container: Container,
        container_id: ContainerID,
    ) -> tuple[ProbeResult, str, Exception | None]:
        """The outcome of one probe: ``(result, output, None)``, as Go's probers return it.

        ``action`` says what real kubelet would do (``HTTP GET http://10.0.0.5:80/healthz``);
        it starts the output of a failure.
        """
        try:
            scripts = parse_probes_annotation(pod)
        except ProbeAnnotationError as err:
            key = (pod.metadata.uid, pod.metadata.annotations.get(MinikubeletProbesAnnotation, ""))
            if key not in self._reported:
                self._reported.add(key)
                klog.error_s(
                    err,
                    "Invalid probe scripts: every probe of the pod fails",
                    pod=klog.kobj(pod),
                    annotation=MinikubeletProbesAnnotation,
                )
            return ProbeResult.FAILURE, str(err), None
        script = scripts.get(container.name, {}).get(probe_type)
        if script is None:
            return ProbeResult.SUCCESS, "", None

        c, _ = get_container_status(status.container_statuses, container.name)
        age = running_for(c.state.running.started_at) if c.state.running is not None else 0.0
        context = f"container running for {format_duration(age)}"
        if script.succeed_after is not None:
            result = ProbeResult.SUCCESS if age >= script.succeed_after else ProbeResult.FAILURE
        elif script.fail_after is not None:
            result = ProbeResult.SUCCESS if age < script.fail_after else ProbeResult.FAILURE
        else:
            key3 = (pod.metadata.uid, container.name, probe_type)
            seen, n = self._runs.get(key3, (container_id, 0))
            if seen != container_id:
                n = 0  # a new container starts the list again
            result = script.results[min(n, len(script.results) - 1)]
            self._runs[key3] = (container_id, n + 1)
            context = f"probe {n + 1} of this container"

        if result == ProbeResult.SUCCESS:
            return result, "", None
        what = "scripted warning" if result == ProbeResult.WARNING else "scripted failure"
        type_name = str(probe_type).lower()
        output = (
            f"{action}: {what} ({MinikubeletProbesAnnotation} {container.name}.{type_name}: "
            f"{script}; {context})"
        )
        return result, output, None

    def forget(self, pod_uid: str, container_name: str, probe_type: ProbeType) -> None:
        """Drop what is remembered about one probe (its worker has exited)."""
        self._runs.pop((pod_uid, container_name, probe_type), None)
