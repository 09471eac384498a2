"""The two CRI services kubelet calls: one for pods and containers, one for images.

Go: staging/src/k8s.io/cri-api/pkg/apis/services.go

Each method is a gRPC call in Go, which blocks, so each is ``async def`` here. Go returns
``(T, error)``; here a call returns ``T`` and **raises** on failure — a [`CRIError`][], shaped
like the gRPC status errors Go's client returns (``rpc error: code = … desc = …``). Only the
methods on the pod-creation path are listed: of exec, attach and port-forward only ``ExecSync``
(lifecycle hooks run through it); no stats or log reopening.
"""

from __future__ import annotations

from typing import Protocol

from minikubelet.k8s_io.cri_api.pkg.apis.runtime.v1alpha2.api_pb import (
    AuthConfig,
    Container,
    ContainerConfig,
    ContainerFilter,
    ContainerStatus,
    Image,
    ImageFilter,
    ImageSpec,
    PodSandbox,
    PodSandboxConfig,
    PodSandboxFilter,
    PodSandboxStatus,
    RuntimeStatus,
    VersionResponse,
)


class CRIError(Exception):
    """A failed CRI call: a gRPC status code and its description.

    ``str(err)`` is what Go's ``err.Error()`` prints for a gRPC status error,
    ``rpc error: code = NotFound desc = container "abc" not found``; ``desc`` is what Go's
    ``grpcstatus.FromError(err)`` then ``s.Message()`` gives (kubelet puts it in events).
    """

    def __init__(self, code: str, desc: str) -> None:
        super().__init__(f"rpc error: code = {code} desc = {desc}")
        self.code = code
        self.desc = desc


def status_message(err: BaseException) -> str:
    """The message of a gRPC status error, or the whole text of any other error.

    Go's ``s, _ := grpcstatus.FromError(err); s.Message()`` (google.golang.org/grpc/status).
    """
    if isinstance(err, CRIError):
        return err.desc
    return str(err)


class RuntimeVersioner(Protocol):
    """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go type RuntimeVersioner"""

    async def version(self, api_version: str) -> VersionResponse:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go RuntimeVersioner.Version"""
        ...


class ContainerManager(Protocol):
    """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go type ContainerManager"""

    async def create_container(
        self, pod_sandbox_id: str, config: ContainerConfig, sandbox_config: PodSandboxConfig
    ) -> str:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go ContainerManager.CreateContainer"""
        ...

    async def start_container(self, container_id: str) -> None:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go ContainerManager.StartContainer"""
        ...

    async def stop_container(self, container_id: str, timeout: int) -> None:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go ContainerManager.StopContainer"""
        ...

    async def remove_container(self, container_id: str) -> None:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go ContainerManager.RemoveContainer"""
        ...

    async def list_containers(self, filter: ContainerFilter | None) -> list[Container]:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go ContainerManager.ListContainers"""
        ...

    async def container_status(self, container_id: str) -> ContainerStatus:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go ContainerManager.ContainerStatus"""
        ...

    async def exec_sync(
        self, container_id: str, cmd: list[str], timeout: float
    ) -> tuple[bytes, bytes, Exception | None]:
        """Run ``cmd`` in the container and wait for it (at most ``timeout`` seconds; 0: no
        limit): ``(stdout, stderr, err)``. A command that exits non-zero comes back with its
        output and an exit error, a call that fails with that error (and no output), as Go's
        client returns them; unlike the other calls here, this one does not raise.

        Go: staging/src/k8s.io/cri-api/pkg/apis/services.go ContainerManager.ExecSync
        """
        ...


class PodSandboxManager(Protocol):
    """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go type PodSandboxManager"""

    async def run_pod_sandbox(self, config: PodSandboxConfig, runtime_handler: str) -> str:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go PodSandboxManager.RunPodSandbox"""
        ...

    async def stop_pod_sandbox(self, pod_sandbox_id: str) -> None:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go PodSandboxManager.StopPodSandbox"""
        ...

    async def remove_pod_sandbox(self, pod_sandbox_id: str) -> None:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go PodSandboxManager.RemovePodSandbox"""
        ...

    async def pod_sandbox_status(self, pod_sandbox_id: str) -> PodSandboxStatus:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go PodSandboxManager.PodSandboxStatus"""
        ...

    async def list_pod_sandbox(self, filter: PodSandboxFilter | None) -> list[PodSandbox]:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go PodSandboxManager.ListPodSandbox"""
        ...


class RuntimeService(RuntimeVersioner, ContainerManager, PodSandboxManager, Protocol):
    """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go type RuntimeService"""

    async def status(self) -> RuntimeStatus:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go RuntimeService.Status"""
        ...


class ImageManagerService(Protocol):
    """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go type ImageManagerService"""

    async def list_images(self, filter: ImageFilter | None) -> list[Image]:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go ImageManagerService.ListImages"""
        ...

    async def image_status(self, image: ImageSpec) -> Image | None:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go ImageManagerService.ImageStatus"""
        ...

    async def pull_image(
        self, image: ImageSpec, auth: AuthConfig | None, pod_sandbox_config: PodSandboxConfig | None
    ) -> str:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go ImageManagerService.PullImage"""
        ...

    async def remove_image(self, image: ImageSpec) -> None:
        """Go: staging/src/k8s.io/cri-api/pkg/apis/services.go ImageManagerService.RemoveImage"""
        ...
