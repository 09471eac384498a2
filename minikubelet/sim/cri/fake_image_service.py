"""A fake CRI image service: images in memory, pulls that take scripted time and may fail.

Not a port (Go's test double is staging/src/k8s.io/cri-api/pkg/apis/testing/fake_image_service.go).
How a pull of an image goes comes from the pod's ``minikubelet.dev/images`` annotation (the CRI
passes the pod's sandbox config, annotations included, to ``PullImage``) or the scenario file:
see [`minikubelet.sim.cri.scenario`][minikubelet.sim.cri.scenario]. Unscripted images pull at once
and succeed.

Failures are counted per image for the whole node: ``{fail: 2}`` makes the first two pulls of
the image fail, whichever pods asked. Image IDs are ``sha256:`` + the SHA-256 of the name, so they
are the same on every run.
"""

from __future__ import annotations

import hashlib
from collections import Counter, deque
from dataclasses import dataclass

from minikubelet.base import trace
from minikubelet.go import gosched
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.cri_api.pkg.apis.services import CRIError
from minikubelet.sim.cri.scenario import (
    ImageScript,
    Scenario,
    ScenarioError,
    default_tag,
    scripts_from_annotations,
)


@dataclass(slots=True)
class _Image:
    id: str
    name: str
    size: int

    def to_cri(self) -> runtimeapi.Image:
        digest = self.id.removeprefix("sha256:")
        repo = self.name.rsplit(":", 1)[0] if ":" in self.name.rsplit("/", 1)[-1] else self.name
        return runtimeapi.Image(
            id=self.id,
            repo_tags=[self.name],
            repo_digests=[f"{repo}@sha256:{digest}"],
            size=self.size,
            spec=runtimeapi.ImageSpec(image=self.id),
        )


def image_id(name: str) -> str:
    """The fake ID of an image: ``sha256:`` and the SHA-256 of its name."""
    return "sha256:" + hashlib.sha256(name.encode()).hexdigest()


class FakeImageService:
    """An in-memory CRI ``ImageManagerService`` (see the module docstring)."""

    def __init__(self, *, scenario: Scenario | None = None, yield_on_call: bool = True) -> None:
        self.scenario = scenario if scenario is not None else Scenario()
        #: Each call first lets the other goroutines run, as they would during a real RPC.
        self.yield_on_call = yield_on_call
        self.images: dict[str, _Image] = {}  # by name (with tag) and by ID
        self._pulls: Counter[str] = Counter()
        self._errors: dict[str, deque[Exception]] = {}
        #: How many times each method was called.
        self.calls: Counter[str] = Counter()
        for name in self.scenario.present_images:
            self.add_image(name)

    # -- knobs ----------------------------------------------------------------------------

    def add_image(self, name: str) -> str:
        """Put an image on the node (as if pulled earlier); return its ID."""
        name = default_tag(name)
        img = self.images.get(name)
        if img is None:
            iid = image_id(name)
            img = _Image(id=iid, name=name, size=1_000_000 + int(iid[7:13], 16) % 100_000_000)
            self.images[name] = img
            self.images[iid] = img
        return img.id

    def inject_error(self, method: str, err: Exception | None = None, times: int = 1) -> None:
        """Make the next ``times`` calls of ``method`` (``"pull_image"`` …) fail with ``err``."""
        e = err if err is not None else CRIError("Unknown", f"injected error in {method}")
        self._errors.setdefault(method, deque()).extend([e] * times)

    def lookup(self, image: str) -> runtimeapi.Image | None:
        """The image with that name or ID, if present (no call is counted)."""
        img = self.images.get(image) or self.images.get(default_tag(image))
        return None if img is None else img.to_cri()

    def pulls(self, image: str) -> int:
        """How many pulls of ``image`` were attempted."""
        return self._pulls[default_tag(image)]

    async def _enter(self, method: str) -> None:
        if self.yield_on_call:
            await gosched()  # as during a real RPC
        self.calls[method] += 1
        q = self._errors.get(method)
        if q:
            raise q.popleft()

    def _script(
        self, image: str, pod_sandbox_config: runtimeapi.PodSandboxConfig | None
    ) -> ImageScript:
        if pod_sandbox_config is not None and pod_sandbox_config.annotations:
            meta = pod_sandbox_config.metadata or runtimeapi.PodSandboxMetadata()
            try:
                _, scripts = scripts_from_annotations(
                    pod_sandbox_config.annotations, f"{meta.namespace}/{meta.name}"
                )
            except ScenarioError as e:
                raise CRIError("InvalidArgument", str(e)) from None
            if image in scripts:
                return scripts[image]
        images = self.scenario.images
        return images.get(image) or images.get("*") or ImageScript()

    # -- ImageManagerService --------------------------------------------------------------

    async def list_images(self, filter: runtimeapi.ImageFilter | None) -> list[runtimeapi.Image]:
        """Every image on the node (or the one ``filter`` names)."""
        await self._enter("list_images")
        seen = {img.id: img for img in self.images.values()}
        out = [img.to_cri() for img in seen.values()]
        if filter is not None and filter.image is not None and filter.image.image:
            want = self.lookup(filter.image.image)
            out = [i for i in out if want is not None and i.id == want.id]
        return out

    async def image_status(self, image: runtimeapi.ImageSpec) -> runtimeapi.Image | None:
        """The image if it is on the node, else None (not an error, as in the CRI)."""
        await self._enter("image_status")
        return self.lookup(image.image)

    async def pull_image(
        self,
        image: runtimeapi.ImageSpec,
        auth: runtimeapi.AuthConfig | None,
        pod_sandbox_config: runtimeapi.PodSandboxConfig | None,
    ) -> str:
        """Pull as scripted: take ``pullTime``, fail the first ``fail`` times; return the ID."""
        await self._enter("pull_image")
        name = default_tag(image.image)
        script = self._script(name, pod_sandbox_config)
        self._pulls[name] += 1
        attempt = self._pulls[name]
        if script.not_found:
            raise CRIError(
                "NotFound",
                f'failed to pull and unpack image "{name}": failed to resolve reference '
                f'"{name}": {name}: not found',
            )
        if script.pull_time > 0:
            from minikubelet.go import sleep

            await sleep(script.pull_time)
        if attempt <= script.fail:
            raise CRIError(
                "Unknown",
                f'failed to pull and unpack image "{name}": scripted pull failure '
                f"{attempt} of {script.fail}",
            )
        trace.cri("PullImage", pod_sandbox_config, name)
        return self.add_image(name)

    async def remove_image(self, image: runtimeapi.ImageSpec) -> None:
        """Remove the image (a missing one succeeds)."""
        await self._enter("remove_image")
        img = self.images.get(image.image) or self.images.get(default_tag(image.image))
        if img is not None:
            self.images.pop(img.id, None)
            self.images.pop(img.name, None)
