"""Image errors and the ImageManager interface.

Go: pkg/kubelet/images/types.go

The errors are sentinel values, compared with ``is`` (Go: ``==``); their text is the reason a
container waits with (``ErrImagePull``, ``ImagePullBackOff`` …).
"""

from __future__ import annotations

from typing import Any, Protocol

from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi

#: Pulling failed and kubelet is backing off. Go: ErrImagePullBackOff
ErrImagePullBackOff = RuntimeError("ImagePullBackOff")
#: The image could not be inspected. Go: ErrImageInspect
ErrImageInspect = RuntimeError("ImageInspectError")
#: A pull failed. Go: ErrImagePull
ErrImagePull = RuntimeError("ErrImagePull")
#: The image is absent and the pull policy is Never. Go: ErrImageNeverPull
ErrImageNeverPull = RuntimeError("ErrImageNeverPull")
#: The registry answered with an HTTP error. Go: ErrRegistryUnavailable
ErrRegistryUnavailable = RuntimeError("RegistryUnavailable")
#: The image name does not parse. Go: ErrInvalidImageName
ErrInvalidImageName = RuntimeError("InvalidImageName")


class ImageManager(Protocol):
    """Go: pkg/kubelet/images/types.go type ImageManager"""

    async def ensure_image_exists(
        self,
        pod: v1.Pod,
        container: v1.Container,
        pull_secrets: list[Any],
        pod_sandbox_config: runtimeapi.PodSandboxConfig | None,
    ) -> tuple[str, str, BaseException | None]:
        """Make sure the container's image is present: (image ref, message, error).

        Go: pkg/kubelet/images/types.go ImageManager.EnsureImageExists
        """
        ...
