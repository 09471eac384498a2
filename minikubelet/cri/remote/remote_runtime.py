"""kubelet's gRPC client of the container runtime: each CRI call, its log lines and errors.

Go: pkg/kubelet/cri/remote/remote_runtime.go

Only ``ExecSync`` is ported (kubelet's exec hooks use it): the client sends the request, logs a
call that fails (``ExecSync cmd from runtime service failed``) and turns a non-zero exit code into
an error, ``command 'sh -c …' exited with 2: <stderr>``. The fake runtime
([`minikubelet.sim.cri.fake_runtime`][minikubelet.sim.cri.fake_runtime]) answers the request as
the runtime would, and serves kubelet's other CRI calls itself.

Not modelled: the call's deadline (Go's ``runtime-request-timeout`` plus the exec's time-out). The
only exec kubelet makes here is a hook's, with a time-out of 0, which sets no deadline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from minikubelet.go import fmt as go_fmt
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.cri_api.pkg.apis.services import CRIError
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.probe.exec import errors as exec_errors
from minikubelet.k8s_io.utils.exec.exec import CodeExitError


class RuntimeServiceClient(Protocol):
    """The runtime's end of the gRPC calls (here: the fake runtime's answers).

    Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go type RuntimeServiceClient
    """

    async def exec_sync(self, req: runtimeapi.ExecSyncRequest) -> runtimeapi.ExecSyncResponse:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go RuntimeServiceClient.ExecSync"""
        ...


@dataclass(eq=False)
class RemoteRuntimeService:
    """Go: pkg/kubelet/cri/remote/remote_runtime.go type remoteRuntimeService"""

    runtime_client: RuntimeServiceClient

    async def exec_sync(
        self, container_id: str, cmd: list[str], timeout: float
    ) -> tuple[bytes, bytes, Exception | None]:
        """Run ``cmd`` in the container and wait: its stdout, its stderr and the error (a
        failed call, or an exit code other than 0).

        Go: pkg/kubelet/cri/remote/remote_runtime.go (*remoteRuntimeService).ExecSync
        """
        klog.v(10).info_s(
            "[RemoteRuntimeService] ExecSync",
            containerID=container_id,
            timeout=go_fmt.Duration(timeout),
        )
        timeout_seconds = int(timeout)
        req = runtimeapi.ExecSyncRequest(
            container_id=container_id, cmd=cmd, timeout=timeout_seconds
        )
        try:
            resp = await self.runtime_client.exec_sync(req)
        except CRIError as call_err:
            klog.error_s(
                call_err,
                "ExecSync cmd from runtime service failed",
                containerID=container_id,
                cmd=cmd,
            )
            err: Exception = call_err
            if call_err.code == "DeadlineExceeded":
                err = exec_errors.new_timeout_error(
                    RuntimeError(go_fmt.sprintf("command %q timed out", " ".join(cmd))), timeout
                )
            return b"", b"", err

        klog.v(10).info_s(
            "[RemoteRuntimeService] ExecSync Response",
            containerID=container_id,
            exitCode=resp.exit_code,
        )
        exit_err: Exception | None = None
        if resp.exit_code != 0:
            exit_err = CodeExitError(
                RuntimeError(
                    go_fmt.sprintf(
                        "command '%s' exited with %d: %s",
                        " ".join(cmd),
                        resp.exit_code,
                        resp.stderr,
                    )
                ),
                resp.exit_code,
            )
        return resp.stdout, resp.stderr, exit_err
