"""kubelet's gRPC client of the container runtime: each CRI call, its log lines and errors.

Go: pkg/kubelet/cri/remote/remote_runtime.go

Ported: ``CreateContainer`` and ``StartContainer``, which log a call the runtime refuses
(``CreateContainer in sandbox from runtime service failed``: a dead sandbox, a missing image), and
``ExecSync`` (kubelet's exec hooks use it), which also turns a non-zero exit code into an error,
``command 'sh -c …' exited with 2: <stderr>``. The fake runtime
([`minikubelet.sim.cri.fake_runtime`][minikubelet.sim.cri.fake_runtime]) answers the requests as
the runtime would, and serves kubelet's other CRI calls itself.

Not modelled: the calls' deadlines (Go's ``runtime-request-timeout``, plus an exec's time-out);
they are logged at ``-v 10`` as Go logs them. The only exec kubelet makes here is a hook's, with a
time-out of 0, which sets no deadline.
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

    async def create_container(
        self, req: runtimeapi.CreateContainerRequest
    ) -> runtimeapi.CreateContainerResponse:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go RuntimeServiceClient.CreateContainer"""
        ...

    async def start_container(
        self, req: runtimeapi.StartContainerRequest
    ) -> runtimeapi.StartContainerResponse:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go RuntimeServiceClient.StartContainer"""
        ...

    async def exec_sync(self, req: runtimeapi.ExecSyncRequest) -> runtimeapi.ExecSyncResponse:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/runtime/v1alpha2/api.pb.go RuntimeServiceClient.ExecSync"""
        ...


@dataclass(eq=False)
class RemoteRuntimeService:
    """Go: pkg/kubelet/cri/remote/remote_runtime.go type remoteRuntimeService"""

    runtime_client: RuntimeServiceClient
    #: Seconds each call may take: kubelet's ``--runtime-request-timeout`` (2m by default), which
    #: it dials the runtime with. Logged, not enforced (see the module).
    timeout: float = 120.0

    async def create_container(
        self,
        pod_sandbox_id: str,
        config: runtimeapi.ContainerConfig,
        sandbox_config: runtimeapi.PodSandboxConfig,
    ) -> str:
        """Create a container in the sandbox; its ID. Raises the runtime's error, logged.

        Go: pkg/kubelet/cri/remote/remote_runtime.go (*remoteRuntimeService).CreateContainer
        """
        klog.v(10).info_s(
            "[RemoteRuntimeService] CreateContainer",
            podSandboxID=pod_sandbox_id,
            timeout=go_fmt.Duration(self.timeout),
        )
        req = runtimeapi.CreateContainerRequest(
            pod_sandbox_id=pod_sandbox_id, config=config, sandbox_config=sandbox_config
        )
        try:
            resp = await self.runtime_client.create_container(req)
        except CRIError as err:
            klog.error_s(
                err,
                "CreateContainer in sandbox from runtime service failed",
                podSandboxID=pod_sandbox_id,
            )
            raise
        klog.v(10).info_s(
            "[RemoteRuntimeService] CreateContainer",
            podSandboxID=pod_sandbox_id,
            containerID=resp.container_id,
        )
        # Go omitted: if resp.ContainerId == "" { -- the fake runtime always answers with an ID
        return resp.container_id

    async def start_container(self, container_id: str) -> None:
        """Start a created container. Raises the runtime's error, logged.

        Go: pkg/kubelet/cri/remote/remote_runtime.go (*remoteRuntimeService).StartContainer
        """
        klog.v(10).info_s(
            "[RemoteRuntimeService] StartContainer",
            containerID=container_id,
            timeout=go_fmt.Duration(self.timeout),
        )
        try:
            await self.runtime_client.start_container(
                runtimeapi.StartContainerRequest(container_id=container_id)
            )
        except CRIError as err:
            klog.error_s(
                err, "StartContainer from runtime service failed", containerID=container_id
            )
            raise
        klog.v(10).info_s(
            "[RemoteRuntimeService] StartContainer Response", containerID=container_id
        )

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
