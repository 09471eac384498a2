"""Lifecycle hooks on the fake runtime: how a scenario scripts them, and how the runtime answers
an ``exec`` hook (``ExecSync``) or an ``httpGet`` hook (the pod network). Not a port: kubelet's side,
which calls these, is [`minikubelet.lifecycle.handlers`][minikubelet.lifecycle.handlers].

A hook script is the value of a lifetime's ``postStart`` or ``preStop`` field (see
[`minikubelet.sim.cri.scenario`][minikubelet.sim.cri.scenario]; ``preStopTime: 4s`` is short for
``preStop: {runFor: 4s}``).

A *hook script* says how one run of a hook goes. kubelet runs an ``exec`` hook inside the container
(CRI ``ExecSync``) and an ``httpGet`` hook as an HTTP GET to the pod's IP; the fake runtime
answers both, following the script:

* ``runFor`` — how long the hook runs before it returns: a duration or ``forever`` (default 0 s).
  kubelet v1.21 gives a hook no time-out (``RunInContainer`` is called with a timeout of 0, and
  the CRI client sets no deadline for 0; the HTTP client has none either), so the container's
  start, and its pod worker, wait for all of it: a postStart hook that runs ``forever`` leaves
  the pod's start hanging;
* ``fail`` — how the hook fails when ``runFor`` is over (default: it succeeds): ``exit``, for an
  ``exec`` hook, whose command then exits with ``exitCode`` (default 1; 1 to 255), or
  ``refused``, for an ``httpGet`` hook: nothing listens on the port (``connect: connection
  refused``). An HTTP answer, whatever its status, is a success for kubelet v1.21;
* ``output`` — what an ``exec`` hook's command prints (on stderr), or the body of an ``httpGet``
  hook's answer (default empty); or ``outputBase64``, the same as bytes in base64, to see how
  kubelet shows output that is not UTF-8 (``outputBase64: ZXJyb3I6IP8K`` is ``error: \xff``
  and a newline).

A hook script may also be written as a bare ``forever`` or duration (``{runFor: …}``). For
example ``app: {postStart: {fail: exit, exitCode: 2, output: "db not ready"}}``: the hook's
command exits with 2, kubelet records ``FailedPostStartHook``, kills the container, and the
start fails with ``PostStartHookError``. The fake tells a container's two hooks apart by the
``preStop`` handler kubelet writes on the container (annotation
``io.kubernetes.container.preStopHandler``): a call that is the ``preStop`` handler's (same
command; for HTTP, same path and port) follows ``preStop``, any other ``postStart``. An
``httpGet`` hook's call goes to the pod that has the IP it names, to the running container
created last there (kubelet creates and starts a pod's containers one at a time, each after the
postStart hook of the one before); a call to any other host gets an empty answer, a success.
"""

from __future__ import annotations

import base64
import binascii
import urllib.parse
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from minikubelet.go import select, sleep
from minikubelet.go.duration import format_duration
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import shown
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.cri_api.pkg.apis.services import CRIError
from minikubelet.sim.cri.scenario_values import (
    as_mapping,
    check_keys,
    parse_duration,
    scenario_error,
)
from minikubelet.types.types import HTTPResponse

if TYPE_CHECKING:
    from minikubelet.k8s_io.api.core import v1
    from minikubelet.sim.cri.fake_records import Container

#: How a hook may fail (``fail``): the kind → the handler it is for.
HOOK_FAILURES = {"exit": "exec", "refused": "httpGet"}


@dataclass(frozen=True, slots=True)
class HookScript:
    """How one run of a lifecycle hook goes (see the module docstring)."""

    #: Seconds it runs before it returns; None: it never returns.
    run_for: float | None = 0.0
    #: "" (it succeeds), or a kind of [`HOOK_FAILURES`][].
    fail: str = ""
    #: The exit code of an ``exec`` hook that fails with ``exit``.
    exit_code: int = 1
    #: What the command prints (stderr), or the HTTP answer's body.
    output: bytes = b""
    #: Where the script is (``pod default/web: … container "app": postStart``), for errors
    #: found when the hook runs.
    where: str = field(default="", compare=False)


def parse_hook_script(value: Any, where: str) -> HookScript:
    """A hook script: a mapping, ``forever``, or a duration (see the module docstring)."""
    if value == "forever":
        return HookScript(run_for=None, where=where)
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return HookScript(run_for=parse_duration(value, where), where=where)
    m = as_mapping(value, where)
    check_keys(m, ("runFor", "fail", "exitCode", "output", "outputBase64"), where)
    run_for_raw = m.get("runFor", 0)
    run_for = (
        None if run_for_raw == "forever" else parse_duration(run_for_raw, f"{where}: field runFor")
    )
    fail = m.get("fail", "")
    if fail not in ("", *HOOK_FAILURES):
        raise scenario_error(
            where,
            f"field fail: unknown kind of hook failure {shown(fail)} (expected exit, for an "
            "exec hook, or refused, for an httpGet hook)",
            f"字段 fail：未知的钩子失败方式 {shown(fail)}（应为 exit（用于 exec 钩子）"
            "或 refused（用于 httpGet 钩子））",
        )
    exit_code = m.get("exitCode", 1)
    if isinstance(exit_code, bool) or not isinstance(exit_code, int) or not 1 <= exit_code <= 255:
        raise scenario_error(
            where,
            f"field exitCode: expected 1 to 255 (a failed command), got {shown(exit_code)}",
            f"字段 exitCode：应在 1 到 255 之间（失败的命令），实际为 {shown(exit_code)}",
        )
    if "exitCode" in m and fail != "exit":
        raise scenario_error(
            where,
            "field exitCode: only a hook that fails with exit has an exit code (add fail: exit)",
            "字段 exitCode：只有以 exit 失败的钩子才有退出码（请加上 fail: exit）",
        )
    text = m.get("output", "")
    if not isinstance(text, str):
        raise scenario_error(
            where,
            f"field output: expected a string, got {shown(text)}",
            f"字段 output：应为字符串，实际为 {shown(text)}",
        )
    output = text.encode()
    if "outputBase64" in m:
        output = _base64_output(m["outputBase64"], "output" in m, where)
    return HookScript(run_for=run_for, fail=fail, exit_code=exit_code, output=output, where=where)


