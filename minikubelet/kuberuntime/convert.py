"""Conversions between kubelet's image types and the CRI's.

Go: pkg/kubelet/kuberuntime/convert.go
"""

from __future__ import annotations

from minikubelet.container.runtime import Annotation, ImageSpec
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi


def to_kube_container_image_spec(image: runtimeapi.Image) -> ImageSpec:
    """Go: pkg/kubelet/kuberuntime/convert.go toKubeContainerImageSpec"""
    annotations: list[Annotation] = []
    if image.spec is not None and len(image.spec.annotations) > 0:
        for k in sorted(image.spec.annotations):
            annotations.append(Annotation(name=k, value=image.spec.annotations[k]))
    return ImageSpec(image=image.id, annotations=annotations)


def to_runtime_api_image_spec(image_spec: ImageSpec) -> runtimeapi.ImageSpec:
    """Go: pkg/kubelet/kuberuntime/convert.go toRuntimeAPIImageSpec"""
    annotations = {a.name: a.value for a in image_spec.annotations}
    return runtimeapi.ImageSpec(image=image_spec.image, annotations=annotations)
