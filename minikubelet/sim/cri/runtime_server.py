"""The fake runtime as the gRPC server kubelet's CRI client calls (ours).

kubelet reaches its runtime through a client, pkg/kubelet/cri/remote/remote_runtime.go, which logs
the calls the runtime refuses. The calls the port routes through that client
([`RemoteRuntimeService`][minikubelet.cri.remote.remote_runtime.RemoteRuntimeService]) arrive here
as requests, and the fake runtime answers each one (its ``answer_…`` methods).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi

if TYPE_CHECKING:
    from minikubelet.sim.cri.fake_runtime import FakeRuntimeService


class RuntimeServer:
    """The requests of kubelet's CRI client, answered by the fake runtime (ours)."""

    def __init__(self, runtime: FakeRuntimeService) -> None:
        self.runtime = runtime

    async def create_container(
        self, req: runtimeapi.CreateContainerRequest
    ) -> runtimeapi.CreateContainerResponse:
        return await self.runtime.answer_create_container(req)

    async def start_container(
        self, req: runtimeapi.StartContainerRequest
    ) -> runtimeapi.StartContainerResponse:
        return await self.runtime.answer_start_container(req)

    async def exec_sync(self, req: runtimeapi.ExecSyncRequest) -> runtimeapi.ExecSyncResponse:
        return await self.runtime.answer_exec_sync(req)