def _base64_output(value: Any, with_output: bool, where: str) -> bytes:
    """The bytes of an ``outputBase64`` field (any bytes, UTF-8 or not)."""
    if with_output:
        raise scenario_error(
            where,
            "field outputBase64: give output or outputBase64, not both",
            "字段 outputBase64：output 与 outputBase64 只能给出一个",
        )
    try:
        if not isinstance(value, str):
            raise ValueError
        return base64.b64decode(value, validate=True)
    except (ValueError, binascii.Error):
        raise scenario_error(
            where,
            f"field outputBase64: expected base64 text, got {shown(value)}",
            f"字段 outputBase64：应为 base64 文本，实际为 {shown(value)}",
        ) from None


async def run_exec_hook(
    c: Container, cmd: list[str], timeout: float
) -> runtimeapi.ExecSyncResponse:
    """Run an exec into running container ``c`` as its script says: the runtime's answer.

    It is the ``preStop`` hook if ``cmd`` is the command of the container's preStop handler,
    else the ``postStart`` hook. ``timeout`` 0 waits as long as the hook runs, as containerd
    does; a positive ``timeout`` cuts a longer hook with containerd's error.
    """
    pre_stop = _pre_stop_handler(c)
    hook = "postStart"
    if pre_stop is not None and pre_stop.exec is not None and pre_stop.exec.command == cmd:
        hook = "preStop"
    script = c.lifetime.hook(hook)
    if timeout > 0 and (script.run_for is None or script.run_for > timeout):
        await sleep(timeout)
        raise CRIError(
            "Unknown",
            f"failed to exec in container: timeout {format_duration(timeout)} exceeded: "
            "context deadline exceeded",
        )
    await _take(script)
    if script.fail == "refused":
        raise CRIError("InvalidArgument", _wrong_kind(script, "exec"))
    if script.fail == "exit":
        # kubelet's CRI client turns the exit code into an error (remote_runtime.py).
        return runtimeapi.ExecSyncResponse(stderr=script.output, exit_code=script.exit_code)
    return runtimeapi.ExecSyncResponse(stdout=script.output)


async def answer_http_get(
    url: str, running: list[Container]
) -> tuple[HTTPResponse | None, Exception | None]:
    """What an HTTP GET to a pod gets, ``running`` being the pod's running containers: the
    ``preStop`` script of the container whose preStop handler has the URL's path and port, or
    else the ``postStart`` script of the container created last."""
    u = urllib.parse.urlsplit(url)
    port = u.port or 80
    # kubelet writes "http://host:port/" + path, and the path starts with "/".
    path = u.path[1:] if u.path.startswith("//") else u.path
    refused = RuntimeError(f'Get "{url}": dial tcp {u.netloc}: connect: connection refused')
    if not running:
        return None, refused
    script: HookScript | None = None
    for c in running:
        handler = _pre_stop_handler(c)
        if handler is not None and handler.http_get is not None:
            if handler.http_get.path == path and _handler_port(c, handler) == port:
                script = c.lifetime.hook("preStop")
                break
    if script is None:
        script = max(running, key=lambda c: c.created_at).lifetime.hook("postStart")
    await _take(script)
    if script.fail == "exit":
        return None, RuntimeError(_wrong_kind(script, "httpGet"))
    if script.fail == "refused":
        return None, refused
    return HTTPResponse(status_code=200, body=script.output), None


def _pre_stop_handler(c: Container) -> v1.Handler | None:
    """The preStop handler kubelet wrote on the container (its annotation), if any."""
    from minikubelet.kuberuntime.labels import get_container_info_from_annotations

    return get_container_info_from_annotations(c.config.annotations).pre_stop_handler


def _handler_port(c: Container, handler: v1.Handler) -> int:
    """The port number of an httpGet handler, a named port looked up in the container's ports
    (as kubelet wrote them on the container)."""
    from minikubelet.kuberuntime.labels import get_container_info_from_annotations

    assert handler.http_get is not None
    port = handler.http_get.port
    if isinstance(port, int):
        return port
    if port == "":
        return 80
    if port.isdigit():
        return int(port)
    for p in get_container_info_from_annotations(c.config.annotations).container_ports:
        if p.name == port:
            return p.container_port
    return -1


async def _take(script: HookScript) -> None:
    """Wait as long as a hook runs: its ``runFor``, or for ever."""
    if script.run_for is None:
        await select()  # never returns, as a hook that hangs
    else:
        await sleep(script.run_for)


def _wrong_kind(script: HookScript, handler: str) -> str:
    """The error of a hook whose script fails in a way its handler cannot."""
    wanted = next(k for k, h in HOOK_FAILURES.items() if h == handler)
    err = scenario_error(
        script.where,
        f"field fail: {script.fail} is for an {HOOK_FAILURES[script.fail]} hook, and this is "
        f"an {handler} hook (fail: {wanted})",
        f"字段 fail：{script.fail} 用于 {HOOK_FAILURES[script.fail]} 钩子，而这是 {handler} 钩子"
        f"（应为 fail: {wanted}）",
    )
    return str(err)
