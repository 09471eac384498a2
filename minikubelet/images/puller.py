"""Image pullers: one pull at a time (serial, kubelet's default) or each in its own goroutine.

Go: pkg/kubelet/images/puller.go

The caller hands over a channel and waits on it for the [`PullResult`][].
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from minikubelet.container.runtime import ImageService, ImageSpec
from minikubelet.go import Chan, Runtime, Second, SendChan, current_runtime, go
from minikubelet.k8s_io.apimachinery.pkg.util.wait.wait import NEVER_STOP, until
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi


@dataclass(slots=True)
class PullResult:
    """Go: pkg/kubelet/images/puller.go type pullResult"""

    image_ref: str
    err: BaseException | None


class ImagePuller(Protocol):
    """Go: pkg/kubelet/images/puller.go type imagePuller"""

    async def pull_image(
        self,
        spec: ImageSpec,
        pull_secrets: list[Any],
        pull_chan: SendChan[PullResult],
        pod_sandbox_config: runtimeapi.PodSandboxConfig | None,
    ) -> None:
        """Go: pkg/kubelet/images/puller.go imagePuller.pullImage"""
        ...


async def _pull(
    image_service: ImageService,
    spec: ImageSpec,
    pull_secrets: list[Any],
    pod_sandbox_config: runtimeapi.PodSandboxConfig | None,
) -> PullResult:
    """``imageRef, err := imageService.PullImage(…)`` as one value."""
    try:
        image_ref = await image_service.pull_image(spec, pull_secrets, pod_sandbox_config)
    except Exception as err:
        return PullResult(image_ref="", err=err)
    return PullResult(image_ref=image_ref, err=None)


class ParallelImagePuller:
    """Go: pkg/kubelet/images/puller.go type parallelImagePuller"""

    def __init__(self, image_service: ImageService) -> None:
        """Go: pkg/kubelet/images/puller.go newParallelImagePuller"""
        self.image_service = image_service

    async def pull_image(
        self,
        spec: ImageSpec,
        pull_secrets: list[Any],
        pull_chan: SendChan[PullResult],
        pod_sandbox_config: runtimeapi.PodSandboxConfig | None,
    ) -> None:
        """Go: pkg/kubelet/images/puller.go (*parallelImagePuller).pullImage"""

        async def pull() -> None:
            result = await _pull(self.image_service, spec, pull_secrets, pod_sandbox_config)
            await pull_chan.send(result)

        go(pull, name="parallelImagePuller.pullImage")


#: The serial puller's queue: the eleventh waiting pull blocks the pod worker that asks.
maxImagePullRequests = 10


@dataclass(slots=True)
class ImagePullRequest:
    """Go: pkg/kubelet/images/puller.go type imagePullRequest"""

    spec: ImageSpec
    pull_secrets: list[Any]
    pull_chan: SendChan[PullResult]
    pod_sandbox_config: runtimeapi.PodSandboxConfig | None


class SerialImagePuller:
    """Go: pkg/kubelet/images/puller.go type serialImagePuller"""

    def __init__(self, image_service: ImageService) -> None:
        """Go: pkg/kubelet/images/puller.go newSerialImagePuller

        Go starts the goroutine that pulls (``go wait.Until(processImagePullRequests, …)``)
        here. The port starts it on the first pull instead, so that a puller (and the runtime
        manager holding it) can be made before ``go.run`` starts a runtime.
        """
        self.image_service = image_service
        self.pull_requests: Chan[ImagePullRequest] = Chan(
            maxImagePullRequests, name="serialImagePuller.pullRequests"
        )
        self._started_in: Runtime | None = None  # the run whose goroutine pulls

    async def pull_image(
        self,
        spec: ImageSpec,
        pull_secrets: list[Any],
        pull_chan: SendChan[PullResult],
        pod_sandbox_config: runtimeapi.PodSandboxConfig | None,
    ) -> None:
        """Queue a pull (blocks while ``maxImagePullRequests`` are queued).

        Go: pkg/kubelet/images/puller.go (*serialImagePuller).pullImage
        """
        if self._started_in is not current_runtime():  # see __init__
            self._started_in = current_runtime()
            go(
                until,
                self.process_image_pull_requests,
                Second,
                NEVER_STOP,
                name="serialImagePuller.processImagePullRequests",
            )
        await self.pull_requests.send(
            ImagePullRequest(
                spec=spec,
                pull_secrets=pull_secrets,
                pull_chan=pull_chan,
                pod_sandbox_config=pod_sandbox_config,
            )
        )

    async def process_image_pull_requests(self) -> None:
        """Pull each queued image in turn and send the result to its requester.

        Go: pkg/kubelet/images/puller.go (*serialImagePuller).processImagePullRequests
        """
        async for pull_request in self.pull_requests:
            result = await _pull(
                self.image_service,
                pull_request.spec,
                pull_request.pull_secrets,
                pull_request.pod_sandbox_config,
            )
            await pull_request.pull_chan.send(result)
