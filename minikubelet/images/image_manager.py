"""Make sure a container's image is on the node: by its pull policy, with a back-off after
failed pulls, recording the ``Pulling``/``Pulled``/``Failed``/``BackOff`` events.

Go: pkg/kubelet/images/image_manager.go

``ensure_image_exists`` returns Go's ``(imageRef, message, error)`` as a tuple, the error last:
the error is a sentinel from [`minikubelet.images.types`][minikubelet.images.types] (its text
becomes the container's waiting reason, e.g. ``ErrImagePull`` then ``ImagePullBackOff``) and the
message goes next to it.
"""

from __future__ import annotations

import re
from typing import Any

from minikubelet import events
from minikubelet.container.ref import generate_container_ref
from minikubelet.container.runtime import Annotation, ImageService, ImageSpec
from minikubelet.go import Chan, now
from minikubelet.go.duration import format_duration
from minikubelet.images.puller import (
    ImagePuller,
    ParallelImagePuller,
    PullResult,
    SerialImagePuller,
)
from minikubelet.images.types import (
    ErrImageInspect,
    ErrImageNeverPull,
    ErrImagePull,
    ErrImagePullBackOff,
    ErrInvalidImageName,
    ErrRegistryUnavailable,
)
from minikubelet.k8s_io.api.core import v1
from minikubelet.k8s_io.api.core.v1 import ObjectReference
from minikubelet.k8s_io.client_go.tools.record.event import (
    EventRecorder,
    EventTypeNormal,
    EventTypeWarning,
)
from minikubelet.k8s_io.client_go.util.flowcontrol.backoff import Backoff
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.klog.v2 import klog


class ImageManagerImpl:
    """Go: pkg/kubelet/images/image_manager.go type imageManager"""

    def __init__(
        self,
        recorder: EventRecorder,
        image_service: ImageService,
        back_off: Backoff,
        puller: ImagePuller,
    ) -> None:
        self.recorder = recorder
        self.image_service = image_service
        self.back_off = back_off
        self.puller = puller

    def log_it(
        self,
        ref: ObjectReference | None,
        eventtype: str,
        event: str,
        prefix: str,
        msg: str,
        warning: bool,
    ) -> None:
        """Record an event about ``ref``, or just log when there is no reference.

        Go: pkg/kubelet/images/image_manager.go (*imageManager).logIt

        Go passes the log function (``klog.Warning`` or ``klog.Info``); ``warning`` says which.
        """
        if ref is not None:
            self.recorder.eventf(ref, eventtype, event, msg)
        elif warning:
            klog.error_s(None, f"{prefix} {msg}")
        else:
            klog.info_s(f"{prefix} {msg}")

    async def ensure_image_exists(
        self,
        pod: v1.Pod,
        container: v1.Container,
        pull_secrets: list[Any],
        pod_sandbox_config: runtimeapi.PodSandboxConfig | None,
    ) -> tuple[str, str, BaseException | None]:
        """Pull the container's image if its pull policy says so; (image ref, message, error).

        Go: pkg/kubelet/images/image_manager.go (*imageManager).EnsureImageExists
        """
        # Go: logPrefix := fmt.Sprintf("%s/%s/%s", pod.Namespace, pod.Name, container.Image)
        log_prefix = f"{pod.metadata.namespace}/{pod.metadata.name}/{container.image}"
        # Go: ref, err := kubecontainer.GenerateContainerRef(pod, container)
        ref = generate_container_ref(pod, container)

        # Go: image, err := applyDefaultImageTag(container.Image)
        try:
            image = apply_default_image_tag(container.image)
        except ValueError as err:
            msg = f'Failed to apply default image tag "{container.image}": {err}'
            self.log_it(ref, EventTypeWarning, events.FailedToInspectImage, log_prefix, msg, True)
            return "", msg, ErrInvalidImageName

        # Go: var podAnnotations []kubecontainer.Annotation
        pod_annotations = [
            Annotation(name=k, value=v) for k, v in (pod.metadata.annotations or {}).items()
        ]

        # Go: spec := kubecontainer.ImageSpec{
        spec = ImageSpec(image=image, annotations=pod_annotations)
        # Go: imageRef, err := m.imageService.GetImageRef(spec)
        try:
            image_ref = await self.image_service.get_image_ref(spec)
        except Exception as err:
            msg = f'Failed to inspect image "{container.image}": {err}'
            self.log_it(ref, EventTypeWarning, events.FailedToInspectImage, log_prefix, msg, True)
            return "", msg, ErrImageInspect

        # Go: present := imageRef != ""
        present = image_ref != ""
        # Go: if !shouldPullImage(container, present) {
        if not should_pull_image(container, present):
            if present:
                msg = f'Container image "{container.image}" already present on machine'
                self.log_it(ref, EventTypeNormal, events.PulledImage, log_prefix, msg, False)
                return image_ref, "", None
            msg = f'Container image "{container.image}" is not present with pull policy of Never'
            self.log_it(
                ref, EventTypeWarning, events.ErrImageNeverPullPolicy, log_prefix, msg, True
            )
            return "", msg, ErrImageNeverPull

        # Go: backOffKey := fmt.Sprintf("%s_%s", pod.UID, container.Image)
        back_off_key = f"{pod.metadata.uid}_{container.image}"
        # Go: if m.backOff.IsInBackOffSinceUpdate(backOffKey, m.backOff.Clock.Now()) {
        if self.back_off.is_in_back_off_since_update(back_off_key, self.back_off.clock.now()):
            msg = f'Back-off pulling image "{container.image}"'
            self.log_it(ref, EventTypeNormal, events.BackOffPullImage, log_prefix, msg, False)
            return "", msg, ErrImagePullBackOff
        # Go: m.logIt(ref, v1.EventTypeNormal, events.PullingImage
        self.log_it(
            ref,
            EventTypeNormal,
            events.PullingImage,
            log_prefix,
            f'Pulling image "{container.image}"',
            False,
        )
        # Go: startTime := time.Now()
        start_time = now()
        # Go: pullChan := make(chan pullResult)
        pull_chan: Chan[PullResult] = Chan(name="imageManager.pullChan")
        # Go: m.puller.pullImage(spec, pullSecrets, pullChan, podSandboxConfig)
        await self.puller.pull_image(spec, pull_secrets, pull_chan, pod_sandbox_config)
        # Go: imagePullResult := <-pullChan
        image_pull_result, _ = await pull_chan.recv()
        assert image_pull_result is not None
        # Go: if imagePullResult.err != nil {
        if image_pull_result.err is not None:
            self.log_it(
                ref,
                EventTypeWarning,
                events.FailedToPullImage,
                log_prefix,
                f'Failed to pull image "{container.image}": {image_pull_result.err}',
                True,
            )
            self.back_off.next(back_off_key, self.back_off.clock.now())
            if image_pull_result.err is ErrRegistryUnavailable:
                msg = (
                    f"image pull failed for {container.image} because the registry is unavailable."
                )
                return "", msg, image_pull_result.err

            return "", str(image_pull_result.err), ErrImagePull
        # Go: m.logIt(ref, v1.EventTypeNormal, events.PulledImage, logPrefix, fmt.Sprintf("Successfully
        self.log_it(
            ref,
            EventTypeNormal,
            events.PulledImage,
            log_prefix,
            f'Successfully pulled image "{container.image}" in '
            f"{format_duration(now() - start_time)}",
            False,
        )
        # Go: m.backOff.GC()
        self.back_off.gc()
        # Go: return imagePullResult.imageRef, "", nil
        return image_pull_result.image_ref, "", None


