"""The runtime manager as an image service: pull, look up, list, remove images through the CRI.

Go: pkg/kubelet/kuberuntime/kuberuntime_image.go

The methods are in [`ImageMethods`][], which
[`KubeGenericRuntimeManager`][minikubelet.kuberuntime.kuberuntime_manager.KubeGenericRuntimeManager]
inherits. Those returning ``(T, error)`` in Go return ``T`` and raise; ``RemoveImage`` returns its
error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minikubelet.container.runtime import Image, ImageSpec
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kuberuntime.convert import to_kube_container_image_spec, to_runtime_api_image_spec

if TYPE_CHECKING:
    from minikubelet.kuberuntime.kuberuntime_manager import KubeGenericRuntimeManager


class ImageMethods:
    """The methods of ``kubeGenericRuntimeManager`` defined in kuberuntime_image.go."""

    async def pull_image(
        self: KubeGenericRuntimeManager,
        image: ImageSpec,
        pull_secrets: list[Any],
        pod_sandbox_config: runtimeapi.PodSandboxConfig | None,
    ) -> str:
        """Pull an image through the CRI; return its reference.

        Go: pkg/kubelet/kuberuntime/kuberuntime_image.go (*kubeGenericRuntimeManager).PullImage

        Go parses the image name and looks up credentials for its registry in the pull secrets
        and the node's keyring, trying each; the port has no credentials and pulls without.
        """
        img = image.image
        img_spec = to_runtime_api_image_spec(image)

        klog.v(3).info_s("Pulling image without credentials", image=img)

        try:
            image_ref = await self.image_service.pull_image(img_spec, None, pod_sandbox_config)
        except Exception as err:
            klog.error_s(err, "Failed to pull image", image=img)
            raise

        return image_ref

    async def get_image_ref(self: KubeGenericRuntimeManager, image: ImageSpec) -> str:
        """The ID of an image already present, or ``""``.

        Go: pkg/kubelet/kuberuntime/kuberuntime_image.go (*kubeGenericRuntimeManager).GetImageRef
        """
        try:
            status = await self.image_service.image_status(to_runtime_api_image_spec(image))
        except Exception as err:
            klog.error_s(err, "Failed to get image status", image=image.image)
            raise
        if status is None:
            return ""
        return status.id

    async def list_images(self: KubeGenericRuntimeManager) -> list[Image]:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_image.go (*kubeGenericRuntimeManager).ListImages"""
        try:
            all_images = await self.image_service.list_images(None)
        except Exception as err:
            klog.error_s(err, "Failed to list images")
            raise

        return [
            Image(
                id=img.id,
                size=img.size,
                repo_tags=img.repo_tags,
                repo_digests=img.repo_digests,
                spec=to_kube_container_image_spec(img),
            )
            for img in all_images
        ]

    async def remove_image(self: KubeGenericRuntimeManager, image: ImageSpec) -> Exception | None:
        """Go: pkg/kubelet/kuberuntime/kuberuntime_image.go (*kubeGenericRuntimeManager).RemoveImage"""
        try:
            await self.image_service.remove_image(runtimeapi.ImageSpec(image=image.image))
        except Exception as err:
            klog.error_s(err, "Failed to remove image", image=image.image)
            return err

        return None
