"""kubelet's lifecycle handler runner: what it runs, with which timeout, and the messages of a
failed hook.

Go (v1.21.4 lines): pkg/kubelet/lifecycle/handlers.go L59-84 ((*handlerRunner).Run: the exec
call with a timeout of 0 at L64, the messages at L66, L73, L78-79), L108-132 (runHTTPHandler: the
pod IP as host, port 80 for an empty name at L123, the URL at L131), L134-145 (getHTTPRespBody).
"""

from __future__ import annotations

from minikubelet import go
from minikubelet.container.runtime import ContainerID, PodStatus
from minikubelet.k8s_io.api.core import v1
from minikubelet.lifecycle.handlers import maxRespBodyLength, new_handler_runner
from minikubelet.types.types import HTTPResponse
from tests.kuberuntime.podutil import container, make_pod

CID = ContainerID("fake", "c1")


class Runner:
    """A command runner that records its calls and returns what it is given."""

    def __init__(self, output: bytes = b"", err: Exception | None = None) -> None:
        self.calls: list[tuple[ContainerID, list[str], float]] = []
        self.output, self.err = output, err

    async def run_in_container(self, id, cmd, timeout):
        self.calls.append((id, cmd, timeout))
        return self.output, self.err


class Getter:
    def __init__(self, resp: HTTPResponse | None = None, err: Exception | None = None) -> None:
        self.urls: list[str] = []
        self.resp, self.err = resp, err

    async def get(self, url):
        self.urls.append(url)
        return self.resp, self.err


class Status:
    def __init__(self, ips: list[str]) -> None:
        self.ips = ips

    async def get_pod_status(self, uid, name, namespace):
        return PodStatus(id=uid, name=name, namespace=namespace, ips=self.ips)


def _run(runner, handler, c=None):
    pod = make_pod()
    c = c if c is not None else container("app")
    return go.run(lambda: runner.run(CID, pod, c, handler)), pod


def test_an_exec_hook_runs_with_a_timeout_of_0_and_its_failure_reads_as_kubelets():
    """handlers.go L64 (RunInContainer(..., 0)) and L66 (the message)."""
    commands = Runner(b"db not ready", RuntimeError("command 'sh -c migrate' exited with 2: x"))
    runner = new_handler_runner(Getter(), commands, Status([]))
    handler = v1.Handler(exec=v1.ExecAction(command=["sh", "-c", "migrate"]))
    (msg, err), _ = _run(runner, handler)
    assert commands.calls == [(CID, ["sh", "-c", "migrate"], 0)]
    assert str(err) == "command 'sh -c migrate' exited with 2: x"
    assert msg == (
        'Exec lifecycle hook ([sh -c migrate]) for Container "app" in Pod "web_default(uid-web)" '
        "failed - error: command 'sh -c migrate' exited with 2: x, message: \"db not ready\""
    )


def test_an_exec_hook_that_succeeds_has_no_message():
    runner = new_handler_runner(Getter(), Runner(b"done"), Status([]))
    (msg, err), _ = _run(runner, v1.Handler(exec=v1.ExecAction(command=["true"])))
    assert (msg, err) == ("", None)


def test_an_http_hook_goes_to_the_pod_ip_with_a_double_slash_and_fails_as_kubelets():
    """handlers.go L108-120 (the host is the pod's first IP), L131 ("http://%s/%s" with a path
    that starts with "/"), L73 (the message, with the body read so far)."""
    refused = RuntimeError(
        'Get "http://10.88.0.2:9000//started": dial tcp 10.88.0.2:9000: connect: connection refused'
    )
    getter = Getter(None, refused)
    runner = new_handler_runner(getter, Runner(), Status(["10.88.0.2", "fd00::2"]))
    c = container("web", ports=[v1.ContainerPort(container_port=9000, name="admin")])
    handler = v1.Handler(http_get=v1.HTTPGetAction(path="/started", port="admin"))
    (msg, err), _ = _run(runner, handler, c)
    assert getter.urls == ["http://10.88.0.2:9000//started"]
    assert err is refused
    assert msg == (
        'HTTP lifecycle hook (/started) for Container "web" in Pod "web_default(uid-web)" '
        f'failed - error: {refused}, message: ""'
    )


def test_an_http_answer_of_any_status_is_a_success_and_its_body_is_cut_at_10_KiB():
    """handlers.go L131-132: only Get's error fails the hook; L134-145 read at most 10 KiB."""
    body = b"x" * (maxRespBodyLength + 5)
    getter = Getter(HTTPResponse(status_code=500, body=body))
    runner = new_handler_runner(getter, Runner(), Status(["10.0.0.9"]))
    handler = v1.Handler(http_get=v1.HTTPGetAction(path="/hook", port="", host="::1"))
    (msg, err), _ = _run(runner, handler)
    assert err is None and len(msg) == 10240
    assert getter.urls == ["http://[::1]:80//hook"]  # L121-123: an empty port name is 80


def test_an_http_hook_without_a_pod_ip_or_with_an_unknown_port_fails_before_any_request():
    """handlers.go L115-117 (no IP) and L94-106 (resolvePort: a name no port has)."""
    getter = Getter()
    no_ip = new_handler_runner(getter, Runner(), Status([]))
    handler = v1.Handler(http_get=v1.HTTPGetAction(path="/h", port=8080))
    (msg, err), _ = _run(no_ip, handler)
    assert str(err).startswith("failed to find networking container: ")
    assert msg.startswith('HTTP lifecycle hook (/h) for Container "app"')
    runner = new_handler_runner(getter, Runner(), Status(["10.0.0.9"]))
    bad = v1.Handler(http_get=v1.HTTPGetAction(path="/h", port="metrics"))
    (_, err), _ = _run(runner, bad)
    assert str(err).startswith("couldn't find port: {1 0 metrics} in ")
    (_, err), _ = _run(runner, v1.Handler(http_get=v1.HTTPGetAction(path="/h", port="8081")))
    assert err is None
    assert getter.urls == ["http://10.0.0.9:8081//h"]


def test_a_tcp_socket_hook_cannot_be_run():
    """handlers.go L77-81: the default case, with the handler printed by its String()."""
    runner = new_handler_runner(Getter(), Runner(), Status([]))
    (msg, err), _ = _run(runner, v1.Handler(tcp_socket=v1.TCPSocketAction(port=8080)))
    want = "invalid handler: &Handler{Exec:nil,HTTPGet:nil,TCPSocket:&TCPSocketAction{Port:{0 8080 },Host:,},}"
    assert str(err) == want
    assert msg == f"Cannot run handler: {want}"
