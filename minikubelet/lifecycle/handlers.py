"""Running a container's lifecycle hooks (postStart, preStop): an ``exec`` command inside the
container or an HTTP GET to it.

Go: pkg/kubelet/lifecycle/handlers.go

kubelet's runtime manager calls [`HandlerRunner.run`][] in ``startContainer`` (the postStart hook,
step 4) and in ``executePreStopHook``. Neither call has a time-out in v1.21: the exec hook is run
with a timeout of 0, which the CRI client takes as "no deadline", and kubelet's HTTP client is a
bare ``http.Client`` with none. A hook that never returns holds the container's start (and its
pod worker) for good; only the preStop wait is bounded, by the grace period, in
``executePreStopHook``.

On the fake runtime, the command runner is the runtime manager (CRI ``ExecSync`` on the fake
runtime) and the HTTP client is a fake one; both follow the scenario (see
[`minikubelet.sim.cri.scenario`][minikubelet.sim.cri.scenario]).

Not ported from handlers.go: the AppArmor, NoNewPrivs and ProcMount admit handlers (kubelet.py
says why it leaves them out).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from minikubelet.container.runtime import CommandRunner, ContainerID, PodStatus
from minikubelet.go import fmt as go_fmt
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.api.core.v1.generated_pb import handler_string
from minikubelet.k8s_io.apimachinery.pkg.util.intstr import intstr
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.types.types import HTTPGetter, HTTPResponse
from minikubelet.util import format

#: The most of an HTTP hook's answer kubelet reads into the event's message (10 KiB).
maxRespBodyLength = 10 * 1 << 10


class PodStatusProvider(Protocol):
    """Where an HTTP hook's default host (the pod's IP) comes from: the runtime manager.

    Go: pkg/kubelet/lifecycle/handlers.go type podStatusProvider
    """

    async def get_pod_status(self, uid: str, name: str, namespace: str) -> PodStatus:
        """Go: pkg/kubelet/lifecycle/handlers.go podStatusProvider.GetPodStatus"""
        ...


@dataclass(eq=False)
class HandlerRunner:
    """Runs lifecycle handlers with an HTTP client and a command runner.

    Go: pkg/kubelet/lifecycle/handlers.go type handlerRunner
    """

    http_getter: HTTPGetter
    command_runner: CommandRunner
    container_manager: PodStatusProvider

    async def run(
        self, container_id: ContainerID, pod: v1.Pod, container: v1.Container, handler: v1.Handler
    ) -> tuple[str, Exception | None]:
        """Run the handler; on failure, the message kubelet puts in the hook's event.

        Go: pkg/kubelet/lifecycle/handlers.go (*handlerRunner).Run
        """
        # Go: case handler.Exec != nil:
        if handler.exec is not None:
            msg = ""
            # The timeout is 0, as in Go: no deadline at all (see the module docstring).
            output, err = await self.command_runner.run_in_container(
                container_id, handler.exec.command, 0
            )
            if err is not None:
                # Go's string(output) keeps bytes that are not UTF-8; %q writes them as \xff.
                text = output.decode("utf-8", "surrogateescape")
                msg = go_fmt.sprintf(
                    "Exec lifecycle hook (%v) for Container %q in Pod %q failed - error: %v, "
                    "message: %q",
                    handler.exec.command,
                    container.name,
                    format.pod(pod),
                    err,
                    text,
                )
                klog.v(1).error_s(
                    err,
                    "Exec lifecycle hook for Container in Pod failed",
                    execCommand=handler.exec.command,
                    containerName=container.name,
                    pod=klog.kobj(pod),
                    message=text,
                )
            return msg, err
        # Go: case handler.HTTPGet != nil:
        if handler.http_get is not None:
            msg, err = await self.run_http_handler(pod, container, handler)
            if err is not None:
                msg = go_fmt.sprintf(
                    "HTTP lifecycle hook (%s) for Container %q in Pod %q failed - error: %v, "
                    "message: %q",
                    handler.http_get.path,
                    container.name,
                    format.pod(pod),
                    err,
                    msg,
                )
                klog.v(1).error_s(
                    err,
                    "HTTP lifecycle hook for Container in Pod failed",
                    path=handler.http_get.path,
                    containerName=container.name,
                    pod=klog.kobj(pod),
                )
            return msg, err
        # Go: default:
        # (a tcpSocket handler: v1.21's validation lets it through, but no hook can run it)
        invalid = ValueError(f"invalid handler: {handler_string(handler)}")
        msg = f"Cannot run handler: {invalid}"
        klog.error_s(invalid, "Cannot run handler")
        return msg, invalid

    async def run_http_handler(
        self, pod: v1.Pod, container: v1.Container, handler: v1.Handler
    ) -> tuple[str, Exception | None]:
        """GET the hook's URL: the body of the answer (at most 10 KiB) and the error.

        Go: pkg/kubelet/lifecycle/handlers.go (*handlerRunner).runHTTPHandler
        """
        assert handler.http_get is not None
        host = handler.http_get.host
        if len(host) == 0:
            try:
                status = await self.container_manager.get_pod_status(
                    pod.metadata.uid, pod.metadata.name, pod.metadata.namespace
                )
            except Exception as status_err:
                klog.error_s(status_err, "Unable to get pod info, event handlers may be invalid.")
                return "", status_err
            if len(status.ips) == 0:
                return "", RuntimeError(
                    go_fmt.sprintf("failed to find networking container: %v", go_fmt.Ptr(status))
                )
            host = status.ips[0]
        # An empty port name means port 80; anything else is resolved against the container.
        port_ref = handler.http_get.port
        if isinstance(port_ref, str) and len(port_ref) == 0:
            port = 80
        else:
            port, err = resolve_port(port_ref, container)
            if err is not None:
                return "", err
        # Go writes "http://%s/%s" with a path that already starts with "/": the URL has "//".
        url = f"http://{_join_host_port(host, port)}/{handler.http_get.path}"
        resp, err = await self.http_getter.get(url)
        return get_http_resp_body(resp), err


def new_handler_runner(
    http_getter: HTTPGetter, command_runner: CommandRunner, container_manager: PodStatusProvider
) -> HandlerRunner:
    """A lifecycle handler runner on these.

    Go: pkg/kubelet/lifecycle/handlers.go NewHandlerRunner
    """
    return HandlerRunner(
        http_getter=http_getter,
        command_runner=command_runner,
        container_manager=container_manager,
    )


def resolve_port(
    port_reference: int | str, container: v1.Container
) -> tuple[int, Exception | None]:
    """The port a hook names: a number, a number written as a string, or the name of one of
    the container's ports.

    Go: pkg/kubelet/lifecycle/handlers.go resolvePort
    """
    if isinstance(port_reference, int):
        return port_reference, None
    port_name = port_reference
    if port_name.isascii() and port_name.lstrip("+-").isdigit():  # Go: strconv.Atoi
        return int(port_name), None
    for port_spec in container.ports:
        if port_spec.name == port_name:
            return port_spec.container_port, None
    return -1, RuntimeError(
        go_fmt.sprintf(
            "couldn't find port: %v in %v", intstr.from_string(port_name), go_fmt.Ptr(container)
        )
    )


def get_http_resp_body(resp: HTTPResponse | None) -> str:
    """The first 10 KiB of an answer's body, or "" without an answer.

    Go: pkg/kubelet/lifecycle/handlers.go getHTTPRespBody
    """
    if resp is None:
        return ""
    # Go's string(bytes) keeps bytes that are not UTF-8 (surrogateescape keeps them here).
    return resp.body[:maxRespBodyLength].decode("utf-8", "surrogateescape")


def _join_host_port(host: str, port: int) -> str:
    """``host:port``, an IPv6 host in brackets. Go: ``net.JoinHostPort``."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