def new_image_manager(
    recorder: EventRecorder,
    image_service: ImageService,
    image_back_off: Backoff,
    serialized: bool,
    qps: float = 0.0,
    burst: int = 0,
) -> ImageManagerImpl:
    """Go: pkg/kubelet/images/image_manager.go NewImageManager

    Go first wraps ``image_service`` in a token-bucket throttle when ``qps`` > 0
    (``throttleImagePulling``, helpers.go); the port does not throttle pulls.
    """
    puller: ImagePuller
    if serialized:
        puller = SerialImagePuller(image_service)
    else:
        puller = ParallelImagePuller(image_service)
    return ImageManagerImpl(
        recorder=recorder, image_service=image_service, back_off=image_back_off, puller=puller
    )


def should_pull_image(container: v1.Container, image_present: bool) -> bool:
    """Whether to pull, from the pull policy and whether the image is already here.

    Go: pkg/kubelet/images/image_manager.go shouldPullImage
    """
    # Go: if container.ImagePullPolicy == v1.PullNever {
    if container.image_pull_policy == v1.PullNever:
        return False

    return container.image_pull_policy == v1.PullAlways or (
        container.image_pull_policy == v1.PullIfNotPresent and not image_present
    )


# The grammar of docker/distribution/reference (reference.ParseNormalizedNamed), simplified:
# [domain[:port]/]path-component[/path-component…][:tag][@digest].
_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*"
_DOMAIN = r"(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?)"
_TAG = r"[\w][\w.-]{0,127}"
_DIGEST = r"[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}"
_REFERENCE = re.compile(
    rf"^(?P<name>(?:{_DOMAIN}/)?{_COMPONENT}(?:/{_COMPONENT})*)"
    rf"(?::(?P<tag>{_TAG}))?(?:@(?P<digest>{_DIGEST}))?$"
)


def apply_default_image_tag(image: str) -> str:
    """``busybox`` → ``busybox:latest``; an image with a tag or digest is left as it is.

    Go: pkg/kubelet/images/image_manager.go applyDefaultImageTag

    Raises ValueError for a name that does not parse (Go returns an error).
    """
    m = _REFERENCE.match(image)
    if m is None or len(m.group("name")) > 255:
        raise ValueError(f'couldn\'t parse image reference "{image}": invalid reference format')
    is_tagged = m.group("tag") is not None
    is_digested = m.group("digest") is not None
    if not is_tagged and not is_digested:
        # Appended as text, so "busybox" stays "busybox:latest": the registry a short name means
        # is for the runtime to decide, not kubelet (no docker.io/library/ prefix).
        image = image + ":latest"
    return image
